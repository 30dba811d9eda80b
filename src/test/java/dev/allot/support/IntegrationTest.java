package dev.allot.support;

import dev.allot.identity.UserDirectory;
import dev.allot.shared.security.PlatformRole;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactories;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * The whole application on a random port against real PostgreSQL ({@link TestDatabase}), called over real
 * HTTP with real OAuth2 tokens. Tests share one context and one database, so each makes its own tenants
 * with unique slugs.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            // every test signs in the same admin client from 127.0.0.1 and calls the API with it, more often than any
            // real caller: budgets far above that (the throttling itself is tested with its own low limits)
            "allot.security.rate-limits.token-per-client.capacity=1000000",
            "allot.security.rate-limits.token-per-address.capacity=1000000",
            "allot.security.rate-limits.login-per-username.capacity=1000000",
            "allot.security.rate-limits.login-per-address.capacity=1000000",
            "allot.security.rate-limits.api-per-caller.capacity=1000000",
            "allot.security.rate-limits.backoff.threshold=1000",
            // contexts share one database but each has a fake driver of its own: a context woken by another's change
            // would reconcile that context's cluster against the wrong driver (ReconcilerWakeTests turn it on)
            "allot.provisioning.lifecycle.wake-on-changes=false"
        })
public abstract class IntegrationTest {

    /**
     * The test class's application gets a database of its own ({@link TestDatabase#own}), made afresh for its
     * context, with these properties on top of the shared ones: for a test whose rows or scheduled tasks must not
     * meet the other contexts' (their pollers share the one {@code scheduled_tasks} table).
     */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @Inherited
    @ContextCustomizerFactories(OwnDatabaseFactory.class)
    public @interface OwnDatabase {

        /** Appended to the shared database's name. */
        String value();

        /** {@code name=value} pairs that override the shared test properties (which win over the class's own). */
        String[] properties() default {};
    }

    static final class OwnDatabaseFactory implements ContextCustomizerFactory {

        @Override
        public ContextCustomizer createContextCustomizer(
                Class<?> testClass, List<ContextConfigurationAttributes> configurations) {
            OwnDatabase own = TestContextAnnotationUtils.findMergedAnnotation(testClass, OwnDatabase.class);
            return own == null ? null : new OwnDatabaseCustomizer(own.value(), List.of(own.properties()));
        }
    }

    /**
     * Applied once the dynamic properties are in, before the configuration classes are read (their conditions see
     * these properties): this database and these properties go before them.
     */
    record OwnDatabaseCustomizer(String suffix, List<String> properties) implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration merged) {
            context.addBeanFactoryPostProcessor(new BeanDefinitionRegistryPostProcessor() {

                @Override
                public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
                    override(context);
                }
            });
        }

        private void override(ConfigurableApplicationContext context) {
            Map<String, Object> values = new LinkedHashMap<>();
            values.put("spring.datasource.url", TestDatabase.own(suffix).url());
            for (String property : properties) {
                int equals = property.indexOf('=');
                values.put(
                        property.substring(0, equals).trim(),
                        property.substring(equals + 1).trim());
            }
            context.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource("own-database-" + suffix, values));
        }
    }

    public static final String ADMIN_CLIENT = "test-platform-admin";

    public static final String ADMIN_SECRET = "test-platform-admin-secret-0123456789";

    /** The AES key webhook secrets are sealed with in the tests (production reads it from configuration). */
    public static final String WEBHOOK_SECRET_KEY = "nGxtFyowhrCOTJAXJuIpizEt1mVEQk+DslKi2tCn21s=";

    /** The host test webhook receivers are reached at: allow-listed, over http. */
    public static final String WEBHOOK_HOST = "localhost";

    /** The AES key the token signing keys are sealed with in the tests (an external database needs one). */
    public static final String SEALING_KEY = "3q0n3V8mJ3mZ8k1pS2t5vXyA7dF0gH4jK6lN9oQ1rT4=";

    /** The bearer token the tests scrape {@code /actuator/prometheus} with (the app knows only its SHA-256). */
    public static final String METRICS_TOKEN = "test-metrics-scrape-token-0123456789";

    /**
     * The test database and the settings every test context shares; a context of its own (a module test) registers
     * the same with this.
     */
    @DynamicPropertySource
    public static void database(DynamicPropertyRegistry registry) {
        TestDatabase.Connection db = TestDatabase.get();
        registry.add("spring.datasource.url", db::url);
        // As in production: the migrations run as the owner, the application as a role that only reads and writes.
        registry.add("spring.flyway.user", db::username);
        registry.add("spring.flyway.password", db::password);
        registry.add("spring.datasource.username", () -> TestDatabase.Connection.APPLICATION_ROLE);
        registry.add("spring.datasource.password", () -> TestDatabase.Connection.APPLICATION_PASSWORD);
        registry.add("allot.security.public-url", () -> "");
        registry.add("allot.security.bootstrap-client-id", () -> ADMIN_CLIENT);
        registry.add("allot.security.bootstrap-client-secret", () -> ADMIN_SECRET);
        registry.add("allot.demo.enabled", () -> "false");
        // Every context polls the one scheduled_tasks table, so any of them may run a task another scheduled (a
        // webhook delivery, say): like replicas, they share what such a task needs.
        registry.add("allot.billing.webhook-secret-key", () -> WEBHOOK_SECRET_KEY);
        // Test webhook receivers listen on the loopback interface over http, reached by the name the allow-list
        // names: URLs to 127.0.0.1 itself stay refused, as they are in production.
        registry.add("allot.security.outbound.allowed-hosts", () -> WEBHOOK_HOST);
        registry.add("allot.security.outbound.allow-http", () -> "true");
        registry.add("allot.security.sealing-key", () -> SEALING_KEY);
        registry.add(
                "allot.security.metrics-token-sha256",
                () -> "35a05ae16116768d09000d1b2f10e7247a708be0c0e8310b125631b9db3e79f6");
        // Several application contexts share one PostgreSQL (max_connections 100 by default): keep pools small.
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "8");
        registry.add("spring.datasource.hikari.minimum-idle", () -> "1");
        // Tests end with the JVM; waiting for in-flight requests only delays the fork's exit.
        registry.add("server.shutdown", () -> "immediate");
        registry.add("spring.lifecycle.timeout-per-shutdown-phase", () -> "5s");
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcClient jdbc;

    @Autowired
    private UserDirectory users;

    @Autowired
    private JwtEncoder jwtEncoder;

    protected Api api;

    private String adminToken;

    @BeforeEach
    void connect() {
        api = new Api(port);
    }

    /**
     * Waits until every listener of the events of this type that name {@code name} (in quotes, as a JSON value) has
     * run and completed its publication: for a test that goes on only once an asynchronous listener is done.
     */
    protected void awaitListenersDone(Class<?> eventType, String name) {
        Awaitility.await("listeners of " + eventType.getSimpleName() + " naming " + name)
                .atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.sql("SELECT count(*) FROM event_publication WHERE completion_date IS NULL "
                                        + "AND event_type = ? AND serialized_event LIKE ?")
                                .params(eventType.getName(), "%\"" + name + "\"%")
                                .query(Long.class)
                                .single()
                        == 0);
    }

    protected String adminToken() {
        if (adminToken == null) {
            adminToken = api.token(ADMIN_CLIENT, ADMIN_SECRET);
        }
        return adminToken;
    }

    protected static String unique(String prefix) {
        return prefix + "-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 45), 36);
    }

    /** A new active tenant with a unique slug. */
    protected String newTenant() {
        return newTenant("t");
    }

    /** A tenant whose slug starts with the prefix: pages listing tenants by slug show "a0" ones first. */
    protected String newTenant(String prefix) {
        String slug = unique(prefix);
        Api.Response created =
                api.post("/api/v1/tenants", adminToken(), Map.of("slug", slug, "displayName", "Tenant " + slug));
        if (created.status() != 201) {
            throw new AssertionError("Tenant not created: " + created);
        }
        return slug;
    }

    protected void newProject(String tenant, String project) {
        Api.Response created = api.post(
                "/api/v1/tenants/" + tenant + "/projects",
                adminToken(),
                Map.of("slug", project, "displayName", "Project " + project));
        if (created.status() != 201) {
            throw new AssertionError("Project not created: " + created);
        }
    }

    /** A new local user, optionally with platform roles. */
    protected String newUser(PlatformRole... roles) {
        String username = unique("u");
        users.create(username, "User " + username, "password-" + username, Set.of(roles));
        return username;
    }

    protected void addMember(String tenant, String username, String role) {
        Api.Response added = api.post(
                "/api/v1/tenants/" + tenant + "/members", adminToken(), Map.of("username", username, "role", role));
        if (added.status() != 201) {
            throw new AssertionError("Member not added: " + added);
        }
    }

    public record Client(String id, String clientId, String clientSecret) {}

    /** A service account of the tenant with the role, created by the platform admin. */
    protected Client serviceAccount(String tenant, String role) {
        Api.Response created = api.post(
                "/api/v1/tenants/" + tenant + "/service-accounts",
                adminToken(),
                Map.of("name", "ci-" + role.toLowerCase(), "role", role));
        if (created.status() != 201) {
            throw new AssertionError("Service account not created: " + created);
        }
        var body = created.json();
        return new Client(
                body.get("id").asString(),
                body.get("clientId").asString(),
                body.get("clientSecret").asString());
    }

    /** A token of a service account of the tenant with the role. */
    protected String tenantToken(String tenant, String role) {
        Client client = serviceAccount(tenant, role);
        return api.token(client.clientId(), client.clientSecret());
    }

    /**
     * An access token for a user, signed by the application's own encoder with its stored key, as the
     * authorization-code flow would issue it (the browser flow itself is covered by the browser tests).
     */
    protected String userToken(String username) {
        return signedToken(username, api.baseUrl(), Instant.now().plus(5, ChronoUnit.MINUTES));
    }

    protected String signedToken(String subject, String issuer, Instant expiresAt) {
        return signedToken(subject, issuer, expiresAt, Duration.ofMinutes(10));
    }

    /** An access token ({@code typ at+jwt}) signed with the application's key that lives {@code lifetime} (exp - iat). */
    protected String signedToken(String subject, String issuer, Instant expiresAt, Duration lifetime) {
        JwtClaimsSet claims = JwtClaimsSet.builder()
                .issuer(issuer)
                .subject(subject)
                .audience(List.of("allot-ui"))
                .issuedAt(expiresAt.minus(lifetime))
                .expiresAt(expiresAt)
                .build();
        return jwtEncoder
                .encode(JwtEncoderParameters.from(
                        JwsHeader.with(SignatureAlgorithm.RS256).type("at+jwt").build(), claims))
                .getTokenValue();
    }

    /**
     * What is left of a GPU type's healthy capacity (less hot spares) for the tenant's guarantee, beside the other
     * tenants' guarantees: guarantees are capacity, so a second tenant on a pool already guaranteed to another gets
     * at most this much guaranteed and borrows the rest.
     */
    protected int guaranteeLeft(String tenant, String gpuType, int wanted) {
        int left = jdbc.sql("""
				SELECT (SELECT coalesce(sum(greatest(a.available - p.spare_nodes, 0) * p.gpus_per_node), 0)
				        FROM pool p JOIN gpu_type g ON g.id = p.gpu_type_id
				        JOIN LATERAL (SELECT count(*) AS available FROM node n
				                      WHERE n.pool_id = p.id AND n.state = 'AVAILABLE') a ON true
				        WHERE g.code = :type)
				     - (SELECT coalesce(sum(q.guaranteed_gpus), 0) FROM quota_policy q
				        JOIN gpu_type g ON g.id = q.gpu_type_id JOIN tenant t ON t.id = q.tenant_id
				        WHERE g.code = :type AND t.slug <> :tenant)""")
                .param("type", gpuType)
                .param("tenant", tenant)
                .query(Integer.class)
                .single();
        return Math.min(wanted, Math.max(0, left));
    }
}
