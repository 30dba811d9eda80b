package dev.allot.billing.ui;

import dev.allot.billing.budgets.Notifications;
import dev.allot.billing.reports.UsageReport;
import dev.allot.billing.reports.UsageReports;
import dev.allot.shared.ListQuery;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.CurrentTenant;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.ViewerTimes;
import dev.allot.tenancy.Tenancy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * A tenant's usage for a month: cost by project and rate class as metered into the ledger, the statement to
 * download, and the latest budget alerts; and charts of GPU-hours, cost, and reserved versus used GPU-hours over
 * a chosen range.
 */
@UiController
class UsagePage {

    /** Totals per currency, and per project and rate class. */
    record Summary(Map<String, BigDecimal> totals, List<UsageReport.Row> rows) {}

    private final UsageReports usage;

    private final Notifications notifications;

    private final Tenancy tenancy;

    private final UsageCharts charts;

    private final Clock clock;

    UsagePage(UsageReports usage, Notifications notifications, Tenancy tenancy, UsageCharts charts, Clock clock) {
        this.usage = usage;
        this.notifications = notifications;
        this.tenancy = tenancy;
        this.charts = charts;
        this.clock = clock;
    }

    @GetMapping("/usage")
    String mine(Caller caller, Model model, HttpSession session) {
        return CurrentTenant.of(caller, session)
                .map(tenant -> "redirect:/tenants/" + tenant + "/usage")
                .orElseGet(() -> {
                    model.addAttribute("section", "usage");
                    return "billing/no-tenant";
                });
    }

    /**
     * The month's table and alerts, and charts over {@code from}..{@code through} (the month by default); an htmx
     * request from the chart form gets only the charts.
     */
    @GetMapping("/tenants/{tenant}/usage")
    String usage(
            Caller caller,
            Model model,
            HttpSession session,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable String month,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable String through,
            @RequestParam(required = false) @Nullable String unit,
            @RequestParam(required = false) @Nullable String by,
            @RequestHeader(name = "HX-Request", required = false) @Nullable String htmx,
            HttpServletRequest request) {
        model.addAttribute("tenant", tenancy.readable(caller, tenant));
        CurrentTenant.choose(caller, session, tenant);
        YearMonth current = YearMonth.from(clock.instant().atOffset(ZoneOffset.UTC));
        YearMonth shown = parse(month, current);
        if (shown == null) {
            model.addAttribute("monthError", "Choose a month as YYYY-MM");
            shown = current;
        }
        model.addAttribute("section", "usage");
        model.addAttribute("month", shown);
        model.addAttribute(
                "charts",
                charts.view(
                        caller,
                        tenant,
                        UsageCharts.form(from, through, unit, by, shown),
                        ViewerTimes.of(request).zone()));
        if (htmx != null) {
            return "billing/usage :: charts";
        }
        String monthStart =
                shown.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString();
        String monthEnd = shown.plusMonths(1)
                .atDay(1)
                .atStartOfDay()
                .toInstant(ZoneOffset.UTC)
                .toString();
        UsageReport report = usage.usage(caller, tenant, monthStart, monthEnd, "project,rateClass");
        Map<String, BigDecimal> totals = new TreeMap<>();
        report.items().forEach(row -> totals.merge(row.currency(), row.net(), BigDecimal::add));
        model.addAttribute("previous", shown.minusMonths(1));
        model.addAttribute("next", shown.isBefore(current) ? shown.plusMonths(1) : null);
        model.addAttribute("summary", new Summary(totals, report.items()));
        ListQuery newest = new ListQuery(new PageQuery(0, 10), null);
        model.addAttribute(
                "alerts",
                NoticeView.of(notifications.list(caller, tenant, newest).items(), tenant));
        return "billing/usage";
    }

    private static @Nullable YearMonth parse(@Nullable String month, YearMonth fallback) {
        if (month == null || month.isBlank()) {
            return fallback;
        }
        try {
            YearMonth parsed = YearMonth.parse(month);
            return parsed.isAfter(fallback) ? null : parsed;
        } catch (DateTimeParseException ex) {
            return null;
        }
    }
}
