package dev.allot.booking.ui;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.allot.booking.ReservationStatus;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * A tenant's reservations as the list page shows them, with the one filter {@code Bookings.list} lacks (project).
 * Reads booking's own table; the status follows the same rule as {@code Reservation.status}: cancelled is stored,
 * the others follow from the clock.
 */
@Component
@Transactional(readOnly = true)
class ReservationReads {

	record Filter(@Nullable ReservationStatus status, @Nullable String project, @Nullable Instant from,
			@Nullable Instant to, Instant now) {
	}

	record Row(UUID id, String project, String pool, String gpuType, int gpus, Instant startsAt, Instant endsAt,
			@Nullable Instant cancelledAt, int nodes, @Nullable BigDecimal total, @Nullable String currency,
			ReservationStatus status) {
	}

	private final JdbcClient jdbc;

	ReservationReads(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	PageResponse<Row> list(UUID tenantId, Filter filter, PageQuery page) {
		StringBuilder where = new StringBuilder(" WHERE tenant_id = ?");
		List<Object> params = new ArrayList<>(List.of(tenantId));
		if (filter.project() != null) {
			where.append(" AND project_slug = ?");
			params.add(filter.project());
		}
		if (filter.from() != null) {
			where.append(" AND ends_at > ?");
			params.add(Timestamp.from(filter.from()));
		}
		if (filter.to() != null) {
			where.append(" AND starts_at < ?");
			params.add(Timestamp.from(filter.to()));
		}
		if (filter.status() != null) {
			Timestamp now = Timestamp.from(filter.now());
			switch (filter.status()) {
				case CANCELLED -> where.append(" AND cancelled_at IS NOT NULL");
				case CONFIRMED -> {
					where.append(" AND cancelled_at IS NULL AND starts_at > ?");
					params.add(now);
				}
				case ACTIVE -> {
					where.append(" AND cancelled_at IS NULL AND starts_at <= ? AND ends_at > ?");
					params.add(now);
					params.add(now);
				}
				case COMPLETED -> {
					where.append(" AND cancelled_at IS NULL AND ends_at <= ?");
					params.add(now);
				}
			}
		}
		long total = jdbc.sql("SELECT count(*) FROM reservation" + where).params(params).query(Long.class).single();
		List<Object> paged = new ArrayList<>(params);
		paged.add(page.size());
		paged.add(page.offset());
		List<Row> rows = jdbc.sql("""
				SELECT id, project_slug, pool_name, gpu_type, gpus, starts_at, ends_at, cancelled_at,
				       cardinality(nodes) AS node_count, (quote ->> 'total')::numeric AS total, quote ->> 'currency' AS currency
				FROM reservation""" + where + " ORDER BY starts_at DESC, id LIMIT ? OFFSET ?")
			.params(paged)
			.query((rs, n) -> {
				Instant start = rs.getTimestamp("starts_at").toInstant();
				Instant end = rs.getTimestamp("ends_at").toInstant();
				Timestamp cancelled = rs.getTimestamp("cancelled_at");
				return new Row(rs.getObject("id", UUID.class), rs.getString("project_slug"), rs.getString("pool_name"),
						rs.getString("gpu_type"), rs.getInt("gpus"), start, end,
						cancelled == null ? null : cancelled.toInstant(), rs.getInt("node_count"),
						rs.getBigDecimal("total"), rs.getString("currency"),
						status(cancelled != null, start, end, filter.now()));
			})
			.list();
		return PageResponse.of(rows, page, total);
	}

	private static ReservationStatus status(boolean cancelled, Instant start, Instant end, Instant now) {
		if (cancelled) {
			return ReservationStatus.CANCELLED;
		}
		if (now.isBefore(start)) {
			return ReservationStatus.CONFIRMED;
		}
		return now.isBefore(end) ? ReservationStatus.ACTIVE : ReservationStatus.COMPLETED;
	}

}
