package dev.allot.booking.ui;

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
 * SSH public keys as pasted from {@code ~/.ssh/*.pub}, one per line: the type, the base64 key whose first field
 * must name the same type, and an optional comment. Private keys and truncated pastes are refused with the line.
 */
final class SshKeys {

	static final int MAX_KEYS = 32;

	static final int MAX_LENGTH = 8192;

	private static final Pattern LINE = Pattern.compile("^(\\S+)\\s+([A-Za-z0-9+/]+={0,2})(\\s+.*)?$");

	/** The key types accepted and the least size of their key blob in bytes. */
	private static final Map<String, Integer> TYPES = Map.of("ssh-ed25519", 51, "ssh-rsa", 200,
			"ecdsa-sha2-nistp256", 100, "ecdsa-sha2-nistp384", 120, "ecdsa-sha2-nistp521", 140,
			"sk-ssh-ed25519@openssh.com", 60, "sk-ecdsa-sha2-nistp256@openssh.com", 100);

	record Parsed(List<String> keys, List<String> problems) {
	}

	private SshKeys() {
	}

	static Parsed parse(String text) {
		List<String> keys = new ArrayList<>();
		List<String> problems = new ArrayList<>();
		String[] lines = text.split("\\R");
		for (int i = 0; i < lines.length; i++) {
			String line = lines[i].strip();
			if (line.isEmpty()) {
				continue;
			}
			String problem = problem(line);
			if (problem != null) {
				problems.add("Line " + (i + 1) + ": " + problem);
			}
			else {
				keys.add(line);
			}
		}
		if (keys.size() > MAX_KEYS) {
			problems.add("At most " + MAX_KEYS + " keys");
		}
		return new Parsed(List.copyOf(keys), List.copyOf(problems));
	}

	private static @Nullable String problem(String line) {
		if (line.contains("PRIVATE KEY")) {
			return "this is a private key; paste the public key (the .pub file) and keep this one secret";
		}
		if (line.length() > MAX_LENGTH) {
			return "longer than " + MAX_LENGTH + " characters";
		}
		Matcher matcher = LINE.matcher(line);
		if (!matcher.matches()) {
			return "not an SSH public key such as \"ssh-ed25519 AAAAC3Nza... you@laptop\"";
		}
		String type = matcher.group(1);
		if (!TYPES.containsKey(type)) {
			return "unknown key type " + type + "; use ssh-ed25519, ssh-rsa or ecdsa";
		}
		byte[] blob;
		try {
			blob = Base64.getDecoder().decode(matcher.group(2));
		}
		catch (IllegalArgumentException ex) {
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
