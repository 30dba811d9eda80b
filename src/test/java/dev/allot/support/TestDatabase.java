package dev.allot.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Real PostgreSQL for the tests, never H2: {@code SPRING_DATASOURCE_URL} when set (CI starts Debian's
 * PostgreSQL), otherwise a Testcontainers PostgreSQL when Docker runs, otherwise an embedded PostgreSQL
 * (real binaries). One per test JVM.
 */
public final class TestDatabase {

    /**
     * The superuser connection (the tests' owner of the schema, which the migrations run as) and the role the
     * application connects as, which may only read and write rows.
     */
    public record Connection(String url, String username, String password) {

        public static final String APPLICATION_ROLE = "allot_test_app";

        public static final String APPLICATION_PASSWORD = "allot-app-test-password";
    }

    private static Connection connection;

    private TestDatabase() {}

    public static synchronized Connection get() {
        if (connection == null) {
            connection = start();
            createApplicationRole(connection);
        }
        return connection;
    }

    /**
     * A database of its own on the same server, made afresh (dropped first if a previous run left it): for a test
     * whose application must not share rows or scheduled tasks with the other contexts ({@code IntegrationTest.OwnDatabase}).
     */
    public static synchronized Connection own(String suffix) {
        Connection shared = get();
        Matcher url = Pattern.compile("^(jdbc:postgresql://[^/]+/)([^?]*)(.*)$").matcher(shared.url());
        if (!url.matches()) {
            throw new IllegalStateException("Not a PostgreSQL URL with a database name: " + shared.url());
        }
        String name = (url.group(2).isEmpty() ? "postgres" : url.group(2)) + "_" + suffix;
        if (!name.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("Not a plain database name: " + name);
        }
        try (java.sql.Connection connection =
                        DriverManager.getConnection(shared.url(), shared.username(), shared.password());
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException ex) {
            throw new IllegalStateException("Could not create the database " + name, ex);
        }
        return new Connection(url.group(1) + name + url.group(3), shared.username(), shared.password());
    }

    /** The role the application connects as: it can log in, and is granted row access after each migration. */
    private static void createApplicationRole(Connection owner) {
        try (java.sql.Connection connection =
                        DriverManager.getConnection(owner.url(), owner.username(), owner.password());
                Statement statement = connection.createStatement()) {
            statement.execute("DO $$ BEGIN CREATE ROLE " + Connection.APPLICATION_ROLE + " LOGIN PASSWORD '"
                    + Connection.APPLICATION_PASSWORD + "'; EXCEPTION WHEN duplicate_object THEN NULL; END $$");
        } catch (SQLException ex) {
            throw new IllegalStateException("Could not create the application's database role", ex);
        }
    }

    private static Connection start() {
        String url = System.getenv("SPRING_DATASOURCE_URL");
        if (url != null && !url.isBlank()) {
            return new Connection(
                    url, env("SPRING_DATASOURCE_USERNAME", "postgres"), env("SPRING_DATASOURCE_PASSWORD", ""));
        }
        if (dockerAvailable()) {
            PostgreSQLContainer container = new PostgreSQLContainer("postgres:17-alpine");
            container.start();
            return new Connection(container.getJdbcUrl(), container.getUsername(), container.getPassword());
        }
        try {
            Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
            // zonky stops it in its own shutdown hook
            EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
            return new Connection(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "");
        } catch (Exception ex) {
            throw new IllegalStateException("No PostgreSQL for the tests", ex);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable ex) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
