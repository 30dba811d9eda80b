package dev.allot.booking.allocation;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.allot.inventory.NodeState;
import dev.allot.inventory.events.NodeStateChanged;
import dev.allot.inventory.events.PoolSparesChanged;
import dev.allot.shared.changes.TableChanges;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps each pool's hot spares at its {@code spareNodes}: the spares are available nodes free from now on (no
 * allocation ahead of them), chosen deterministically (the highest node ids first), flagged {@code node.spare}
 * and so left out of every booking, quote, earliest-fit search and the calendar's total. A replacement takes one
 * first ({@link AllocationRepository#takeSpare}); the count is topped up in the same transaction, when a node returns to
 * service, when the count changes, and every few minutes (a node whose last booking ended becomes free from then
 * on without any event). Each top-up holds the pool's row, so two cannot pick one spare too many; the nodes it
 * flags are locked without waiting, so a booking holding a node keeps it.
 */
@Component
public class HotSpares {

    private final JdbcClient jdbc;

    private final TableChanges changes;

    private final Clock clock;

    HotSpares(JdbcClient jdbc, TableChanges changes, Clock clock) {
        this.jdbc = jdbc;
        this.changes = changes;
        this.clock = clock;
    }

    /** Synchronous: the count's new spares are picked in the transaction that changes it. */
    @EventListener
    void on(PoolSparesChanged changed) {
        replenish(changed.poolId());
    }

    /** Synchronous: a node back in service may become a spare at once (one leaving service lost its flag). */
    @EventListener
    void on(NodeStateChanged changed) {
        if (changed.to() == NodeState.AVAILABLE || changed.from() == NodeState.AVAILABLE) {
            jdbc.sql("SELECT id FROM pool WHERE name = ?")
                    .param(changed.pool())
                    .query(UUID.class)
                    .optional()
                    .ifPresent(this::replenish);
        }
    }

    /** A replacement took one of the pool's spares (in this transaction): tops the spares up. */
    public void tookOne(UUID poolId) {
        changes.changed("node");
        replenish(poolId);
    }

    /**
     * Flags or unflags the pool's spares until they are as many as its {@code spareNodes} (fewer when not enough
     * nodes are free from now on); answers how many it now holds.
     */
    int replenish(UUID poolId) {
        Integer wanted = jdbc.sql("SELECT spare_nodes FROM pool WHERE id = ? FOR NO KEY UPDATE")
                .param(poolId)
                .query(Integer.class)
                .optional()
                .orElse(0);
        int held = jdbc.sql("SELECT count(*) FROM node WHERE pool_id = ? AND spare")
                .param(poolId)
                .query(Integer.class)
                .single();
        if (held == wanted) {
            return held;
        }
        List<Long> flipped;
        if (held < wanted) {
            flipped = jdbc.sql("""
					SELECT n.id FROM node n
					WHERE n.pool_id = :pool AND NOT n.spare AND n.state = 'AVAILABLE'
					  AND EXISTS (SELECT 1 FROM free_gap g WHERE g.node_id = n.id
					              AND g.during @> tstzrange(CAST(:now AS timestamptz), NULL, '[)'))
					ORDER BY n.id DESC
					LIMIT :count
					FOR NO KEY UPDATE OF n SKIP LOCKED""")
                    .param("pool", poolId)
                    .param("now", Timestamp.from(clock.instant()))
                    .param("count", wanted - held)
                    .query(Long.class)
                    .list();
            jdbc.sql("UPDATE node SET spare = true WHERE id = ANY(?)")
                    .param(flipped.toArray(Long[]::new))
                    .update();
        } else {
            flipped = jdbc.sql("""
					SELECT id FROM node WHERE pool_id = ? AND spare ORDER BY id LIMIT ?
					FOR NO KEY UPDATE SKIP LOCKED""")
                    .params(poolId, held - wanted)
                    .query(Long.class)
                    .list();
            jdbc.sql("UPDATE node SET spare = false WHERE id = ANY(?)")
                    .param(flipped.toArray(Long[]::new))
                    .update();
        }
        if (!flipped.isEmpty()) {
            changes.changed("node");
        }
        return held < wanted ? held + flipped.size() : held - flipped.size();
    }

    /** Every pool short of (or over) its spares, topped up, each in its own transaction. */
    int replenishAll(TransactionTemplate transactions) {
        List<UUID> pools = jdbc.sql("""
				SELECT p.id FROM pool p
				WHERE p.spare_nodes <> (SELECT count(*) FROM node n WHERE n.pool_id = p.id AND n.spare)""").query(UUID.class).list();
        for (UUID pool : pools) {
            transactions.executeWithoutResult(status -> replenish(pool));
        }
        return pools.size();
    }

    @Configuration(proxyBeanMethods = false)
    static class Task {

        @Bean
        RecurringTask<Void> replenishHotSpares(HotSpares spares, TransactionTemplate transactions) {
            return Tasks.recurring("booking-replenish-hot-spares", FixedDelay.of(Duration.ofMinutes(5)))
                    .execute((instance, context) -> spares.replenishAll(transactions));
        }
    }
}
