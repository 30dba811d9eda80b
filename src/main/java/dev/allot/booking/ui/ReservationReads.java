package dev.allot.booking.ui;

import dev.allot.booking.NowAndNext;
import dev.allot.booking.NowAndNext.Warning;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.store.ReservationStages;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * A tenant's reservations as the list page shows them, with the one filter {@code Bookings.list} lacks (project).
 * Reads booking's own table; the status is read as {@code Reservation.status} reads it
 * ({@link ReservationStages}), so the page and the API never disagree.
 */
@Component
@Transactional(readOnly = true)
class ReservationReads {

    record Filter(
            @Nullable ReservationStatus status,
            @Nullable String project,
            @Nullable String pool,
            @Nullable Instant from,
            @Nullable Instant to,
            Instant now) {}

    /**
     * The columns the list sorts on, each with its SQL (never taken from the request). {@code UPCOMING}, the
     * default, puts what has not ended yet first, the soonest start first, then the rest, the latest start first.
     */
    enum Sort {
        UPCOMING(null),
        RESERVATION("r.id"),
        STATUS("""
				CASE WHEN r.cancelled_at IS NOT NULL THEN 4 WHEN r.starts_at > :now THEN 1 WHEN r.ends_at > :now THEN 0
				ELSE 3 END"""),
        PROJECT("r.project_slug"),
        POOL("r.pool_name"),
        GPUS("r.gpus"),
        STARTS("r.starts_at"),
        ENDS("r.ends_at"),
        PRICE("(r.quote ->> 'total')::numeric");

        private final @Nullable String column;

        Sort(@Nullable String column) {
            this.column = column;
        }

        /** The sort a URL names ({@code starts}, {@code price}...), or the default. */
        static Sort named(@Nullable String name) {
            for (Sort sort : values()) {
                if (sort.name().equalsIgnoreCase(name == null ? "" : name.strip())) {
                    return sort;
                }
            }
            return UPCOMING;
        }

        public String param() {
            return name().toLowerCase(Locale.ROOT);
        }

        String orderBy(boolean descending, Timestamp now, List<Object> params) {
            if (column == null) {
                params.add(now);
                params.add(now);
                return " ORDER BY (r.ends_at <= ? OR r.cancelled_at IS NOT NULL), CASE WHEN r.ends_at > ?"
                        + " AND r.cancelled_at IS NULL THEN r.starts_at END, r.starts_at DESC, r.id";
            }
            String expression = column;
            while (expression.contains(":now")) {
                expression = expression.replaceFirst(":now", "?");
                params.add(now);
            }
            String direction = descending ? " DESC NULLS LAST" : " ASC NULLS LAST";
            return " ORDER BY " + expression + direction + ", r.starts_at" + (descending ? " DESC" : "") + ", r.id";
        }
    }

    record Row(
            UUID id,
            String project,
            String pool,
            String gpuType,
            int gpus,
            Instant startsAt,
            Instant endsAt,
            @Nullable Instant cancelledAt,
            int nodes,
            @Nullable BigDecimal total,
            @Nullable String currency,
            ReservationStatus status,
            boolean degraded) {

        /** What needs its owner's attention: preempted, failed, its cluster degraded; null when nothing. */
        public @Nullable Warning warning() {
            return NowAndNext.warning(status, degraded);
        }
    }

    private final JdbcClient jdbc;

    ReservationReads(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    PageResponse<Row> list(UUID tenantId, Filter filter, Sort sort, boolean descending, PageQuery page) {
        StringBuilder where = new StringBuilder(" WHERE r.tenant_id = ?");
        List<Object> params = new ArrayList<>(List.of(tenantId));
        if (filter.project() != null) {
            where.append(" AND r.project_slug = ?");
            params.add(filter.project());
        }
        if (filter.pool() != null) {
            where.append(" AND r.pool_name = ?");
            params.add(filter.pool());
        }
        if (filter.from() != null) {
            where.append(" AND r.ends_at > ?");
            params.add(Timestamp.from(filter.from()));
        }
        if (filter.to() != null) {
            where.append(" AND r.starts_at < ?");
            params.add(Timestamp.from(filter.to()));
        }
        if (filter.status() != null) {
            ReservationStages.filter(filter.status(), filter.now(), where, params);
        }
        long total = jdbc.sql("SELECT count(*) FROM " + ReservationStages.FROM + where)
                .params(params)
                .query(Long.class)
                .single();
        List<Object> paged = new ArrayList<>(params);
        String orderBy = sort.orderBy(descending, Timestamp.from(filter.now()), paged);
        paged.add(page.size());
        paged.add(page.offset());
        List<Row> rows = jdbc.sql("""
				SELECT r.id, r.project_slug, r.pool_name, r.gpu_type, r.gpus, r.starts_at, r.ends_at, r.cancelled_at,
				       cardinality(r.nodes) AS node_count, (r.quote ->> 'total')::numeric AS total,
				       r.quote ->> 'currency' AS currency, """ + ReservationStages.DEGRADED + " AS degraded, "
                        + ReservationStages.STAGE + " AS stage FROM " + ReservationStages.FROM + where + orderBy
                        + " LIMIT ? OFFSET ?")
                .params(paged)
                .query((rs, n) -> {
                    Instant start = rs.getTimestamp("starts_at").toInstant();
                    Instant end = rs.getTimestamp("ends_at").toInstant();
                    Timestamp cancelled = rs.getTimestamp("cancelled_at");
                    return new Row(
                            rs.getObject("id", UUID.class),
                            rs.getString("project_slug"),
                            rs.getString("pool_name"),
                            rs.getString("gpu_type"),
                            rs.getInt("gpus"),
                            start,
                            end,
                            cancelled == null ? null : cancelled.toInstant(),
                            rs.getInt("node_count"),
                            rs.getBigDecimal("total"),
                            rs.getString("currency"),
                            status(cancelled != null, rs.getString("stage"), end, filter.now()),
                            rs.getBoolean("degraded"));
                })
                .list();
        return PageResponse.of(rows, page, total);
    }

    /** Whether the reservation's cluster serves {@code DEGRADED} now. */
    boolean degraded(UUID reservationId) {
        return jdbc.sql("SELECT " + ReservationStages.DEGRADED + " FROM " + ReservationStages.FROM + " WHERE r.id = ?")
                .param(reservationId)
                .query(Boolean.class)
                .optional()
                .orElse(false);
    }

    /** The pools the tenant has ever booked, for the list's filter. */
    List<String> pools(UUID tenantId) {
        return jdbc.sql("SELECT DISTINCT pool_name FROM reservation WHERE tenant_id = ? ORDER BY pool_name")
                .param(tenantId)
                .query(String.class)
                .list();
    }

    /** As {@code Reservation.status}: cancelled, else the stage read, else the clock. */
    private static ReservationStatus status(boolean cancelled, @Nullable String stage, Instant end, Instant now) {
        if (cancelled) {
            return ReservationStatus.CANCELLED;
        }
        if (stage != null) {
            return ReservationStatus.valueOf(stage);
        }
        return now.isBefore(end) ? ReservationStatus.CONFIRMED : ReservationStatus.COMPLETED;
    }
}
