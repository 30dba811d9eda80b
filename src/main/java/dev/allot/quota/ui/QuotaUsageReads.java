package dev.allot.quota.ui;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * What a tenant holds of a GPU type now and ahead, read from the priced usage the quota decision itself counts
 * ({@code quota_usage}), so the console compares limits with exactly what a booking would be checked against.
 * Reads only; the {@link dev.allot.quota.Quotas} facade has no such read, and this page is its only user.
 */
@Component
@Transactional(readOnly = true)
class QuotaUsageReads {

    /** A reservation of the tenant still holding GPUs after {@code from}: its whole window and its GPUs. */
    record Booked(UUID reservationId, Instant startsAt, Instant endsAt, int gpus) {}

    private final JdbcClient jdbc;

    QuotaUsageReads(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<Booked> bookedFrom(UUID tenantId, UUID gpuTypeId, Instant from) {
        return jdbc.sql("""
				SELECT reservation_id, min(lower(during)) AS s, max(upper(during)) AS e,
				       max(reserved_gpus + borrowed_gpus + on_demand_gpus) AS gpus
				FROM quota_usage
				WHERE tenant_id = ? AND gpu_type_id = ? AND reservation_id IN (
				    SELECT reservation_id FROM quota_usage
				    WHERE tenant_id = ? AND gpu_type_id = ? AND during && tstzrange(?, 'infinity'))
				GROUP BY reservation_id ORDER BY s, reservation_id""")
                .params(tenantId, gpuTypeId, tenantId, gpuTypeId, Timestamp.from(from))
                .query((rs, n) -> new Booked(
                        rs.getObject("reservation_id", UUID.class),
                        rs.getTimestamp("s").toInstant(),
                        rs.getTimestamp("e").toInstant(),
                        rs.getInt("gpus")))
                .list();
    }

    /** Priced spend per calendar month (UTC) from the month of {@code from} on. */
    Map<YearMonth, BigDecimal> spendFrom(UUID tenantId, UUID gpuTypeId, Instant from) {
        YearMonth first = YearMonth.from(from.atOffset(ZoneOffset.UTC));
        Instant start = first.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        Map<YearMonth, BigDecimal> spend = new TreeMap<>();
        jdbc.sql("""
				SELECT to_char(lower(during) AT TIME ZONE 'UTC', 'YYYY-MM') AS month, sum(amount) AS spent
				FROM quota_usage
				WHERE tenant_id = ? AND gpu_type_id = ? AND during && tstzrange(?, 'infinity')
				GROUP BY 1""")
                .params(tenantId, gpuTypeId, Timestamp.from(start))
                .query((rs, n) -> spend.put(YearMonth.parse(rs.getString("month")), rs.getBigDecimal("spent")))
                .list();
        return spend;
    }
}
