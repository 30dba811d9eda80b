package dev.allot.billing.reports;

import dev.allot.billing.ledger.LedgerRepository;
import dev.allot.booking.spec.Labels.Filter;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Tenants' usage reports, read from their receivable entries (so they agree with statements). */
@Service
@Transactional(readOnly = true)
public class UsageReports {

    /** Allowed groupings and the SQL each stands for (only these ever reach the query). */
    private static final Map<String, String> DIMENSIONS =
            Map.of("project", "e.project", "gpuType", "e.gpu_type", "rateClass", "e.rate_class");

    private static final Set<String> TIME_UNITS = Set.of("hour", "day", "week", "month");

    /** {@code label:<key>}: usage grouped by the value of a reservation label (cost per workload kind, say). */
    private static final String LABEL = "label:";

    private static final int MAX_LABELS = 3;

    private final JdbcClient jdbc;

    private final Tenancy tenancy;

    private final Clock clock;

    UsageReports(JdbcClient jdbc, Tenancy tenancy, Clock clock) {
        this.jdbc = jdbc;
        this.tenancy = tenancy;
        this.clock = clock;
    }

    public UsageReport usage(
            Caller caller, String tenantSlug, @Nullable String from, @Nullable String to, @Nullable String groupBy) {
        return usage(caller, tenantSlug, from, to, groupBy, ZoneOffset.UTC);
    }

    /** The same, with days, weeks and months as they fall in {@code zone} (the API's are UTC; pages use the viewer's). */
    public UsageReport usage(
            Caller caller,
            String tenantSlug,
            @Nullable String from,
            @Nullable String to,
            @Nullable String groupBy,
            ZoneId zone) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        ReportRange range = range(from, to);
        List<String> groups = groups(groupBy);
        String unit = groups.stream().filter(TIME_UNITS::contains).findFirst().orElse(null);
        List<String> columns = new ArrayList<>();
        columns.add(unit == null ? "NULL::timestamptz" : "date_trunc('" + unit + "', e.period_start, ?)");
        for (String dimension : List.of("project", "gpuType", "rateClass")) {
            columns.add(groups.contains(dimension) ? DIMENSIONS.get(dimension) : "NULL");
        }
        List<String> labelKeys = groups.stream()
                .filter(g -> g.startsWith(LABEL))
                .map(g -> g.substring(LABEL.length()))
                .toList();
        labelKeys.forEach(key -> columns.add("b.labels ->> ?"));
        String select = String.join(", ", columns);
        String groupColumns = IntStream.rangeClosed(1, columns.size())
                .mapToObj(Integer::toString)
                .collect(Collectors.joining(", "));
        List<Object> params = new ArrayList<>();
        if (unit != null) {
            params.add(zone.getId());
        }
        params.addAll(labelKeys);
        params.addAll(List.of(tenant.id(), Timestamp.from(range.from()), Timestamp.from(range.to())));
        List<UsageReport.Row> rows = jdbc.sql("SELECT " + select + """
				, e.currency,
				       coalesce(sum(e.gpu_seconds) FILTER (WHERE e.line = 'USAGE'), 0) AS used,
				       coalesce(sum(e.gpu_seconds) FILTER (WHERE e.line = 'CREDIT'), 0) AS credited,
				       coalesce(sum(e.amount) FILTER (WHERE e.line = 'USAGE'), 0) AS cost,
				       coalesce(sum(e.amount) FILTER (WHERE e.line = 'CREDIT'), 0) AS credits,
				       sum(e.amount) AS net
				FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id
				JOIN ledger_account a ON a.id = e.account_id"""
                        + (labelKeys.isEmpty()
                                ? ""
                                : " LEFT JOIN billable_reservation b ON b.reservation_id = e.reservation_id")
                        + """

				WHERE t.tenant_id = ? AND a.kind = 'RECEIVABLE' AND e.line IN ('USAGE', 'CREDIT')
				  AND e.period_start >= ? AND e.period_start < ?
				GROUP BY""" + " " + groupColumns + ", e.currency ORDER BY " + groupColumns + ", e.currency")
                .params(params)
                .query((rs, n) -> row(rs, labelKeys))
                .list();
        return new UsageReport(tenant.slug(), range.from(), range.to(), groups, rows);
    }

    /** The range asked for, this UTC month by default. */
    private ReportRange range(@Nullable String from, @Nullable String to) {
        YearMonth month = YearMonth.from(clock.instant().atOffset(ZoneOffset.UTC));
        ReportRange range = ReportRange.parse(
                from,
                to,
                month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC),
                month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC));
        return range;
    }

    /** A row of the report: the grouping's columns (time, project, GPU type, rate class, labels) and its sums. */
    private static UsageReport.Row row(ResultSet rs, List<String> labelKeys) throws SQLException {
        Timestamp start = rs.getTimestamp(1);
        String rateClass = rs.getString(4);
        Map<String, @Nullable String> labels = null;
        if (!labelKeys.isEmpty()) {
            labels = new LinkedHashMap<>();
            for (int i = 0; i < labelKeys.size(); i++) {
                labels.put(labelKeys.get(i), rs.getString(5 + i));
            }
        }
        return new UsageReport.Row(
                start == null ? null : start.toInstant(),
                rs.getString(2),
                rs.getString(3),
                rateClass == null ? null : RateClass.valueOf(rateClass),
                rs.getString("currency"),
                LedgerRepository.gpuHours(rs.getLong("used")),
                LedgerRepository.gpuHours(rs.getLong("credited")),
                rs.getBigDecimal("cost"),
                rs.getBigDecimal("credits"),
                rs.getBigDecimal("net"),
                labels);
    }

    private static List<String> groups(@Nullable String groupBy) {
        Set<String> groups = new LinkedHashSet<>();
        if (groupBy == null || groupBy.isBlank()) {
            return List.of();
        }
        for (String group : groupBy.split(",")) {
            String g = group.trim();
            if (g.startsWith(LABEL)) {
                String key = g.substring(LABEL.length());
                if (key.contains("=")) {
                    throw InvalidInputException.of("groupBy", "label:<key> names a label key, without a value");
                }
                Filter.parse(key);
            } else if (!DIMENSIONS.containsKey(g) && !TIME_UNITS.contains(g)) {
                throw InvalidInputException.of(
                        "groupBy",
                        "unknown grouping " + g
                                + "; allowed: project, gpuType, rateClass, label:<key>, and one of hour, day, week, month");
            }
            if (!groups.add(g)) {
                throw InvalidInputException.of("groupBy", g + " appears more than once");
            }
        }
        if (groups.stream().filter(g -> g.startsWith(LABEL)).count() > MAX_LABELS) {
            throw InvalidInputException.of("groupBy", "at most " + MAX_LABELS + " labels");
        }
        if (groups.stream().filter(TIME_UNITS::contains).count() > 1) {
            throw InvalidInputException.of("groupBy", "at most one of hour, day, week, month");
        }
        return List.copyOf(groups);
    }
}
