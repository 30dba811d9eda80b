package dev.allot;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayDataSource;
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

    static final String APPLICATION_ROLE = "allot_app";

    @ConfigurationProperties("allot.embedded-postgres")
    record EmbeddedPostgresProperties(Path dataDirectory, int port) {
        EmbeddedPostgresProperties {
            if (dataDirectory == null) {
                dataDirectory = Path.of(".allot", "pgdata");
            }
        }
    }

    /**
     * Started while the context was being built ({@link EmbeddedPostgresStart}); the first use waits for it. The
     * start, which also holds the data folder's lock, stops it when the context closes.
     */
    @Bean(destroyMethod = "")
    EmbeddedPostgres embeddedPostgres(@Qualifier(EmbeddedPostgresStart.BEAN) EmbeddedPostgresStart.Started start)
            throws IOException {
        return start.await();
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
}
