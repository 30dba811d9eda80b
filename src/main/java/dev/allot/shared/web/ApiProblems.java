package dev.allot.shared.web;

import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Turns every failure of a REST controller into an RFC 9457 problem with a stable {@code type};
 * bad input names each bad field, and nothing internal leaks into a response.
 */
@RestControllerAdvice(annotations = RestController.class)
class ApiProblems extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiProblems.class);

    /** How Jackson's strict duplicate detection names the key given twice. */
    private static final Pattern DUPLICATE_KEY = Pattern.compile("^Duplicate Object property \"(.*)\"");

    private final MeterRegistry metrics;

    ApiProblems(MeterRegistry metrics) {
        this.metrics = metrics;
    }

    @ExceptionHandler(AllotException.class)
    ResponseEntity<ProblemDetail> domain(AllotException ex) {
        ProblemDetail problem = problem(ex.status(), ex.code(), ex.title(), ex.getMessage());
        ex.properties().forEach(problem::setProperty);
        return respond(problem);
    }

    /** Every problem answered is counted by its code: conflicts, quota refusals, bad input, ... */
    private ResponseEntity<ProblemDetail> respond(ProblemDetail problem) {
        metrics.counter(
                        "allot.api.problems",
                        "code",
                        String.valueOf(
                                problem.getProperties() == null
                                        ? ""
                                        : problem.getProperties().get("code")),
                        "status",
                        String.valueOf(problem.getStatus()))
                .increment();
        return ResponseEntity.status(problem.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException ex) {
        for (Throwable cause = ex.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidInputException invalid
                    && !invalid.errors().isEmpty()) {
                // a converter's own refusal (an instant out of bounds, say) says more than "not valid"
                return domain(InvalidInputException.of(
                        ex.getName(), invalid.errors().getFirst().message()));
            }
        }
        return domain(InvalidInputException.of(ex.getName(), "is not a valid value: " + ex.getValue()));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception ex) {
        var tooLarge = BodySizeLimit.tooLargeBody(ex);
        if (tooLarge.isPresent()) {
            return domain(BodySizeLimit.tooLarge(tooLarge.get().maxBytes()));
        }
        if (DatabaseUnavailable.causedBy(ex)) {
            DatabaseUnavailable.logged(ex);
            ResponseEntity<ProblemDetail> unavailable = domain(DatabaseUnavailable.problem());
            return ResponseEntity.status(unavailable.getStatusCode())
                    .header(HttpHeaders.RETRY_AFTER, Long.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS))
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(unavailable.getBody());
        }
        log.error("Unexpected failure", ex);
        return respond(problem(
                500,
                "internal_error",
                "Internal error",
                "Something went wrong on our side; the request id names it in the logs"));
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(
            MethodArgumentNotValidException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return asObject(domain(new InvalidInputException(fieldErrors(ex.getBindingResult()))));
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(
            HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<FieldError> errors = ex.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream()
                        .map(error -> new FieldError(
                                String.valueOf(result.getMethodParameter().getParameterName()),
                                String.valueOf(error.getDefaultMessage()))))
                .toList();
        return asObject(domain(new InvalidInputException(errors)));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        // a chunked body declares no length: it passed the limit while the converter read it
        var tooLarge = BodySizeLimit.tooLargeBody(ex);
        if (tooLarge.isPresent()) {
            return asObject(domain(BodySizeLimit.tooLarge(tooLarge.get().maxBytes())));
        }
        return asObject(domain(new InvalidInputException(List.of(unreadable(ex)))));
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception ex, @Nullable Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        // Spring's own MVC failures (405, 406, 415, missing parameter or header, 404 route): keep the status,
        // give them our problem shape.
        String code = code(statusCode.value());
        HttpStatus status = HttpStatus.resolve(statusCode.value());
        String detail = (body instanceof ProblemDetail pd && pd.getDetail() != null) ? pd.getDetail() : ex.getMessage();
        ProblemDetail problem =
                problem(statusCode.value(), code, status != null ? status.getReasonPhrase() : "Error", detail);
        return ResponseEntity.status(statusCode)
                .headers(headers)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    /** The problem code of a status that no exception of ours named. */
    static String code(int status) {
        return switch (status) {
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 413 -> "payload_too_large";
            case 415 -> "unsupported_media_type";
            case 400 -> "invalid_request";
            case 501 -> "not_implemented";
            default -> "http_" + status;
        };
    }

    static ProblemDetail problem(int status, String code, String title, @Nullable String detail) {
        ProblemDetail problem = ProblemDetail.forStatus(status);
        problem.setType(URI.create(AllotException.TYPE_BASE + code));
        problem.setTitle(title);
        problem.setDetail(detail);
        problem.setProperty("code", code);
        String requestId = RequestIds.current();
        if (requestId != null) {
            problem.setProperty("requestId", requestId);
        }
        return problem;
    }

    @SuppressWarnings("unchecked")
    private static ResponseEntity<Object> asObject(ResponseEntity<?> response) {
        return (ResponseEntity<Object>) response;
    }

    private static List<FieldError> fieldErrors(BindingResult result) {
        List<FieldError> errors = new ArrayList<>();
        result.getFieldErrors()
                .forEach(e -> errors.add(new FieldError(
                        e.getField().replace(".<list element>", ""), String.valueOf(e.getDefaultMessage()))));
        result.getGlobalErrors()
                .forEach(e -> errors.add(new FieldError(e.getObjectName(), String.valueOf(e.getDefaultMessage()))));
        return errors;
    }

    private static FieldError unreadable(HttpMessageNotReadableException ex) {
        Throwable cause = ex.getMostSpecificCause();
        if (cause instanceof DatabindException databind) {
            String field = databind.getPath().stream()
                    .map(ref -> ref.getPropertyName() != null ? ref.getPropertyName() : "[" + ref.getIndex() + "]")
                    .reduce((a, b) -> b.startsWith("[") ? a + b : a + "." + b)
                    .orElse("body");
            if (cause instanceof StrictJson.RefusedValueException refused) {
                return new FieldError(field, refused.reason());
            }
            if (cause instanceof UnrecognizedPropertyException) {
                return new FieldError(field, "is not a known field");
            }
            if (cause instanceof InvalidFormatException invalid) {
                return new FieldError(field, "has an invalid value: " + invalid.getValue() + allowed(invalid));
            }
            if (cause instanceof MismatchedInputException) {
                return new FieldError(field, "has the wrong type");
            }
            return new FieldError(field, "cannot be read");
        }
        if (cause instanceof StreamReadException read && read.getOriginalMessage() != null) {
            Matcher duplicate = DUPLICATE_KEY.matcher(read.getOriginalMessage());
            if (duplicate.find()) {
                return new FieldError(duplicate.group(1), "is given more than once");
            }
        }
        if (cause instanceof DateTimeParseException parse) {
            return new FieldError("body", "invalid instant: " + parse.getParsedString());
        }
        return new FieldError("body", "is missing or is not valid JSON");
    }

    private static String allowed(InvalidFormatException ex) {
        Class<?> target = ex.getTargetType();
        if (target != null && target.isEnum()) {
            return " (allowed: "
                    + String.join(
                            ", ",
                            Arrays.stream(target.getEnumConstants())
                                    .map(Object::toString)
                                    .toList()) + ")";
        }
        return "";
    }
}
