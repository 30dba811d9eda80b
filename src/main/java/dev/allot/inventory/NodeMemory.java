package dev.allot.inventory;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The memory of a pool's nodes (one machine type per pool), in GiB: the most shared memory ({@code /dev/shm}) a
 * booking on the pool may ask for. Set per pool by platform admins; a pool without it has the configured default.
 */
@Service
@Transactional
public class NodeMemory {

    /** {@code allot.inventory.*}: {@code defaultNodeMemoryGi} for pools whose node memory was never set. */
    @ConfigurationProperties("allot.inventory")
    record Properties(@DefaultValue("512") int defaultNodeMemoryGi) {

        Properties {
            if (defaultNodeMemoryGi < 1) {
                throw new IllegalArgumentException("allot.inventory.default-node-memory-gi must be at least 1");
            }
        }
    }

    static final int MAX_GI = 1_048_576;

    private final JdbcClient jdbc;

    private final AuditLog audit;

    private final Properties properties;

    NodeMemory(JdbcClient jdbc, AuditLog audit, Properties properties) {
        this.jdbc = jdbc;
        this.audit = audit;
        this.properties = properties;
    }

    /** GiB of memory on each of the pool's nodes: as set, else the default. */
    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    public int of(Pool pool) {
        int set = jdbc.sql("SELECT coalesce(node_memory_gi, 0) FROM pool WHERE id = ?")
                .param(pool.id())
                .query(Integer.class)
                .optional()
                .orElse(0);
        return set > 0 ? set : properties.defaultNodeMemoryGi();
    }

    /** Sets the memory of the pool's nodes; audited. */
    public int set(Caller caller, Pool pool, int gi) {
        caller.requirePlatformAdmin();
        if (gi < 1 || gi > MAX_GI) {
            throw InvalidInputException.of("nodeMemoryGi", "must be from 1 to " + MAX_GI + " GiB");
        }
        // 0: never set (the column allows 1 and more only).
        int before = jdbc.sql("SELECT coalesce(node_memory_gi, 0) FROM pool WHERE id = ? FOR UPDATE")
                .param(pool.id())
                .query(Integer.class)
                .optional()
                .orElseThrow(() -> AllotException.notFound("Pool " + pool.name()));
        if (before != gi) {
            jdbc.sql("UPDATE pool SET node_memory_gi = ? WHERE id = ?")
                    .params(gi, pool.id())
                    .update();
            audit.record(new AuditRecord(
                    null,
                    "pool.node-memory-changed",
                    "pool",
                    pool.name(),
                    Map.of("nodeMemoryGi", before == 0 ? properties.defaultNodeMemoryGi() : before),
                    Map.of("nodeMemoryGi", gi)));
        }
        return gi;
    }
}
