package dev.allot.billing.reports;

import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Timestamp;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Reserved versus used GPU-hours, from the ledger's billed hours and the fleet's GPU-utilisation samples. */
@Service
@Transactional(readOnly = true)
public class Utilisations {

    private static final Set<String> UNITS = Set.of("day", "week", "month");

    private final JdbcClient jdbc;

    private final Tenancy tenancy;

    Utilisations(JdbcClient jdbc, Tenancy tenancy) {
        this.jdbc = jdbc;
        this.tenancy = tenancy;
    }

    public Utilisation of(Caller caller, String tenantSlug, ReportRange range, String unit) {
        return of(caller, tenantSlug, range, unit, ZoneOffset.UTC);
    }

    /** The same, with buckets as days, weeks and months fall in {@code zone}. */
    public Utilisation of(Caller caller, String tenantSlug, ReportRange range, String unit, ZoneId zone) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        if (!UNITS.contains(unit)) {
            throw InvalidInputException.of("unit", "must be one of day, week, month");
        }
        // Samples are read only inside the billed part of each hour, so a node's previous tenant never counts.
        var buckets = jdbc.sql("""
				WITH billed AS (
				    SELECT e.reservation_id, e.period_start AS hour,
				           sum(CASE WHEN e.line = 'USAGE' THEN e.gpu_seconds ELSE -e.gpu_seconds END) AS seconds
				    FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id
				    JOIN ledger_account a ON a.id = e.account_id
				    WHERE t.tenant_id = :tenant AND a.kind = 'RECEIVABLE' AND e.line IN ('USAGE', 'CREDIT')
				      AND e.period_start >= :from AND e.period_start < :to
				    GROUP BY 1, 2),
				observed AS (
				    SELECT b.hour, b.seconds,
				           (SELECT avg(s.utilisation) FROM gpu_utilisation_sample s
				            WHERE s.hostname = ANY (r.nodes)
				              AND s.at <@ coalesce(m.billed, tstzrange(b.hour, b.hour + interval '1 hour'))) AS utilisation
				    FROM billed b JOIN billable_reservation r ON r.reservation_id = b.reservation_id
				    LEFT JOIN metered_period m ON m.reservation_id = b.reservation_id AND m.hour = b.hour)
				SELECT date_trunc(:unit, hour, :zone) AS bucket, sum(seconds) AS reserved,
				       coalesce(sum(seconds) FILTER (WHERE utilisation IS NOT NULL), 0) AS observed,
				       coalesce(sum(seconds * utilisation / 100) FILTER (WHERE utilisation IS NOT NULL), 0) AS used
				FROM observed GROUP BY 1 HAVING sum(seconds) <> 0 ORDER BY 1""")
                .param("tenant", tenant.id())
                .param("from", Timestamp.from(range.from()))
                .param("to", Timestamp.from(range.to()))
                .param("unit", unit)
                .param("zone", zone.getId())
                .query((rs, n) -> new Utilisation.UtilisationBucket(
                        rs.getTimestamp("bucket").toInstant(),
                        hours(rs.getBigDecimal("reserved")),
                        hours(rs.getBigDecimal("observed")),
                        hours(rs.getBigDecimal("used"))))
                .list();
        return new Utilisation(tenant.slug(), range.from(), range.to(), unit, buckets);
    }

    private static BigDecimal hours(BigDecimal gpuSeconds) {
        return gpuSeconds.divide(BigDecimal.valueOf(3600), 4, RoundingMode.HALF_EVEN);
    }
}
