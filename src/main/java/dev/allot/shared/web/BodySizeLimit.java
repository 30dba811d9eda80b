package dev.allot.shared.web;

import java.io.IOException;

import dev.allot.shared.AllotException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

/** Refuses API bodies above {@code allot.api.max-body-size} with a 413 problem before anything reads them. */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class BodySizeLimit extends OncePerRequestFilter {

	private final long maxBytes;

	private final JsonMapper json;

	BodySizeLimit(@Value("${allot.api.max-body-size:256KB}") DataSize maxBodySize, JsonMapper json) {
		this.maxBytes = maxBodySize.toBytes();
		this.json = json;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !request.getRequestURI().startsWith("/api/");
	}

	long maxBytes() {
		return maxBytes;
	}

	/** The refusal of a body above the limit (one that declared its length is refused here, before any read). */
	AllotException tooLarge() {
		return new AllotException(413, "payload_too_large", "Payload too large",
				"The body may have at most " + maxBytes + " bytes");
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > maxBytes) {
			AllotException tooLarge = tooLarge();
			var problem = ApiProblems.problem(tooLarge.status(), tooLarge.code(), tooLarge.title(),
					tooLarge.getMessage());
			response.setStatus(413);
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			json.writeValue(response.getOutputStream(), problem);
			return;
		}
		chain.doFilter(request, response);
	}

}
