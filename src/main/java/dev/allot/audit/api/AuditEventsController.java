package dev.allot.audit.api;

import dev.allot.audit.AuditEvent;
import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditQuery;
import dev.allot.shared.CursorPage;
import dev.allot.shared.ListQuery;
import dev.allot.shared.security.Caller;
import java.time.Instant;
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
    CursorPage<AuditEvent> list(
            Caller caller,
            @RequestParam(required = false) @Nullable String tenant,
            @RequestParam(required = false) @Nullable String actor,
            @RequestParam(required = false) @Nullable Instant from,
            @RequestParam(required = false) @Nullable Instant to,
            @RequestParam(required = false) @Nullable Integer limit,
            @RequestParam(required = false) @Nullable String cursor,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        caller.requireReadsEverything();
        return auditLog.find(new AuditQuery(tenant, actor, from, to, ListQuery.of(page, size, limit, cursor, 2)));
    }
}
