package dev.allot.shared;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * An {@code Idempotency-Key} and the fingerprint of the request that came with it: the one set of rules for every
 * POST that creates. The first request with a key creates; a retry with the same key and the same request gets the
 * first answer again; the same key with another request is refused ({@link #reused}); a retry racing its
 * twin still running after a while is told to retry ({@link #inUse}).
 * <p>
 * The API's shared filter ({@code shared.web.IdempotentCreates}) applies these rules to every creating POST and
 * keeps each first answer. Creates whose key must also commit with what they create (a reservation, a health check)
 * take this value as a parameter, store it with their row, and check a stored one with {@link #requireSameRequest},
 * so that a retry after a crash between their commit and the kept answer still creates nothing twice.
 *
 * <p>
 * A key is scoped per caller, as Stripe scopes keys per account: two service accounts of one tenant may send the
 * same key, and each gets its own creation. What stores a key stores its {@code caller} with it.
 *
 * @param caller who sent it: the subject of the token or session
 * @param requestHash SHA-256 (hex) of what the request asked for
 */
public record IdempotencyKey(String caller, String key, String requestHash) {

    public static final String HEADER = "Idempotency-Key";

    public static final int MAX_LENGTH = 200;

    public IdempotencyKey {
        if (key.isBlank() || key.length() > MAX_LENGTH) {
            throw InvalidInputException.of(HEADER, "must be 1-" + MAX_LENGTH + " characters");
        }
    }

    /** The key of a caller's request: {@code scope} (its path, say) and its body, fingerprinted together. */
    public static IdempotencyKey of(String caller, String key, String scope, byte[] body) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(scope.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(body);
            return new IdempotencyKey(caller, key, HexFormat.of().formatHex(digest.digest()));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** A creation already holds this key: it answers this request only if it was made for the same one. */
    public void requireSameRequest(String storedHash) {
        if (!storedHash.equals(requestHash)) {
            throw reused(key);
        }
    }

    public static AllotException reused(String key) {
        return AllotException.unprocessable(
                        "idempotency_key_reused", HEADER + " " + key + " was used for a different request")
                .with("field", HEADER);
    }

    public static AllotException inUse(String key) {
        return AllotException.conflict(
                "idempotency_key_in_use",
                "A request with " + HEADER + " " + key + " is still running; retry in a moment");
    }
}
