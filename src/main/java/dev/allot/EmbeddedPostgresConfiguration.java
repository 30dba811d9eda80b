package dev.allot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.flyway.autoconfigure.FlywayDataSource;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With no datasource configured, Allot runs on an embedded PostgreSQL (real binaries) whose data
 * folder survives restarts, so that {@code ./mvnw spring-boot:run} works on a machine with only a JDK. The
 * production jar ({@code -Pproduction}) has no embedded PostgreSQL and needs {@code spring.datasource.url}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "io.zonky.test.db.postgres.embedded.EmbeddedPostgres")
@ConditionalOnExpression("'${spring.datasource.url:}'.isEmpty()")
class EmbeddedPostgresConfiguration {

	private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

	static final String APPLICATION_ROLE = "allot_app";

	@ConfigurationProperties("allot.embedded-postgres")
	record EmbeddedPostgresProperties(Path dataDirectory, int port) {
		EmbeddedPostgresProperties {
			if (dataDirectory == null) {
				dataDirectory = Path.of(".allot", "pgdata");
			}
		}
	}

	/** Held while this copy runs; a second copy on the same folder stops here (see {@link DataFolderLock}). */
	@Bean(destroyMethod = "close")
	DataFolderLock dataFolderLock(EmbeddedPostgresProperties properties) throws IOException {
		return DataFolderLock.acquire(properties.dataDirectory().toAbsolutePath().getParent());
	}

	@Bean(destroyMethod = "close")
	EmbeddedPostgres embeddedPostgres(EmbeddedPostgresProperties properties, DataFolderLock lock) throws IOException {
		Path data = properties.dataDirectory().toAbsolutePath();
		Files.createDirectories(data.getParent());
		// the folder's lock is ours: a postmaster still running on it outlived a copy that died
		stopOrphanedPostmaster(data);
		var builder = EmbeddedPostgres.builder()
			.setDataDirectory(data)
			.setCleanDataDirectory(false)
			.setRegisterShutdownHook(false);
		if (properties.port() > 0) {
			builder.setPort(properties.port());
		}
		EmbeddedPostgres postgres = builder.start();
		log.info("Embedded PostgreSQL on port {} with data in {}", postgres.getPort(), data);
		return postgres;
	}

	/**
	 * The application connects as {@value #APPLICATION_ROLE}, which may only read and write rows
	 * ({@link DatabaseRoles}); the migrations run as the embedded cluster's superuser, who owns the schema.
	 */
	@Bean
	DataSource dataSource(EmbeddedPostgres postgres) throws SQLException {
		createApplicationRole(postgres);
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(postgres.getJdbcUrl(APPLICATION_ROLE, "postgres"));
		dataSource.setUsername(APPLICATION_ROLE);
		dataSource.setMaximumPoolSize(16);
		dataSource.setPoolName("allot-embedded");
		return dataSource;
	}

	@Bean(defaultCandidate = false)
	@FlywayDataSource
	DataSource ownerDataSource(EmbeddedPostgres postgres) {
		return postgres.getPostgresDatabase();
	}

	private static void createApplicationRole(EmbeddedPostgres postgres) throws SQLException {
		try (Connection connection = postgres.getPostgresDatabase().getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("DO $$ BEGIN CREATE ROLE " + APPLICATION_ROLE + " LOGIN; "
					+ "EXCEPTION WHEN duplicate_object THEN NULL; END $$");
		}
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
		}
		catch (Exception ex) {
			log.warn("Could not inspect {}: {}", pidFile, ex.getMessage());
		}
	}

}
