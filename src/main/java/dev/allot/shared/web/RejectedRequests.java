package dev.allot.shared.web;

import java.io.IOException;

import dev.allot.shared.InvalidInputException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;

/**
 * A request Spring Security's firewall refuses (a {@code ..}, {@code ;}, encoded slash or backslash, a NUL in
 * the path) is a 400 problem like any other bad input, with one line in the log instead of a stack trace and an
 * HTML or empty error page.
 */
@Component
class RejectedRequests implements RequestRejectedHandler {

	private static final Logger log = LoggerFactory.getLogger(RejectedRequests.class);

	private final JsonMapper json;

	RejectedRequests(JsonMapper json) {
		this.json = json;
	}

	@Override
	public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
			throws IOException {
		log.warn("Refused {} {}: {}", request.getMethod(), StorableInput.printable(request.getRequestURI()),
				StorableInput.printable(String.valueOf(rejected.getMessage())));
		ProblemResponses.write(response,
				InvalidInputException.of("path", "is not allowed (no '..', ';', encoded '/' or '\\', or control characters)"),
				json);
	}

}
