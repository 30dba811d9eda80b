package dev.allot.shared;

import java.util.List;

/** Bad input: answered 400 with an {@code errors} array naming each bad field. */
public class InvalidInputException extends AllotException {

    public record FieldError(String field, String message) {}

    private final List<FieldError> errors;

    public InvalidInputException(List<FieldError> errors) {
        super(400, "invalid_request", "Invalid request", describe(errors));
        this.errors = List.copyOf(errors);
        with("errors", this.errors);
    }

    public static InvalidInputException of(String field, String message) {
        return new InvalidInputException(List.of(new FieldError(field, message)));
    }

    public List<FieldError> errors() {
        return errors;
    }

    private static String describe(List<FieldError> errors) {
        return errors.stream()
                .map(e -> e.field() + ": " + e.message())
                .reduce((a, b) -> a + "; " + b)
                .orElse("");
    }
}
