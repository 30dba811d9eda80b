package dev.allot.shared.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * An AES-256-GCM key from configuration (never from the database) that seals secrets before they are stored,
 * so a copy of the database yields none of them. A sealed value reads {@code v1:<base64 nonce|ciphertext>};
 * the context it belongs to (a tenant id, a key id) is bound as associated data, so a sealed value copied into
 * another row does not open there. Messages never carry the secret.
 */
public final class SealingKey {

    public static final String PREFIX = "v1:";

    private static final int NONCE = 12;

    private static final int TAG_BITS = 128;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKey key;

    private SealingKey(byte[] key) {
        this.key = new SecretKeySpec(key, "AES");
    }

    /** The key configured under {@code property}; refuses, naming the property, anything but 32 bytes in base64. */
    public static SealingKey fromBase64(String property, String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException ex) {
            throw new IllegalStateException(property + " must be base64");
        }
        if (bytes.length != 32) {
            throw new IllegalStateException(property + " must be 32 bytes (256 bits), base64: openssl rand -base64 32");
        }
        return new SealingKey(bytes);
    }

    /** A fresh random key (the embedded quick start writes one to its data folder). */
    public static SealingKey generate() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return new SealingKey(bytes);
    }

    public String toBase64() {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }

    public static boolean isSealed(String stored) {
        return stored.startsWith(PREFIX);
    }

    public String seal(String context, String secret) {
        try {
            byte[] nonce = new byte[NONCE];
            RANDOM.nextBytes(nonce);
            byte[] sealed =
                    cipher(Cipher.ENCRYPT_MODE, nonce, context).doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return PREFIX
                    + Base64.getEncoder()
                            .encodeToString(ByteBuffer.allocate(NONCE + sealed.length)
                                    .put(nonce)
                                    .put(sealed)
                                    .array());
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("Could not seal a secret", ex);
        }
    }

    /**
     * The secret in clear; refuses a value sealed under another key or context, or altered.
     * @throws CannotOpen without the secret in its message
     */
    public String open(String context, String sealed) {
        if (!isSealed(sealed)) {
            throw new CannotOpen("not a sealed value");
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(sealed.substring(PREFIX.length()));
            if (bytes.length <= NONCE) {
                throw new CannotOpen("too short");
            }
            byte[] nonce = Arrays.copyOf(bytes, NONCE);
            return new String(
                    cipher(Cipher.DECRYPT_MODE, nonce, context).doFinal(bytes, NONCE, bytes.length - NONCE),
                    StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException ex) {
            throw new CannotOpen("wrong key, wrong context or altered");
        }
    }

    private Cipher cipher(int mode, byte[] nonce, String context) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
        return cipher;
    }

    @Override
    public String toString() {
        return "SealingKey[hidden]";
    }

    /** A sealed value that does not open with this key in this context. */
    public static final class CannotOpen extends IllegalStateException {

        CannotOpen(String why) {
            super("A sealed value cannot be opened: " + why);
        }
    }
}
