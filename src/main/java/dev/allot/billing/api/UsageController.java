package dev.allot.billing.api;

import dev.allot.billing.reports.UsageReport;
import dev.allot.billing.reports.UsageReports;
import dev.allot.shared.security.Caller;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code ?from=&to=&groupBy=project,gpuType,rateClass,label:workload,day} (or week, month, hour); the range defaults to the
 * current month. JSON, or CSV with {@code Accept: text/csv}.
 */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/usage")
class UsageController {

    private final UsageReports reports;

    UsageController(UsageReports reports) {
        this.reports = reports;
    }

    @GetMapping(produces = "application/json")
    UsageReport json(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable String to,
            @RequestParam(required = false) @Nullable String groupBy) {
        return reports.usage(caller, tenant, from, to, groupBy);
    }

    @GetMapping(produces = Csv.TEXT_CSV)
    ResponseEntity<String> csv(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable String to,
            @RequestParam(required = false) @Nullable String groupBy) {
        UsageReport report = reports.usage(caller, tenant, from, to, groupBy);
        // a column per label grouped by, named as grouped: label:workload
        List<String> labels =
                report.groupBy().stream().filter(g -> g.startsWith("label:")).toList();
        List<List<@Nullable Object>> rows = report.items().stream()
                .map(r -> {
                    List<@Nullable Object> row = new ArrayList<>(
                            Arrays.<@Nullable Object>asList(r.start(), r.project(), r.gpuType(), r.rateClass()));
                    labels.forEach(label ->
                            row.add(r.labels() == null ? null : r.labels().get(label.substring("label:".length()))));
                    row.addAll(Arrays.<@Nullable Object>asList(
                            r.gpuHours(), r.creditedGpuHours(), r.cost(), r.credits(), r.net(), r.currency()));
                    return row;
                })
                .toList();
        List<String> header = new ArrayList<>(List.of("start", "project", "gpuType", "rateClass"));
        header.addAll(labels);
        header.addAll(List.of("gpuHours", "creditedGpuHours", "cost", "credits", "net", "currency"));
        return Csv.of("usage-" + tenant + ".csv", header, rows);
    }
}
