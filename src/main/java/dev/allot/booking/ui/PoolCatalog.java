package dev.allot.booking.ui;

import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * The CUDA drivers installed on a pool's nodes, for the booking form's choice. Inventory's facade lists nodes
 * only to admins, and booking already reads the node table to allocate; this is a read of the same kind.
 */
@Component
@Transactional(readOnly = true)
class PoolCatalog {

    private final JdbcClient jdbc;

    PoolCatalog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<String> drivers(String pool) {
        return jdbc.sql("""
				SELECT DISTINCT d FROM node n JOIN pool p ON p.id = n.pool_id, unnest(n.cuda_drivers) d
				WHERE p.name = ? AND n.state <> 'RETIRED' ORDER BY d DESC""").param(pool).query(String.class).list();
    }
}
