package dev.allot.booking.spec;

import dev.allot.shared.InvalidInputException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The rule for a booking's {@code cluster.sshPublicKeys}, shared by the API and the booking form: at most
 * {@link #MAX_KEYS} OpenSSH public key lines of at most {@link #MAX_LENGTH} characters, each a known key type, its
 * base64 key blob whose first field names that same type (a cut or mislabelled paste fails), and an optional comment
 * without control characters. Drivers write these lines into files on login nodes, so nothing else gets through.
 */
public final class SshPublicKeys {

    public static final int MAX_KEYS = 32;

    public static final int MAX_LENGTH = 8192;

    private static final Pattern LINE = Pattern.compile("^(\\S+) +([A-Za-z0-9+/]+={0,2})( +(.*))?$");

    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    /** The key types accepted and the least size of their key blob in bytes. */
    private static final Map<String, Integer> TYPES = Map.of(
            "ssh-ed25519",
            51,
            "ssh-rsa",
            200,
            "ecdsa-sha2-nistp256",
            100,
            "ecdsa-sha2-nistp384",
            120,
            "ecdsa-sha2-nistp521",
            140,
            "sk-ssh-ed25519@openssh.com",
            60,
            "sk-ecdsa-sha2-nistp256@openssh.com",
            100);

    private SshPublicKeys() {}

    /** Each refused key as {@code cluster.sshPublicKeys[i]}, and a refusal of the count as the list's field. */
    public static List<InvalidInputException.FieldError> refusals(List<String> keys) {
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        if (keys.size() > MAX_KEYS) {
            errors.add(new InvalidInputException.FieldError("cluster.sshPublicKeys", "at most " + MAX_KEYS + " keys"));
            return errors;
        }
        for (int i = 0; i < keys.size(); i++) {
            String problem = problem(keys.get(i));
            if (problem != null) {
                errors.add(new InvalidInputException.FieldError("cluster.sshPublicKeys[" + i + "]", problem));
            }
        }
        return errors;
    }

    /** Why one line is not an acceptable public key, or null when it is. */
    public static @Nullable String problem(@Nullable String line) {
        if (line == null || line.isBlank()) {
            return "must not be empty";
        }
        if (line.contains("PRIVATE KEY")) {
            return "this is a private key; paste the public key (the .pub file) and keep this one secret";
        }
        if (line.length() > MAX_LENGTH) {
            return "longer than " + MAX_LENGTH + " characters";
        }
        if (CONTROL.matcher(line).find()) {
            return "contains a line break or another control character; give one key per entry";
        }
        Matcher matcher = LINE.matcher(line);
        if (!matcher.matches()) {
            return "not an SSH public key such as \"ssh-ed25519 AAAAC3Nza... you@laptop\"";
        }
        String type = matcher.group(1);
        if (!TYPES.containsKey(type)) {
            return "unknown key type " + type + "; use ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256/384/521 or sk-";
        }
        byte[] blob;
        try {
            blob = Base64.getDecoder().decode(matcher.group(2));
        } catch (IllegalArgumentException ex) {
            return "the key is not valid base64; was it cut while copying?";
        }
        if (blob.length < TYPES.get(type) || !type.equals(embeddedType(blob))) {
            return "the key does not match its type " + type + "; was it cut while copying?";
        }
        return null;
    }

    /** The type name a key blob starts with (a length-prefixed string), or null. */
    private static @Nullable String embeddedType(byte[] blob) {
        if (blob.length < 4) {
            return null;
        }
        int length = ByteBuffer.wrap(blob, 0, 4).getInt();
        if (length <= 0 || length > 64 || 4 + length > blob.length) {
            return null;
        }
        return new String(blob, 4, length, StandardCharsets.US_ASCII);
    }
}
