package dev.allot.shared.web;

import dev.allot.shared.InvalidInputException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * A request Spring Security's firewall refuses (a {@code ..}, {@code ;}, encoded slash or backslash, a NUL in
 * the path) is a 400 problem like any other bad input, with one line in the log instead of a stack trace and an
 * HTML or empty error page.
 */
@Component
class RejectedRequests implements RequestRejectedHandler {

    private static final Logger log = LoggerFactory.getLogger(RejectedRequests.class);

    private static final int MAX_DRAINED = 64 * 1024;

    private final JsonMapper json;

    RejectedRequests(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException {
        log.warn(
                "Refused {} {}: {}",
                request.getMethod(),
                StorableInput.printable(request.getRequestURI()),
                StorableInput.printable(String.valueOf(rejected.getMessage())));
        // read what the client sent (up to 64 KiB): Tomcat closes the connection after a 400, and closing it with
        // unread bytes resets it, which can lose this answer before the client reads it
        drain(request);
        ProblemResponses.write(
                response,
                InvalidInputException.of(
                        "path", "is not allowed (no '..', ';', encoded '/' or '\\', or control characters)"),
                json);
    }

    /** Reads (and drops) up to 64 KiB of a refused request's body, so that closing the connection does not reset it. */
    static void drain(HttpServletRequest request) {
        try {
            request.getInputStream().readNBytes(MAX_DRAINED);
        } catch (IOException | IllegalStateException unreadable) {
            // nothing to read, or the body was read as a reader: nothing is left to drain
        }
    }
}
