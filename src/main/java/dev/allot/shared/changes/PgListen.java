package dev.allot.shared.changes;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code LISTEN}ing connection of this replica, on a thread of its own, that hands each notification's payload
 * to a consumer. When the connection drops it says so ({@link Handler#lost()}), so the owner can stop trusting what
 * it derived from notifications, and reconnects with a growing back-off; {@link Handler#listening()} runs each time
 * LISTEN is in place again (before any notification of the new connection is handed on).
 */
public final class PgListen {

    private static final Logger log = LoggerFactory.getLogger(PgListen.class);

    /** What the owner of a LISTEN connection does with it. */
    public interface Handler extends Consumer<String> {

        /** LISTEN is in place (at start and after each reconnection). */
        default void listening() {}

        /** The connection dropped: notifications may have been missed from here on. */
        default void lost() {}
    }

    private final DataSource dataSource;

    private final String channel;

    private final Handler handler;

    private volatile boolean running;

    private volatile @Nullable Thread thread;

    public PgListen(DataSource dataSource, String channel, Handler handler) {
        this.dataSource = dataSource;
        this.channel = channel;
        this.handler = handler;
    }

    public void start(String threadName) {
        running = true;
        thread = Thread.ofPlatform().daemon().name(threadName).start(this::listen);
    }

    public void stop() {
        running = false;
        Thread listener = thread;
        if (listener != null) {
            listener.interrupt();
        }
        handler.lost();
    }

    public boolean isRunning() {
        return running;
    }

    private void listen() {
        long backoff = 250;
        while (running) {
            try (Connection connection = open();
                    Statement statement = connection.createStatement()) {
                statement.execute("LISTEN " + channel);
                handler.listening();
                backoff = 250;
                PGConnection pg = connection.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(1000);
                    if (notifications != null) {
                        for (PGNotification notification : notifications) {
                            handler.accept(notification.getParameter());
                        }
                    }
                }
            } catch (SQLException | RuntimeException ex) {
                handler.lost();
                if (running) {
                    log.warn("LISTEN {} lost its connection; retrying in {} ms: {}", channel, backoff, ex.toString());
                    try {
                        Thread.sleep(backoff);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    backoff = Math.min(backoff * 2, 10_000);
                }
            }
        }
    }

    /** A connection of its own, not one of the pool's: it is held for as long as the application runs. */
    private Connection open() throws SQLException {
        if (dataSource instanceof HikariDataSource hikari && hikari.getJdbcUrl() != null) {
            return DriverManager.getConnection(hikari.getJdbcUrl(), hikari.getUsername(), hikari.getPassword());
        }
        return dataSource.getConnection();
    }
}
