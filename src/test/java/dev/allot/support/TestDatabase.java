package dev.allot.support;

import java.nio.file.Files;
import java.nio.file.Path;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Real PostgreSQL for the tests, never H2: {@code SPRING_DATASOURCE_URL} when set (CI starts Debian's
 * PostgreSQL), otherwise a Testcontainers PostgreSQL when Docker runs, otherwise an embedded PostgreSQL
 * (real binaries). One per test JVM.
 */
public final class TestDatabase {

	public record Connection(String url, String username, String password) {
	}

	private static Connection connection;

	private TestDatabase() {
	}

	public static synchronized Connection get() {
		if (connection == null) {
			connection = start();
		}
		return connection;
	}

	private static Connection start() {
		String url = System.getenv("SPRING_DATASOURCE_URL");
		if (url != null && !url.isBlank()) {
			return new Connection(url, env("SPRING_DATASOURCE_USERNAME", "postgres"),
					env("SPRING_DATASOURCE_PASSWORD", ""));
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
		}
		catch (Exception ex) {
			throw new IllegalStateException("No PostgreSQL for the tests", ex);
		}
	}

	private static boolean dockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (Throwable ex) {
			return false;
		}
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return value == null ? fallback : value;
	}

}
