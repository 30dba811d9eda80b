package dev.allot.identity.accounts;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.identity.settings.SecurityProperties;
import dev.allot.shared.AllotException;
import dev.allot.shared.InstantBounds;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.changes.ReadCache;
import dev.allot.shared.changes.TableChanges;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Service accounts: OAuth2 clients (client credentials) that a tenant admin creates for CI. Revoking one
 * removes its client, so it gets no new token, and makes its unexpired tokens useless at once.
 */
@Service
@Transactional
public class ServiceAccounts {

    public record Created(ServiceAccount account, String clientSecret) {}

    private static final SecureRandom RANDOM = new SecureRandom();

    public static final String API_SCOPE = "api";

    private final JdbcClient jdbc;

    private final RegisteredClientRepository clients;

    private final PasswordEncoder passwords;

    private final Tenancy tenancy;

    private final AuditLog audit;

    private final SecurityProperties properties;

    private final Clock clock;

    private final TableChanges changes;

    /** The accounts behind the bearer tokens of API calls, read on every call; kept until the table changes. */
    private final ReadCache<String, ServiceAccount> byClientId;

    ServiceAccounts(
            JdbcClient jdbc,
            RegisteredClientRepository clients,
            PasswordEncoder passwords,
            Tenancy tenancy,
            AuditLog audit,
            SecurityProperties properties,
            Clock clock,
            TableChanges changes) {
        this.jdbc = jdbc;
        this.clients = clients;
        this.passwords = passwords;
        this.tenancy = tenancy;
        this.audit = audit;
        this.properties = properties;
        this.clock = clock;
        this.changes = changes;
        this.byClientId = changes.cache("service accounts by client id", "service_account");
    }

    public Created create(Caller caller, String tenant, String name, TenantRole role, @Nullable Instant expiresAt) {
        return create(caller, tenant, name, role, expiresAt, null);
    }

    /**
     * Creates an account; with {@code project}, scoped to that project of the tenant, as a project member (role
     * {@code MEMBER}) or viewer ({@code VIEWER}): a scoped account cannot be a tenant admin.
     */
    public Created create(
            Caller caller,
            String tenant,
            String name,
            TenantRole role,
            @Nullable Instant expiresAt,
            @Nullable String project) {
        tenancy.writable(caller, tenant, TenantRole.TENANT_ADMIN);
        if (project != null && tenancy.project(tenant, project).isEmpty()) {
            throw InvalidInputException.of("project", "no such project in tenant " + tenant);
        }
        if (project != null && role == TenantRole.TENANT_ADMIN) {
            throw InvalidInputException.of(
                    "role",
                    "an account scoped to a project is a MEMBER (it books there) or a VIEWER, not a TENANT_ADMIN");
        }
        Instant now = clock.instant();
        if (expiresAt != null) {
            InstantBounds.check("expiresAt", expiresAt);
        }
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            throw InvalidInputException.of("expiresAt", "must be in the future");
        }
        String secret = randomToken(32);
        var account = new ServiceAccount(
                UUID.randomUUID(),
                tenant,
                name,
                "sa-" + HexFormat.of().formatHex(randomBytes(8)),
                role,
                caller.subject(),
                now,
                expiresAt,
                null,
                project);
        changes.changed("service_account");
        jdbc.sql("""
				INSERT INTO service_account (id, tenant_slug, client_id, name, role, created_by, created_at, expires_at,
				    project)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        account.id(),
                        tenant,
                        account.clientId(),
                        name,
                        role.name(),
                        caller.subject(),
                        Timestamp.from(now),
                        expiresAt == null ? null : Timestamp.from(expiresAt),
                        project)
                .update();
        clients.save(clientFor(account, Objects.requireNonNull(passwords.encode(secret), "a secret has a hash")));
        audit.record(AuditRecord.created(tenant, "service-account", account.id().toString(), account));
        return new Created(account, secret);
    }

    @Transactional(readOnly = true)
    public PageResponse<ServiceAccount> list(Caller caller, String tenant, PageQuery page) {
        tenancy.readable(caller, tenant);
        var items = jdbc.sql(
                        "SELECT * FROM service_account WHERE tenant_slug = ? ORDER BY created_at, id LIMIT ? OFFSET ?")
                .params(tenant, page.size(), page.offset())
                .query(ServiceAccounts::map)
                .list();
        long total = jdbc.sql("SELECT count(*) FROM service_account WHERE tenant_slug = ?")
                .param(tenant)
                .query(Long.class)
                .single();
        return PageResponse.of(items, page, total);
    }

    /** One service account of a tenant the caller may read (never its secret: only its hash is kept). */
    @Transactional(readOnly = true)
    public ServiceAccount get(Caller caller, String tenant, UUID id) {
        tenancy.readable(caller, tenant);
        return jdbc.sql("SELECT * FROM service_account WHERE id = ? AND tenant_slug = ?")
                .params(id, tenant)
                .query(ServiceAccounts::map)
                .optional()
                .orElseThrow(() -> AllotException.notFound("Service account " + id));
    }

    public ServiceAccount revoke(Caller caller, String tenant, UUID id) {
        tenancy.writable(caller, tenant, TenantRole.TENANT_ADMIN);
        ServiceAccount before = jdbc.sql("SELECT * FROM service_account WHERE id = ? AND tenant_slug = ? FOR UPDATE")
                .params(id, tenant)
                .query(ServiceAccounts::map)
                .optional()
                .orElseThrow(() -> AllotException.notFound("Service account " + id));
        if (before.revokedAt() != null) {
            return before;
        }
        ServiceAccount after = before.revokedAt(clock.instant());
        changes.changed("service_account");
        jdbc.sql("UPDATE service_account SET revoked_at = ? WHERE id = ?")
                .params(Timestamp.from(after.revokedAt()), id)
                .update();
        jdbc.sql("DELETE FROM oauth2_authorization WHERE registered_client_id = ?")
                .param(id.toString())
                .update();
        jdbc.sql("DELETE FROM oauth2_registered_client WHERE id = ?")
                .param(id.toString())
                .update();
        audit.record(
                new AuditRecord(tenant, "service-account.revoked", "service-account", id.toString(), before, after));
        return after;
    }

    /** The account behind a client id, if it may still act. */
    @Transactional(propagation = Propagation.SUPPORTS)
    public Optional<ServiceAccount> usable(String clientId) {
        return byClientId
                .find(
                        clientId,
                        id -> jdbc.sql("SELECT * FROM service_account WHERE client_id = ?")
                                .param(id)
                                .query(ServiceAccounts::map)
                                .optional())
                .filter(account -> account.isUsableAt(clock.instant()));
    }

    private RegisteredClient clientFor(ServiceAccount account, String secretHash) {
        return RegisteredClient.withId(account.id().toString())
                .clientId(account.clientId())
                .clientName(account.tenant() + "/" + account.name())
                .clientSecret(secretHash)
                .clientIdIssuedAt(account.createdAt())
                .clientSecretExpiresAt(account.expiresAt())
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_POST)
                .authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
                .scope(API_SCOPE)
                .tokenSettings(TokenSettings.builder()
                        .accessTokenTimeToLive(properties.accessTokenTtl())
                        .build())
                .build();
    }

    public static String randomToken(int bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes(bytes));
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static ServiceAccount map(ResultSet rs, int row) throws SQLException {
        Timestamp expires = rs.getTimestamp("expires_at");
        Timestamp revoked = rs.getTimestamp("revoked_at");
        return new ServiceAccount(
                rs.getObject("id", UUID.class),
                rs.getString("tenant_slug"),
                rs.getString("name"),
                rs.getString("client_id"),
                TenantRole.valueOf(rs.getString("role")),
                rs.getString("created_by"),
                rs.getTimestamp("created_at").toInstant(),
                expires == null ? null : expires.toInstant(),
                revoked == null ? null : revoked.toInstant(),
                rs.getString("project"));
    }
}
