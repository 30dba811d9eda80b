package dev.allot.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import org.jspecify.annotations.Nullable;

/**
 * JSON bodies derived from a request schema of the contract, then broken: one value at any depth replaced by a
 * bad one of its kind (NUL, lone surrogate, wrong type, huge or non-finite number, far-future instant), a key
 * given twice, or text that is not JSON. Choices come from jqwik's generators driven by the caller's seeded
 * {@link Random}, so a run replays from its seed.
 */
public final class MalformedBodies {

    /** Marks a value written into the JSON text as is (a number too large for Java, a JSON escape). */
    private static final String RAW = "\u0001raw\u0001";

    private final Map<String, Object> schemas;

    public MalformedBodies(Map<String, Object> schemas) {
        this.schemas = schemas;
    }

    /** A value of the kind the schema names; {@code name} hints at instants among the strings. */
    @SuppressWarnings("unchecked")
    public Object sample(Map<String, Object> schema, String name, Random random) {
        Map<String, Object> resolved = resolve(schema);
        if (resolved.get("enum") instanceof List<?> values) {
            return values.getFirst();
        }
        String type = String.valueOf(resolved.getOrDefault("type", "object"));
        return switch (type) {
            case "string" -> {
                String format = String.valueOf(resolved.get("format"));
                if ("date".equals(format)) {
                    yield "2030-01-01";
                }
                if ("date-time".equals(format) || instantLike(name)) {
                    yield "2030-01-01T00:00:00Z";
                }
                if ("uuid".equals(format)) {
                    yield UUID.randomUUID().toString();
                }
                yield "fz-sample";
            }
            case "integer" -> 1;
            case "number" -> 1.5;
            case "boolean" -> false;
            case "array" -> {
                Object items = resolved.get("items");
                yield items instanceof Map<?, ?> itemSchema
                        ? new ArrayList<>(List.of(sample((Map<String, Object>) itemSchema, name, random)))
                        : new ArrayList<>(List.of("fz"));
            }
            default -> {
                Map<String, Object> object = new LinkedHashMap<>();
                if (resolved.get("properties") instanceof Map<?, ?> properties) {
                    properties.forEach((key, value) -> object.put(
                            String.valueOf(key), sample((Map<String, Object>) value, String.valueOf(key), random)));
                } else if (resolved.get("additionalProperties") instanceof Map<?, ?> values) {
                    object.put("fz-key", values.isEmpty() ? "fz" : sample((Map<String, Object>) values, "", random));
                }
                yield object;
            }
        };
    }

    static boolean instantLike(String name) {
        return name.endsWith("At")
                || name.equals("from")
                || name.equals("to")
                || name.endsWith("Until")
                || name.endsWith("From")
                || name.equals("at")
                || name.equals("after");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> resolve(Map<String, Object> schema) {
        Object ref = schema.get("$ref");
        if (ref == null) {
            return schema;
        }
        return (Map<String, Object>) schemas.get(String.valueOf(ref).substring("#/components/schemas/".length()));
    }

    /** The body with one value (at any depth) replaced by a bad one of its kind; or a bad root. */
    public String badBody(Object body, Random random) {
        List<List<Object>> paths = new ArrayList<>();
        leaves(body, new ArrayList<>(), paths);
        paths.removeIf(List::isEmpty);
        if (paths.isEmpty() || random.nextInt(10) == 0) {
            return pick(
                    Arbitraries.of("[]", "\"fz\"", "5", "null", "true", "{\"\\u0000\": 1}", "{\"fz\\ud800\": 1}"),
                    random);
        }
        List<Object> path = pick(Arbitraries.of(paths), random);
        Object copy = copy(body);
        Object old = get(copy, path);
        String name = path.isEmpty() ? "" : String.valueOf(path.getLast());
        Object bad = pick(Arbitraries.of(badValues(old, name)), random);
        set(copy, path, bad);
        String text = Api.json(copy);
        return bad instanceof String s && s.startsWith(RAW)
                ? text.replace("\"" + escaped(s) + "\"", s.substring(RAW.length()))
                : text;
    }

    private static String escaped(String text) {
        String json = Api.json(text);
        return json.substring(1, json.length() - 1);
    }

    private static List<Object> badValues(Object old, String name) {
        // lone surrogates go as JSON escapes: encoded as UTF-8 they would arrive as '?'
        List<Object> bad = new ArrayList<>(List.of(
                "a\u0000b",
                "\u0000",
                RAW + "\"\\ud800\"",
                RAW + "\"x\\udc00y\"",
                List.of("a\u0000"),
                Map.of("nested", "\u0000")));
        if (old instanceof String text) {
            bad.addAll(List.of(
                    5,
                    1.5,
                    true,
                    List.of("fz"),
                    Map.of("fz", 1),
                    RAW + "1e400",
                    RAW + "99999999999999999999999999999"));
            if (instantLike(name) || text.matches("\\d{4}-\\d{2}-\\d{2}.*")) {
                bad.addAll(List.of(
                        "9999-12-31T23:59:00Z",
                        "+1000000000-01-01T00:00:00Z",
                        "-999999999-01-01T00:00:00Z",
                        "1969-12-31T23:59:00Z",
                        "3000-01-01T00:00:00Z",
                        "9999-12-31",
                        "+999999999-12-31",
                        "2030-02-30T00:00:00Z",
                        "2030-01-01T00:00:00+99:00",
                        RAW + "253402300799",
                        RAW + "-62135596800000"));
            }
        } else if (old instanceof Integer) {
            bad.addAll(List.of(
                    "5",
                    1.5,
                    RAW + "1e400",
                    RAW + "99999999999999999999999999",
                    RAW + "-99999999999999999999",
                    RAW + "2147483648",
                    true,
                    List.of(1),
                    Map.of("n", 1),
                    RAW + "1.0e10",
                    RAW + "-0.0"));
        } else if (old instanceof Double) {
            bad.addAll(List.of(
                    "1.5",
                    RAW + "1e400",
                    RAW + "-1e400",
                    RAW + "1e-400",
                    RAW + "NaN",
                    RAW + ("9".repeat(2000)),
                    true,
                    List.of(1.5)));
        } else if (old instanceof Boolean) {
            bad.addAll(List.of("true", 1, "yes", RAW + "0", List.of(true)));
        } else if (old instanceof List<?>) {
            bad.addAll(List.of("fz", 5, Map.of("fz", 1), true));
        } else if (old instanceof Map<?, ?>) {
            // not a plain "fz": a nullable string field is sampled as an object, and "fz" would be a valid value
            bad.addAll(List.of("fz\u0000", 5, List.of(1), true));
        }
        return bad;
    }

    public String duplicateKey(@Nullable String text, Object body, Random random) {
        if (!(body instanceof Map<?, ?> object) || object.isEmpty() || text == null) {
            return "{\"fz\": 1, \"fz\": 2}";
        }
        String key = pick(
                Arbitraries.of(object.keySet().stream().map(String::valueOf).toList()), random);
        return text.substring(0, text.length() - 1) + ", " + Api.json(key) + ": " + Api.json(object.get(key)) + "}";
    }

    public static List<String> brokenBodies(@Nullable String text) {
        String valid = text == null ? "{}" : text;
        return List.of(
                valid.substring(0, Math.max(1, valid.length() / 2)),
                valid + "}",
                valid + " trailing",
                "{\"a\":}",
                "\u0000",
                valid.replace(":", ": \u0000"),
                "[".repeat(5000),
                "{\"a\":".repeat(2000),
                "'single'",
                "{\"a\": 1,}",
                "",
                valid.replaceFirst("\"", "\"\\u0000"));
    }

    private static Object copy(Object node) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, value) -> copy.put(String.valueOf(key), copy(value)));
            return copy;
        }
        if (node instanceof List<?> list) {
            return new ArrayList<>(list.stream().map(MalformedBodies::copy).toList());
        }
        return node;
    }

    private static void leaves(Object node, List<Object> path, List<List<Object>> into) {
        if (node instanceof Map<?, ?> map && !map.isEmpty()) {
            into.add(List.copyOf(path));
            map.forEach((key, value) -> {
                List<Object> child = new ArrayList<>(path);
                child.add(String.valueOf(key));
                leaves(value, child, into);
            });
        } else if (node instanceof List<?> list && !list.isEmpty()) {
            into.add(List.copyOf(path));
            for (int i = 0; i < list.size(); i++) {
                List<Object> child = new ArrayList<>(path);
                child.add(i);
                leaves(list.get(i), child, into);
            }
        } else {
            into.add(List.copyOf(path));
        }
    }

    private static @Nullable Object get(Object node, List<Object> path) {
        Object at = node;
        for (Object step : path) {
            at = step instanceof Integer i ? ((List<?>) at).get(i) : ((Map<?, ?>) at).get(step);
        }
        return at;
    }

    @SuppressWarnings("unchecked")
    private static void set(Object root, List<Object> path, Object value) {
        if (path.isEmpty()) {
            return;
        }
        Object parent = get(root, path.subList(0, path.size() - 1));
        Object last = path.getLast();
        if (last instanceof Integer i) {
            ((List<Object>) parent).set(i, value);
        } else {
            ((Map<String, Object>) parent).put((String) last, value);
        }
    }

    public static <T> T pick(Arbitrary<T> arbitrary, Random random) {
        return arbitrary.generator(1000).next(random).value();
    }
}
