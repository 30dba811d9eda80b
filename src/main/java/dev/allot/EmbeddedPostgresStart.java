package dev.allot;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Starts the quick start's embedded PostgreSQL (unpacking its binaries and running {@code initdb} on a fresh data
 * folder) on a thread of its own as soon as the environment is known, so that it runs while Spring reads the
 * configuration and creates the web server, instead of after: the first bean that needs the database waits for
 * it ({@link EmbeddedPostgresConfiguration}). Measured in {@code ops/measure-startup.sh}.
 * <p>
 * The data folder's lock is taken first, on the calling thread, so a second copy on the same folder still stops
 * before it starts anything. With a datasource configured, or in the production jar (no embedded PostgreSQL on
 * the class path), this does nothing.
 */
class EmbeddedPostgresStart implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    static final String BEAN = "embeddedPostgresStart";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresStart.class);

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        ConfigurableEnvironment environment = context.getEnvironment();
        if (!ClassUtils.isPresent("io.zonky.test.db.postgres.embedded.EmbeddedPostgres", context.getClassLoader())
                || !environment.getProperty("spring.datasource.url", "").isEmpty()) {
            return;
        }
        EmbeddedPostgresConfiguration.EmbeddedPostgresProperties properties = Binder.get(environment)
                .bind("allot.embedded-postgres", EmbeddedPostgresConfiguration.EmbeddedPostgresProperties.class)
                .orElseGet(() -> new EmbeddedPostgresConfiguration.EmbeddedPostgresProperties(null, 0));
        Started started = Started.begin(properties);
        context.getBeanFactory().registerSingleton(BEAN, started);
        // stopped with the context, also when its refresh fails before anything used the database
        ((DefaultSingletonBeanRegistry) context.getBeanFactory()).registerDisposableBean(BEAN, started);
    }

    /** The folder's lock, held, and the postmaster on its way up. */
    record Started(DataFolderLock lock, CompletableFuture<EmbeddedPostgres> postgres) implements DisposableBean {

        static Started begin(EmbeddedPostgresConfiguration.EmbeddedPostgresProperties properties) {
            Path data = properties.dataDirectory().toAbsolutePath();
            DataFolderLock lock;
            try {
                lock = DataFolderLock.acquire(data.getParent());
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            CompletableFuture<EmbeddedPostgres> postgres = new CompletableFuture<>();
            Thread.ofPlatform().name("embedded-postgres-start").daemon().start(() -> {
                try {
                    postgres.complete(start(data, properties.port()));
                } catch (Throwable ex) {
                    postgres.completeExceptionally(ex);
                }
            });
            return new Started(lock, postgres);
        }

        /** The running postmaster; its start's failure, if it failed. */
        EmbeddedPostgres await() throws IOException {
            try {
                return postgres.join();
            } catch (CompletionException ex) {
                if (ex.getCause() instanceof IOException io) {
                    throw io;
                }
                throw ex;
            }
        }

        /** Stops the postmaster (once it is up, if it was still starting), then lets the folder go. */
        @Override
        public void destroy() throws IOException {
            try {
                postgres.handle((running, failed) -> running).join();
                if (postgres.isDone() && !postgres.isCompletedExceptionally()) {
                    postgres.join().close();
                }
            } finally {
                lock.close();
            }
        }
    }

    private static EmbeddedPostgres start(Path data, int port) throws IOException {
        Files.createDirectories(data.getParent());
        // the folder's lock is ours: a postmaster still running on it outlived a copy that died
        stopOrphanedPostmaster(data);
        var builder = EmbeddedPostgres.builder()
                .setDataDirectory(data)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false);
        if (port > 0) {
            builder.setPort(port);
        }
        EmbeddedPostgres postgres = builder.start();
        log.info("Embedded PostgreSQL on port {} with data in {}", postgres.getPort(), data);
        return postgres;
    }

    /** After a kill -9 of the JVM the postmaster outlives it and holds the data folder's lock. */
    private static void stopOrphanedPostmaster(Path data) {
        Path pidFile = data.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        try {
            long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().trim());
            Optional<ProcessHandle> process = ProcessHandle.of(pid);
            if (process.isPresent() && process.get().info().command().orElse("").contains("postgres")) {
                log.warn("Stopping orphaned embedded PostgreSQL (pid {})", pid);
                process.get().destroy();
                process.get().onExit().get();
            }
        } catch (Exception ex) {
            log.warn("Could not inspect {}: {}", pidFile, ex.getMessage());
        }
    }
}
