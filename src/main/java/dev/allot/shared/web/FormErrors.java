package dev.allot.shared.web;

import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Messages a page shows next to the fields of a form, by field name. Domain refusals become messages here
 * rather than an error page; only "not found" stays a 404 page, so a stranger learns nothing more.
 */
public final class FormErrors {

    /** The key of a message about the whole form rather than one field. */
    public static final String FORM = "form";

    private final Map<String, String> messages = new LinkedHashMap<>();

    public FormErrors add(String field, String message) {
        messages.putIfAbsent(field, message);
        return this;
    }

    /**
     * Adds the refusal's messages: per field for bad input, on {@code field} for any other refusal. A field inside
     * another ({@code windows[0].maxGpus}) counts as the form's field holding it ({@code windows}), so that its
     * message shows next to what the user typed rather than nowhere.
     */
    public FormErrors add(AllotException refusal, String field) {
        if (refusal.status() == 404) {
            throw refusal;
        }
        if (refusal instanceof InvalidInputException invalid) {
            invalid.errors().forEach(error -> add(formField(error.field()), error.message()));
        } else {
            add(field, String.valueOf(refusal.getMessage()));
        }
        return this;
    }

    private static String formField(String field) {
        int end = field.length();
        for (char separator : new char[] {'[', '.'}) {
            int at = field.indexOf(separator);
            if (at > 0) {
                end = Math.min(end, at);
            }
        }
        return field.substring(0, end);
    }

    public boolean has(String field) {
        return messages.containsKey(field);
    }

    public String get(String field) {
        return messages.getOrDefault(field, "");
    }

    public boolean isEmpty() {
        return messages.isEmpty();
    }

    public Map<String, String> asMap() {
        return Map.copyOf(messages);
    }
}
