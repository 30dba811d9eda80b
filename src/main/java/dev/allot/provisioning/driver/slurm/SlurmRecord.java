package dev.allot.provisioning.driver.slurm;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One line of {@code scontrol show <entity> <name> --oneliner}: {@code Key=Value} pairs. */
record SlurmRecord(Map<String, String> fields) {

    private static final Pattern PAIR = Pattern.compile("(?:^|\\s)([A-Za-z/:]+)=(\\S*)");

    static SlurmRecord parse(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        Matcher matcher = PAIR.matcher(line.strip());
        while (matcher.find()) {
            fields.putIfAbsent(matcher.group(1), matcher.group(2));
        }
        return new SlurmRecord(fields);
    }

    /** One setting of {@code scontrol show config} ({@code Name = value} lines); empty when unset. */
    static String setting(String config, String name) {
        String value = config.lines()
                .filter(line -> line.startsWith(name + " ") || line.startsWith(name + "="))
                .map(line -> line.substring(line.indexOf('=') + 1).strip())
                .findFirst()
                .orElse("");
        return value.equals("(null)") ? "" : value;
    }

    String get(String key) {
        String value = fields.get(key);
        return value == null || value.equals("(null)") ? "" : value;
    }
}
