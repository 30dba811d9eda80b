package dev.allot.audit.api;

import java.time.Instant;

import dev.allot.audit.AuditEvent;
import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditQuery;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class AuditEventsController {

	private final AuditLog auditLog;

	AuditEventsController(AuditLog auditLog) {
		this.auditLog = auditLog;
	}

	@GetMapping("/api/v1/audit-events")
	PageResponse<AuditEvent> list(Caller caller, @RequestParam(required = false) @Nullable String tenant,
			@RequestParam(required = false) @Nullable String actor, @RequestParam(required = false) @Nullable Instant from,
			@RequestParam(required = false) @Nullable Instant to, @RequestParam(required = false) @Nullable Integer page,
			@RequestParam(required = false) @Nullable Integer size) {
		caller.requireReadsEverything();
		return auditLog.find(new AuditQuery(tenant, actor, from, to, PageQuery.of(page, size)));
	}

}
