package dev.allot.support;

import org.springframework.jdbc.core.simple.JdbcClient;

/** What the tests of reclaiming check about preemptions, read from the database. */
public final class Preemptions {

	private Preemptions() {
	}

	/**
	 * Reservations of the pool preempted that held no node of the booking that preempted them (the booking its
	 * request created), judged by every allocation the booking ever had (a later booking's repacking may have moved
	 * it since).
	 */
	public static long heldNoNodeOfTheirPreemptor(JdbcClient jdbc, String pool) {
		return jdbc.sql("""
				SELECT count(*) FROM audit_event pe
				JOIN reservation v ON v.id::text = pe.object_id AND v.lifecycle_status = 'PREEMPTED'
				JOIN pool p ON p.id = v.pool_id AND p.name = ?
				JOIN audit_event ce ON ce.request_id = pe.request_id AND ce.action = 'reservation.created'
				JOIN reservation b ON b.id::text = ce.object_id
				WHERE pe.action = 'reservation.preempted' AND NOT EXISTS (
				    SELECT 1 FROM allocation va JOIN allocation ba ON ba.node_id = va.node_id
				    WHERE va.reservation_id = v.id AND ba.reservation_id = b.id)""")
			.param(pool)
			.query(Long.class)
			.single();
	}

}
