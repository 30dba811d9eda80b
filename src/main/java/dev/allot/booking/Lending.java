package dev.allot.booking;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.QuotaDecision;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.UtcText;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Lending limits: a tenant whose {@code lendableGpus} is less than its guarantee holds the rest back, and no other
 * tenant's borrowed or on-demand GPUs may take it. A booking (or an extension) with such a part is refused when,
 * in some hour, the GPU type's free GPUs after it would be fewer than what the other tenants hold back then. A
 * booking all within its own guarantee is never refused here: guarantees are capacity, and its room is its own.
 */
@Component
class Lending {

	private final Quotas quotas;

	private final Inventory inventory;

	private final JdbcClient jdbc;

	Lending(Quotas quotas, Inventory inventory, JdbcClient jdbc) {
		this.quotas = quotas;
		this.inventory = inventory;
		this.jdbc = jdbc;
	}

	/** Inside the booking's transaction, after the quota decision and before any node is taken. */
	void requireRoomBeyondHeld(UUID tenantId, GpuType type, TimeWindow window, int gpus, QuotaDecision decision) {
		Optional<AllotException> refused = heldBack(tenantId, type, window, gpus, decision);
		if (refused.isPresent()) {
			throw refused.get();
		}
	}

	/**
	 * The refusal ({@code 409 capacity_not_available}, naming the hour and how much is held) of a booking that would
	 * borrow what other tenants hold back in some hour of its window; empty when it would not (for quotes and
	 * earliest-fit, which say so rather than fail).
	 */
	Optional<AllotException> heldBack(UUID tenantId, GpuType type, TimeWindow window, int gpus,
			QuotaDecision decision) {
		if (decision.reservedOnly()) {
			return Optional.empty();
		}
		Map<Instant, Integer> held = quotas.heldBackFromBorrowers(tenantId, type, window);
		if (held.isEmpty()) {
			return Optional.empty();
		}
		int capacity = inventory.healthyGpus(type);
		Map<Instant, Integer> allocated = new HashMap<>();
		jdbc.sql("""
				SELECT ph.hour, sum(ph.allocated_nodes * p.gpus_per_node) FROM pool_hour ph JOIN pool p ON p.id = ph.pool_id
				WHERE p.gpu_type_id = ? AND ph.hour >= ? AND ph.hour < ? GROUP BY ph.hour""")
			.params(type.id(), Timestamp.from(window.start().truncatedTo(java.time.temporal.ChronoUnit.HOURS)),
					Timestamp.from(window.end()))
			.query((rs, n) -> allocated.put(rs.getTimestamp(1).toInstant(), rs.getInt(2)))
			.list();
		for (Map.Entry<Instant, Integer> hour : held.entrySet()) {
			int free = capacity - allocated.getOrDefault(hour.getKey(), 0);
			if (free - gpus < hour.getValue()) {
				return Optional.of(AllotException.conflict("capacity_not_available", "From "
						+ UtcText.of(hour.getKey()) + ", " + Math.max(0, free) + " " + type.code() + " GPUs are free and "
						+ hour.getValue() + " of them are held for other teams' guarantees, which they do not lend: a "
						+ "booking beyond your own guarantee can take at most " + Math.max(0, free - hour.getValue())
						+ " then")
					.with("at", hour.getKey().toString())
					.with("freeGpus", Math.max(0, free))
					.with("heldGpus", hour.getValue()));
			}
		}
		return Optional.empty();
	}

}
