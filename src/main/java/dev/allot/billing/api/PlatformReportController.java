package dev.allot.billing.api;

import dev.allot.billing.reports.PlatformReport;
import dev.allot.billing.reports.PlatformReports;
import dev.allot.shared.security.Caller;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/reports/platform?from=&to=&step=day&pool=}: platform admins and auditors. */
@RestController
class PlatformReportController {

    private final PlatformReports reports;

    PlatformReportController(PlatformReports reports) {
        this.reports = reports;
    }

    @GetMapping("/api/v1/reports/platform")
    PlatformReport report(
            Caller caller,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable String to,
            @RequestParam(required = false) @Nullable String step,
            @RequestParam(required = false) @Nullable String pool) {
        return reports.report(caller, from, to, step, pool);
    }
}
