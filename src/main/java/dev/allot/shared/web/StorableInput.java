package dev.allot.shared.web;

import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import dev.allot.shared.LogText;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses an API request whose path segments, query parameters or {@code Idempotency-Key} carry text that
 * cannot be stored ({@link StorableText}) or cannot be decoded, with a 400 problem naming the field: one check
 * here instead of one per endpoint, before security or any controller sees the value. JSON bodies are checked
 * as they are read ({@link StrictJson}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
class StorableInput extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(StorableInput.class);

    private final JsonMapper json;

    StorableInput(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/api/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        FieldError error = firstError(request);
        if (error != null) {
            log.warn(
                    "Refused {} {}: {} {}",
                    request.getMethod(),
                    printable(request.getRequestURI()),
                    error.field(),
                    error.message());
            ProblemResponses.write(response, new InvalidInputException(List.of(error)), json);
            return;
        }
        chain.doFilter(request, response);
    }

    private static @Nullable FieldError firstError(HttpServletRequest request) {
        for (String segment : request.getRequestURI().split("/")) {
            String decoded = decode(segment, false);
            if (decoded == null || !StorableText.storable(decoded)) {
                return new FieldError(
                        "path", decoded == null ? "is not valid percent-encoded UTF-8" : StorableText.REFUSAL);
            }
        }
        String query = request.getQueryString();
        if (query != null) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
                if (name == null || value == null) {
                    return new FieldError(
                            name == null || !StorableText.storable(name) ? "query" : name,
                            "is not valid percent-encoded UTF-8");
                }
                if (!StorableText.storable(name)) {
                    return new FieldError("query", StorableText.REFUSAL);
                }
                if (!StorableText.storable(value)) {
                    return new FieldError(name, StorableText.REFUSAL);
                }
            }
        }
        String key = request.getHeader(IdempotencyKey.HEADER);
        if (key != null && key.chars().anyMatch(Character::isISOControl)) {
            return new FieldError(IdempotencyKey.HEADER, "contains a control character");
        }
        return null;
    }

    /** The decoded text, or null when the escapes or the UTF-8 they spell are malformed. */
    private static @Nullable String decode(String encoded, boolean plusIsSpace) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%') {
                if (i + 2 >= encoded.length()) {
                    return null;
                }
                int high = Character.digit(encoded.charAt(i + 1), 16);
                int low = Character.digit(encoded.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return null;
                }
                bytes.write(high * 16 + low);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                bytes.write(' ');
            } else {
                byte[] raw = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(raw, 0, raw.length);
            }
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException ex) {
            return null;
        }
    }

    /** The URI as a log line may show it: no control characters or line separators from the caller. */
    static String printable(String text) {
        return text.codePoints()
                .limit(300)
                .map(c -> LogText.breaksLine(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
    }
}
