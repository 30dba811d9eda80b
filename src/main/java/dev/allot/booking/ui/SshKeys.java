package dev.allot.booking.ui;

import dev.allot.booking.spec.SshPublicKeys;
import java.util.ArrayList;
import java.util.List;

/**
 * SSH public keys as pasted from {@code ~/.ssh/*.pub}, one per line: the type, the base64 key whose first field
 * must name the same type, and an optional comment ({@link SshPublicKeys}). Private keys and truncated pastes are
 * refused with the line.
 */
final class SshKeys {

    static final int MAX_KEYS = SshPublicKeys.MAX_KEYS;

    record Parsed(List<String> keys, List<String> problems) {}

    private SshKeys() {}

    static Parsed parse(String text) {
        List<String> keys = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String[] lines = text.split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            // a paste may separate its fields by tabs or several spaces; the key is stored with single spaces
            line = line.replaceAll("\\s+", " ");
            String problem = SshPublicKeys.problem(line);
            if (problem != null) {
                problems.add("Line " + (i + 1) + ": " + problem);
            } else {
                keys.add(line);
            }
        }
        if (keys.size() > MAX_KEYS) {
            problems.add("At most " + MAX_KEYS + " keys");
        }
        return new Parsed(List.copyOf(keys), List.copyOf(problems));
    }
}
