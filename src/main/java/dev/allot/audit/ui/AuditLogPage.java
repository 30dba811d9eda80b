package dev.allot.audit.ui;

import dev.allot.audit.AuditEvent;
import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditQuery;
import dev.allot.shared.CursorPage;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.ListQuery;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.ViewerTimes;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.RequestHeader;

/**
 * Admin → Audit log, for platform admins and auditors. One method serves the page and, for htmx requests of
 * the filter form and the pager, only the results.
 */
@UiController
class AuditLogPage {

    private static final int PAGE_SIZE = 25;

    /** The filters as typed: times in the viewer's zone, as {@code datetime-local} inputs send them. */
    record Filters(
            @Nullable String tenant,
            @Nullable String actor,
            @Nullable String from,
            @Nullable String to,
            @Nullable Integer page) {

        public int pageNumber() {
            return page == null || page < 0 ? 0 : page;
        }

        public String tenantValue() {
            return tenant == null ? "" : tenant.strip();
        }

        public String actorValue() {
            return actor == null ? "" : actor.strip();
        }

        public String fromValue() {
            return from == null ? "" : from.strip();
        }

        public String toValue() {
            return to == null ? "" : to.strip();
        }
    }

    private final AuditLog auditLog;

    AuditLogPage(AuditLog auditLog) {
        this.auditLog = auditLog;
    }

    @GetMapping("/admin/audit")
    String audit(
            Caller caller,
            Model model,
            HttpServletRequest request,
            @ModelAttribute Filters filters,
            @RequestHeader(name = "HX-Request", required = false) @Nullable String htmx,
            @RequestHeader(name = "HX-Boosted", required = false) @Nullable String boosted) {
        caller.requireReadsEverything();
        FormErrors errors = new FormErrors();
        ViewerTimes times = ViewerTimes.of(request);
        Instant from = instant(times, filters.fromValue(), "from", errors);
        Instant to = instant(times, filters.toValue(), "to", errors);
        CursorPage<AuditEvent> events = null;
        if (errors.isEmpty()) {
            try {
                events = auditLog.find(new AuditQuery(
                        blankToNull(filters.tenantValue()),
                        blankToNull(filters.actorValue()),
                        from,
                        to,
                        new ListQuery(new PageQuery(filters.pageNumber(), PAGE_SIZE), null)));
            } catch (InvalidInputException invalid) {
                errors.add(invalid, "from");
            }
        }
        model.addAttribute("section", "admin");
        model.addAttribute("filters", filters);
        model.addAttribute("errors", errors);
        model.addAttribute("events", events);
        model.addAttribute("lastPage", events == null ? 0 : Math.max(0, (events.totalItems() - 1) / PAGE_SIZE));
        boolean fragment = htmx != null && boosted == null;
        return fragment ? "admin/audit :: results" : "admin/audit";
    }

    private static @Nullable Instant instant(ViewerTimes times, String value, String field, FormErrors errors) {
        if (value.isEmpty()) {
            return null;
        }
        Instant instant = times.parse(value);
        if (instant == null) {
            errors.add(field, "Enter a date and time like 2027-01-31T09:00");
        }
        return instant;
    }

    private static @Nullable String blankToNull(String value) {
        return value.isEmpty() ? null : value;
    }
}
