package dev.allot.billing.ui;

import dev.allot.billing.reports.ReportRange;
import dev.allot.billing.reports.UsageReport;
import dev.allot.billing.reports.UsageReports;
import dev.allot.billing.reports.Utilisation;
import dev.allot.billing.reports.Utilisations;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.Words;
import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.lang.Contract;
import org.springframework.stereotype.Component;

/**
 * The Usage page's charts for a chosen range: GPU-hours and cost stacked by project or rate class per day,
 * week or month, and reserved versus used GPU-hours. Everything is read from the ledger (as statements are)
 * and from the GPU-utilisation samples.
 */
@Component
class UsageCharts {

    /** What the chart form asks for, as typed; {@code through} is the last day shown (inclusive). */
    record Form(String from, String through, String unit, String by) {}

    /** The form (with messages), and the charts when it was valid. */
    record View(
            Form form,
            FormErrors errors,
            List<BarChart> charts,
            @Nullable BarChart utilisationChart,
            List<UtilisationRow> utilisation) {}

    /** A bucket of reserved versus used GPU-hours, labelled as its chart column is. */
    record UtilisationRow(String label, Utilisation.UtilisationBucket bucket) {}

    private static final Set<String> UNITS = Set.of("day", "week", "month");

    private static final int MOST_SERIES = 8;

    private final UsageReports usage;

    private final Utilisations utilisations;

    UsageCharts(UsageReports usage, Utilisations utilisations) {
        this.usage = usage;
        this.utilisations = utilisations;
    }

    /** The form's values, each defaulting to the whole of {@code month} by day and project. */
    static Form form(
            @Nullable String from,
            @Nullable String through,
            @Nullable String unit,
            @Nullable String by,
            YearMonth month) {
        return new Form(
                blank(from) ? month.atDay(1).toString() : from.trim(),
                blank(through) ? month.atEndOfMonth().toString() : through.trim(),
                blank(unit) ? "day" : unit,
                blank(by) ? "project" : by);
    }

    View view(Caller caller, String tenant, Form form, ZoneId zone) {
        FormErrors errors = new FormErrors();
        LocalDate from = date(form.from(), "from", errors);
        LocalDate through = date(form.through(), "through", errors);
        if (!UNITS.contains(form.unit())) {
            errors.add("unit", "Choose day, week or month");
        }
        if (!form.by().equals("project") && !form.by().equals("rateClass")) {
            errors.add("by", "Choose project or rate class");
        }
        if (from == null || through == null || !errors.isEmpty()) {
            return new View(form, errors, List.of(), null, List.of());
        }
        ReportRange range;
        try {
            // the viewer's days: from the first day's midnight to the midnight after the last, in their zone
            range = ReportRange.parse(
                    from.atStartOfDay(zone).toInstant().toString(),
                    through.plusDays(1).atStartOfDay(zone).toInstant().toString(),
                    Instant.EPOCH,
                    Instant.EPOCH);
        } catch (InvalidInputException invalid) {
            invalid.errors()
                    .forEach(e -> errors.add(
                            e.field().equals("to") ? "through" : e.field(),
                            e.message().replace("must be after from", "must be on or after the first day")));
            return new View(form, errors, List.of(), null, List.of());
        }
        List<LocalDate> buckets = buckets(from, through, form.unit());
        UsageReport report = usage.usage(
                caller, tenant, range.from().toString(), range.to().toString(), form.unit() + "," + form.by(), zone);
        List<BarChart> charts = usageCharts(report, form, buckets, zone);
        Utilisation used = utilisations.of(caller, tenant, range, form.unit(), zone);
        Map<LocalDate, Utilisation.UtilisationBucket> byStart = new HashMap<>();
        used.buckets().forEach(b -> byStart.put(day(b.start(), zone), b));
        List<String> labels = labels(buckets, form.unit(), false);
        BigDecimal[][] values = new BigDecimal[buckets.size()][];
        List<UtilisationRow> rows = new ArrayList<>();
        for (int i = 0; i < buckets.size(); i++) {
            Utilisation.UtilisationBucket b = byStart.get(buckets.get(i));
            values[i] = b == null
                    ? new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO}
                    : new BigDecimal[] {b.reservedGpuHours(), b.usedGpuHours()};
            if (b != null) {
                rows.add(new UtilisationRow(labels.get(i), b));
            }
        }
        BarChart utilisation = BarChart.of(
                "utilisation-chart",
                "Reserved versus used GPU-hours per " + form.unit(),
                "GPU-hours",
                false,
                List.of("Reserved", "Used"),
                labels,
                labels(buckets, form.unit(), true),
                values);
        return new View(form, errors, charts, utilisation, rows);
    }

    /** GPU-hours by the grouping per unit, then net cost per currency. */
    private static List<BarChart> usageCharts(UsageReport report, Form form, List<LocalDate> buckets, ZoneId zone) {
        List<BarChart> charts = new ArrayList<>();
        String grouping = form.by().equals("project") ? "project" : "rate class";
        charts.add(stacked(
                "gpu-hours-chart",
                "GPU-hours by " + grouping + " per " + form.unit(),
                "GPU-hours",
                report.items(),
                form,
                buckets,
                zone,
                row -> row.gpuHours().subtract(row.creditedGpuHours())));
        for (String currency : new TreeSet<>(
                report.items().stream().map(UsageReport.Row::currency).toList())) {
            List<UsageReport.Row> rows = report.items().stream()
                    .filter(r -> r.currency().equals(currency))
                    .toList();
            charts.add(stacked(
                    "cost-chart-" + currency.toLowerCase(),
                    "Net cost in " + currency + " by " + grouping + " per " + form.unit(),
                    currency,
                    rows,
                    form,
                    buckets,
                    zone,
                    UsageReport.Row::net));
        }
        return charts;
    }

    private static BarChart stacked(
            String id,
            String title,
            String unit,
            List<UsageReport.Row> rows,
            Form form,
            List<LocalDate> buckets,
            ZoneId zone,
            Function<UsageReport.Row, BigDecimal> value) {
        Function<UsageReport.Row, String> seriesOf =
                form.by().equals("project") ? UsageReport.Row::project : row -> Words.word(row.rateClass());
        Map<String, BigDecimal> totals = new LinkedHashMap<>();
        if (form.by().equals("rateClass")) {
            for (RateClass rateClass : RateClass.values()) {
                totals.put(Words.word(rateClass), BigDecimal.ZERO);
            }
        }
        rows.forEach(row -> totals.merge(String.valueOf(seriesOf.apply(row)), value.apply(row), BigDecimal::add));
        List<String> series = new ArrayList<>(totals.keySet());
        if (form.by().equals("project")) {
            series.sort(Comparator.comparing(totals::get, Comparator.reverseOrder()));
        } else {
            series.removeIf(name -> Objects.requireNonNull(totals.get(name), "a series has its total")
                            .signum()
                    == 0);
        }
        boolean folded = series.size() > MOST_SERIES;
        if (folded) {
            series = new ArrayList<>(series.subList(0, MOST_SERIES - 1));
            series.add("Other projects");
        }
        Map<LocalDate, Integer> column = new HashMap<>();
        for (int i = 0; i < buckets.size(); i++) {
            column.put(buckets.get(i), i);
        }
        BigDecimal[][] values = new BigDecimal[buckets.size()][series.size()];
        for (BigDecimal[] row : values) {
            Arrays.fill(row, BigDecimal.ZERO);
        }
        for (UsageReport.Row row : rows) {
            Integer c = row.start() == null ? null : column.get(day(row.start(), zone));
            int s = series.indexOf(String.valueOf(seriesOf.apply(row)));
            if (c != null) {
                int at = s >= 0 ? s : series.size() - 1;
                values[c][at] = values[c][at].add(value.apply(row));
            }
        }
        return BarChart.of(
                id,
                title,
                unit,
                true,
                series,
                labels(buckets, form.unit(), false),
                labels(buckets, form.unit(), true),
                values);
    }

    /** The first day of each bucket touching {@code [from, through]}: days, ISO weeks (Mondays) or months. */
    static List<LocalDate> buckets(LocalDate from, LocalDate through, String unit) {
        LocalDate start = switch (unit) {
            case "week" -> from.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case "month" -> from.withDayOfMonth(1);
            default -> from;
        };
        List<LocalDate> buckets = new ArrayList<>();
        for (LocalDate d = start;
                !d.isAfter(through);
                d = switch (unit) {
                    case "week" -> d.plusWeeks(1);
                    case "month" -> d.plusMonths(1);
                    default -> d.plusDays(1);
                }) {
            buckets.add(d);
        }
        return buckets;
    }

    private static List<String> labels(List<LocalDate> buckets, String unit, boolean axis) {
        return buckets.stream()
                .map(d -> switch (unit) {
                    case "month" -> YearMonth.from(d).toString();
                    case "week" -> axis ? d.toString().substring(5) : "Week of " + d;
                    default -> axis ? d.toString().substring(5) : d.toString();
                })
                .toList();
    }

    private static LocalDate day(Instant instant, ZoneId zone) {
        return LocalDate.ofInstant(instant, zone);
    }

    private static @Nullable LocalDate date(String value, String field, FormErrors errors) {
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException ex) {
            errors.add(field, "Enter a date like 2027-01-31");
            return null;
        }
    }

    @Contract("null -> true")
    private static boolean blank(@Nullable String value) {
        return value == null || value.isBlank();
    }
}
