package dev.allot.identity.throttle;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Failed sign-ins ({@code sign_in_failure}) per account and source address, and per account across addresses, and
 * the growing delay they earn: a replica that never saw the failures refuses just the same. Each change is one
 * upsert, so concurrent failures all count. Nothing sleeps: a refused attempt is answered at once with 429. The
 * addresses an account signed in from successfully are kept ({@code sign_in_known_address}, hashed): from those
 * the per-account delay does not apply, so a stranger's failures cannot lock the owner out.
 */
@Component
class SignInFailures {

    private final JdbcClient jdbc;

    private final RateLimitProperties.Backoff backoff;

    SignInFailures(JdbcClient jdbc, RateLimitProperties properties) {
        this.jdbc = jdbc;
        this.backoff = properties.backoff();
    }

    /**
     * How long attempts on the account from this address are still refused, if they are: the address's own
     * back-off, then, unless the account signed in from the address before, the account's.
     */
    Optional<Refusal> refusedFor(SignInChannel channel, String principal, String address) {
        Optional<Duration> own = refusedUntil(channel, fromAddress(principal, address));
        if (own.isPresent()) {
            return own.map(delay -> new Refusal(delay, "backoff"));
        }
        if (known(channel, principal, address)) {
            return Optional.empty();
        }
        return refusedUntil(channel, principal).map(delay -> new Refusal(delay, "account_backoff"));
    }

    /** A refused attempt: how long to wait, and which back-off refused it (for the audit). */
    record Refusal(Duration delay, String reason) {}

    /** Whether the account signed in successfully from the address before (within the known-address retention). */
    boolean known(SignInChannel channel, String principal, String address) {
        return jdbc.sql("""
				SELECT count(*) FROM sign_in_known_address
				WHERE channel = ? AND principal = ? AND address_hash = ?
				  AND last_success > clock_timestamp() - make_interval(secs => ?)""")
                        .params(channel.key(), principal, hash(principal, address), (double) KNOWN_FOR.toSeconds())
                        .query(Long.class)
                        .single()
                > 0;
    }

    private Optional<Duration> refusedUntil(SignInChannel channel, String key) {
        return jdbc.sql("""
				SELECT (extract(epoch FROM refused_until - clock_timestamp()) * 1000)::bigint
				FROM sign_in_failure
				WHERE channel = :channel AND principal = :principal AND refused_until > clock_timestamp()
				""")
                .param("channel", channel.key())
                .param("principal", key)
                .query(Long.class)
                .optional()
                .map(Duration::ofMillis);
    }

    /** The failure count's key of the account from one address: the account and a hash of the address. */
    static String fromAddress(String principal, String address) {
        return principal + " from " + hash(principal, address).substring(0, 16);
    }

    private static String hash(String principal, String address) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((principal + "\n" + address).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Counts a failure from the address, and for the account. */
    void failed(SignInChannel channel, String principal, String address) {
        count(channel, fromAddress(principal, address), backoff.threshold());
        count(channel, principal, backoff.accountThreshold());
    }

    /** Counts a failure under the key; from the threshold on, refuses it for a delay that doubles each time. */
    private void count(SignInChannel channel, String key, int threshold) {
        // failures after this one: the count goes on within the window, starts again at 1 after it
        String failures =
                "CASE WHEN f.window_start > clock_timestamp() - CAST(:window AS interval) THEN f.failures + 1 ELSE 1 END";
        jdbc.sql("""
				INSERT INTO sign_in_failure AS f (channel, principal, failures, window_start, refused_until)
				VALUES (:channel, :principal, 1, clock_timestamp(), CASE WHEN :threshold <= 1
				        THEN clock_timestamp() + make_interval(secs => 1) END)
				ON CONFLICT (channel, principal) DO UPDATE SET
				    failures = %1$s,
				    window_start = CASE WHEN f.window_start > clock_timestamp() - CAST(:window AS interval) THEN f.window_start
				                   ELSE clock_timestamp() END,
				    refused_until = CASE WHEN %1$s >= :threshold
				        THEN clock_timestamp() + make_interval(secs => least(:maxSeconds,
				            power(2, least(%1$s - :threshold, 30))))
				        END
				""".formatted(failures))
                .param("channel", channel.key())
                .param("principal", key)
                .param("window", backoff.window().toSeconds() + " seconds")
                .param("threshold", threshold)
                .param("maxSeconds", (double) backoff.max().toSeconds())
                .update();
    }

    /** Forgets failures that no longer count: their window is over and no delay is running. */
    int purgeForgotten() {
        return jdbc.sql("""
				DELETE FROM sign_in_failure
				WHERE window_start < clock_timestamp() - CAST(:window AS interval)
				  AND (refused_until IS NULL OR refused_until < clock_timestamp())
				""")
                .param("window", backoff.window().toSeconds() + " seconds")
                .update();
    }

    /**
     * A successful sign-in forgets the failures from its address (not the account's across addresses: a stranger
     * guessing from elsewhere is not let off by the owner signing in) and makes the address known good.
     */
    void succeeded(SignInChannel channel, String principal, String address) {
        jdbc.sql("DELETE FROM sign_in_failure WHERE channel = :channel AND principal = :principal")
                .param("channel", channel.key())
                .param("principal", fromAddress(principal, address))
                .update();
        jdbc.sql("""
				INSERT INTO sign_in_known_address (channel, principal, address_hash, last_success)
				VALUES (?, ?, ?, clock_timestamp())
				ON CONFLICT (channel, principal, address_hash) DO UPDATE SET last_success = excluded.last_success""").params(channel.key(), principal, hash(principal, address)).update();
    }

    /** Forgets known-good addresses not signed in from for {@link #KNOWN_FOR}. */
    int purgeUnknown() {
        return jdbc.sql(
                        "DELETE FROM sign_in_known_address WHERE last_success < clock_timestamp() - make_interval(secs => ?)")
                .param((double) KNOWN_FOR.toSeconds())
                .update();
    }

    /** How long an address stays known good after its last successful sign-in. */
    static final Duration KNOWN_FOR = Duration.ofDays(90);
}
