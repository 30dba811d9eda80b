package dev.allot.identity.keys;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import dev.allot.identity.settings.SecurityProperties;
import dev.allot.shared.security.SealingKey;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The keys that sign Allot's tokens, kept in PostgreSQL so tokens survive restarts and every replica signs
 * and verifies alike, each sealed with the configured {@link SealingKey} (bound to its key id), so a copy of
 * the database cannot sign anything. One key signs; a key superseded by {@link #rotate()} keeps verifying for
 * the longest token lifetime (plus clock skew), then it is retired and deleted. Read through a short cache;
 * a token naming a key the cache does not know yet (another replica rotated) reloads it at once.
 */
@Component
public class SigningKeys implements JWKSource<SecurityContext> {

    /** The clock skew the decoder allows on exp; a retired key must outlive the last token it signed. */
    public static final Duration SKEW = Duration.ofSeconds(60);

    private static final Duration CACHE = Duration.ofSeconds(30);

    private static final Duration RELOAD_ON_MISS_AFTER = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);

    record StoredKey(JWK jwk, Instant createdAt, @Nullable Instant supersededAt) {

        boolean signs() {
            return supersededAt == null;
        }

        @Nullable
        Instant retiresAt(Duration maxLifetime) {
            return supersededAt == null ? null : supersededAt.plus(maxLifetime).plus(SKEW);
        }
    }

    /** What a rotation did: the new key signs from now; the previous ones verify until they retire. */
    record Rotation(String kid, Instant signsFrom, List<Retiring> previous) {}

    record Retiring(String kid, Instant retiresAt) {}

    private final JdbcClient jdbc;

    private final Clock clock;

    private final TransactionTemplate transactions;

    private final SealingKey sealing;

    private final Duration maxTokenLifetime;

    private volatile List<StoredKey> cached = List.of();

    private volatile Instant cachedAt = Instant.EPOCH;

    SigningKeys(
            JdbcClient jdbc,
            Clock clock,
            TransactionTemplate transactions,
            SealingKey sealing,
            SecurityProperties properties) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.transactions = transactions;
        this.sealing = sealing;
        this.maxTokenLifetime = properties.maxTokenLifetime();
    }

    /** The keys that verify: the signing key and the superseded ones not yet retired. */
    @Override
    public List<JWK> get(JWKSelector selector, SecurityContext context) {
        List<JWK> found = selector.select(verifying(keys()));
        if (found.isEmpty() && clock.instant().isAfter(cachedAt.plus(RELOAD_ON_MISS_AFTER))) {
            found = selector.select(verifying(reload()));
        }
        return found;
    }

    /** Only the signing key: what new tokens are signed with. */
    public JWKSource<SecurityContext> forSigning() {
        return (selector, context) -> selector.select(new JWKSet(signing().jwk()));
    }

    StoredKey signing() {
        return keys().stream().filter(StoredKey::signs).findFirst().orElseGet(() -> reload().getFirst());
    }

    /**
     * Supersedes the signing key with a new one and deletes the keys retired by now. Replicas sign with the new
     * key within the cache time; until then they sign with the old one, which still verifies.
     */
    Rotation rotate() {
        Rotation rotation = transactions.execute(status -> {
            lock();
            jdbc.sql("UPDATE signing_key SET superseded_at = clock_timestamp() WHERE superseded_at IS NULL")
                    .update();
            RSAKey key = insertNew();
            deleteRetired();
            List<Retiring> previous = read().stream()
                    .filter(stored -> !stored.signs())
                    .map(stored -> new Retiring(
                            stored.jwk().getKeyID(),
                            Objects.requireNonNull(stored.retiresAt(maxTokenLifetime), "a superseded key retires")))
                    .toList();
            return new Rotation(key.getKeyID(), clock.instant(), previous);
        });
        forgetAfterCommit();
        log.info("Signing key rotated: {} signs now", rotation.kid());
        return rotation;
    }

    /**
     * Deletes the key now, so that it stops verifying (this replica at once, the others within the cache time);
     * when it signs, a new key signs first. Answers the key that signs afterwards, or nothing for an unknown key.
     */
    Optional<String> retire(String kid) {
        Optional<String> signing = transactions.execute(status -> {
            lock();
            List<StoredKey> stored = read();
            Optional<StoredKey> retired = stored.stream()
                    .filter(key -> key.jwk().getKeyID().equals(kid))
                    .findFirst();
            if (retired.isEmpty()) {
                return Optional.<String>empty();
            }
            String signs = stored.stream()
                    .filter(StoredKey::signs)
                    .map(key -> key.jwk().getKeyID())
                    .findFirst()
                    .orElse(kid);
            if (retired.get().signs()) {
                jdbc.sql("UPDATE signing_key SET superseded_at = clock_timestamp() WHERE superseded_at IS NULL")
                        .update();
                signs = insertNew().getKeyID();
            }
            jdbc.sql("DELETE FROM signing_key WHERE kid = ?").param(kid).update();
            return Optional.of(signs);
        });
        cachedAt = Instant.EPOCH;
        signing.ifPresent(signs -> log.warn("Signing key {} retired at once; {} signs", kid, signs));
        return signing;
    }

    /** Seals keys stored in clear by earlier versions, and proves at start-up that the configured key opens them. */
    @EventListener(ApplicationReadyEvent.class)
    void sealLegacyAndCheck() {
        record Clear(String kid, String jwk) {}
        var clear = jdbc.sql("SELECT kid, jwk FROM signing_key WHERE jwk NOT LIKE 'v1:%'")
                .query((rs, n) -> new Clear(rs.getString(1), rs.getString(2)))
                .list();
        for (Clear c : clear) {
            jdbc.sql("UPDATE signing_key SET jwk = ? WHERE kid = ? AND jwk = ?")
                    .params(sealing.seal(context(c.kid()), c.jwk()), c.kid(), c.jwk())
                    .update();
        }
        if (!clear.isEmpty()) {
            log.info("Sealed {} signing key(s) stored in clear", clear.size());
        }
        reload();
    }

    List<StoredKey> keys() {
        Instant now = clock.instant();
        List<StoredKey> keys = cached;
        if (keys.isEmpty() || now.isAfter(cachedAt.plus(CACHE))) {
            keys = reload();
        }
        return keys;
    }

    private List<StoredKey> reload() {
        List<StoredKey> keys = read();
        if (keys.stream().noneMatch(StoredKey::signs)) {
            // The first replica creates the key; a concurrent one waits on the advisory lock, then reads it.
            keys = transactions.execute(status -> {
                lock();
                if (read().stream().noneMatch(StoredKey::signs)) {
                    insertNew();
                }
                return read();
            });
        }
        cached = keys;
        cachedAt = clock.instant();
        return keys;
    }

    private JWKSet verifying(List<StoredKey> keys) {
        Instant now = clock.instant();
        return new JWKSet(keys.stream()
                .filter(key -> key.signs() || now.isBefore(key.retiresAt(maxTokenLifetime)))
                .map(StoredKey::jwk)
                .toList());
    }

    private RSAKey insertNew() {
        RSAKey key = generate();
        jdbc.sql("INSERT INTO signing_key (kid, jwk, created_at) VALUES (?, ?, clock_timestamp())")
                .params(key.getKeyID(), sealing.seal(context(key.getKeyID()), key.toJSONString()))
                .update();
        return key;
    }

    private void deleteRetired() {
        int deleted = jdbc.sql(
                        "DELETE FROM signing_key WHERE superseded_at < clock_timestamp() - ? * interval '1 second'")
                .param(maxTokenLifetime.plus(SKEW).toSeconds())
                .update();
        if (deleted > 0) {
            log.info("Retired {} signing key(s) superseded more than {} ago", deleted, maxTokenLifetime.plus(SKEW));
        }
    }

    private void lock() {
        jdbc.sql("SELECT pg_advisory_xact_lock(4242)").query(Object.class).list();
    }

    private void forgetAfterCommit() {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    cachedAt = Instant.EPOCH;
                }
            });
        }
        cachedAt = Instant.EPOCH;
    }

    private List<StoredKey> read() {
        return jdbc.sql("SELECT kid, jwk, created_at, superseded_at FROM signing_key ORDER BY created_at DESC")
                .query((rs, n) -> {
                    OffsetDateTime superseded = rs.getObject(4, OffsetDateTime.class);
                    return new StoredKey(
                            open(rs.getString(1), rs.getString(2)),
                            rs.getObject(3, OffsetDateTime.class).toInstant(),
                            superseded == null ? null : superseded.toInstant());
                })
                .list();
    }

    private JWK open(String kid, String stored) {
        String json;
        if (SealingKey.isSealed(stored)) {
            try {
                json = sealing.open(context(kid), stored);
            } catch (SealingKey.CannotOpen ex) {
                throw new IllegalStateException("The signing key " + kid + " does not open with "
                        + SigningKeySealing.PROPERTY
                        + ": configure the key it was sealed with (every replica needs the "
                        + "same one), or delete the rows of signing_key to start with a new key (this ends every "
                        + "issued token)");
            }
        } else {
            json = stored;
        }
        try {
            return JWK.parse(json);
        } catch (ParseException ex) {
            throw new IllegalStateException("The stored signing key " + kid + " cannot be read");
        }
    }

    private static String context(String kid) {
        return "signing_key:" + kid;
    }

    private static RSAKey generate() {
        try {
            return new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
        } catch (JOSEException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
