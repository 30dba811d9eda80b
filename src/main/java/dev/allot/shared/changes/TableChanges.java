package dev.allot.shared.changes;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Keeps this replica's {@link ReadCache}s honest. Rows that every request reads but that rarely change (the
 * caller's service account, the tenant, project and pool a request names) are read once and held; every change
 * to their tables announces the table on {@value #CHANNEL} from a statement trigger (migration V66, so no writer
 * can forget), and each replica drops the caches that read it as the notification arrives. A change made here
 * also drops them as its transaction commits ({@link #changed}), so a client reads its own write at once. While
 * the LISTEN connection is down nothing is held: every read goes to the database, so a suspension or revocation
 * takes effect on every replica as soon as it commits, never after a time-to-live.
 */
@Component
public class TableChanges implements SmartLifecycle {

    public static final String CHANNEL = "allot_table_changes";

    private final List<ReadCache<?, ?>> caches = new CopyOnWriteArrayList<>();

    private final PgListen listen;

    private volatile boolean listening;

    TableChanges(DataSource dataSource) {
        this.listen = new PgListen(dataSource, CHANNEL, new PgListen.Handler() {

            @Override
            public void accept(String table) {
                drop(table);
            }

            @Override
            public void listening() {
                listening = true;
                caches.forEach(ReadCache::drop);
            }

            @Override
            public void lost() {
                listening = false;
                caches.forEach(ReadCache::drop);
            }
        });
    }

    /** A cache of reads of the given tables, dropped whenever one of them changes. */
    public <K, V> ReadCache<K, V> cache(String name, String... tables) {
        ReadCache<K, V> cache = new ReadCache<>(name, Set.of(tables), () -> listening);
        caches.add(cache);
        return cache;
    }

    /**
     * Drops what this replica holds of the table now and again when the current transaction commits (the trigger
     * tells the other replicas); a writer calls it after changing the table.
     */
    public void changed(String table) {
        drop(table);
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    drop(table);
                }
            });
        }
    }

    private void drop(String table) {
        for (ReadCache<?, ?> cache : caches) {
            if (cache.reads(table)) {
                cache.drop();
            }
        }
    }

    @Override
    public void start() {
        listen.start("table-changes-listen");
    }

    @Override
    public void stop() {
        listen.stop();
    }

    @Override
    public boolean isRunning() {
        return listen.isRunning();
    }

    @Override
    public int getPhase() {
        // listening before the web server takes requests, so the first reads can be kept
        return Integer.MIN_VALUE + 100;
    }
}
