package dev.allot.identity;

import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The keys that sign Allot's tokens, kept in PostgreSQL so tokens survive restarts and every replica signs
 * and verifies alike. The newest key signs; all listed keys verify, so rotating is inserting a new key
 * (see {@link #rotate()}) and removing the old one once its tokens have expired. Read through a short cache.
 */
@Component
class SigningKeys implements JWKSource<SecurityContext> {

	private static final Duration CACHE = Duration.ofSeconds(30);

	private final JdbcClient jdbc;

	private final Clock clock;

	private final TransactionTemplate transactions;

	private volatile JWKSet cached = new JWKSet();

	private volatile Instant cachedAt = Instant.EPOCH;

	SigningKeys(JdbcClient jdbc, Clock clock, TransactionTemplate transactions) {
		this.jdbc = jdbc;
		this.clock = clock;
		this.transactions = transactions;
	}

	@Override
	public List<JWK> get(JWKSelector selector, SecurityContext context) {
		return selector.select(keys());
	}

	/** Only the newest key: what new tokens are signed with. */
	JWKSource<SecurityContext> forSigning() {
		return (selector, context) -> selector.select(new JWKSet(keys().getKeys().getFirst()));
	}

	/** Adds a new signing key; replicas pick it up within the cache time. */
	void rotate() {
		RSAKey key = generate();
		jdbc.sql("INSERT INTO signing_key (kid, jwk, created_at) VALUES (?, ?, clock_timestamp())")
			.params(key.getKeyID(), key.toJSONString())
			.update();
		cachedAt = Instant.EPOCH;
	}

	JWKSet keys() {
		Instant now = clock.instant();
		if (now.isAfter(cachedAt.plus(CACHE)) || cached.isEmpty()) {
			cached = load();
			cachedAt = now;
		}
		return cached;
	}

	private JWKSet load() {
		List<JWK> keys = read();
		if (keys.isEmpty()) {
			// The first replica creates the key; a concurrent one waits on the advisory lock, then reads it.
			keys = transactions.execute(status -> {
				jdbc.sql("SELECT pg_advisory_xact_lock(4242)").query(Object.class).list();
				if (read().isEmpty()) {
					rotate();
				}
				return read();
			});
		}
		return new JWKSet(keys);
	}

	private List<JWK> read() {
		return jdbc.sql("SELECT jwk FROM signing_key ORDER BY created_at DESC")
			.query(String.class)
			.list()
			.stream()
			.map(SigningKeys::parse)
			.toList();
	}

	private static JWK parse(String json) {
		try {
			return JWK.parse(json);
		}
		catch (ParseException ex) {
			throw new IllegalStateException("A stored signing key cannot be read", ex);
		}
	}

	private static RSAKey generate() {
		try {
			return new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).generate();
		}
		catch (JOSEException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
