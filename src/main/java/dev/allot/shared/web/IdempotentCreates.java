package dev.allot.shared.web;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ContentCachingResponseWrapper;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * {@code Idempotency-Key} on every API POST that creates. The first request with a key (per caller) claims it; its
 * {@code 201} answer is kept for {@link IdempotentRequests#RETENTION} and a retry with the same key and the same body
 * gets that answer again, marked {@code Idempotent-Replayed: true}, without running twice. The same key with another
 * body is refused (422 {@code idempotency_key_reused}); a retry racing its still-running twin gets 409
 * {@code idempotency_key_in_use} and may retry a moment later. A request that created nothing (4xx, 5xx) keeps
 * nothing, so it may be corrected and sent again with its key.
 * <p>
 * Endpoints that take the header themselves (a {@code @RequestHeader("Idempotency-Key")} parameter: booking, health
 * checks) keep the key with what they create, in the same transaction, and are left to it.
 */
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 100)
class IdempotentCreates extends OncePerRequestFilter {

	static final String HEADER = "Idempotency-Key";

	private final IdempotentRequests requests;

	private final RequestMappingHandlerMapping handlers;

	private final HandlerExceptionResolver problems;

	private final BodySizeLimit bodySizeLimit;

	IdempotentCreates(IdempotentRequests requests,
			@Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping handlers,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems, BodySizeLimit bodySizeLimit) {
		this.requests = requests;
		this.handlers = handlers;
		this.problems = problems;
		this.bodySizeLimit = bodySizeLimit;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !"POST".equals(request.getMethod()) || request.getHeader(HEADER) == null
				|| !request.getRequestURI().startsWith("/api/");
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Authentication caller = SecurityContextHolder.getContext().getAuthentication();
		HandlerMethod handler = caller == null || !caller.isAuthenticated() ? null : handlerOf(request);
		if (handler == null || takesTheKeyItself(handler)) {
			chain.doFilter(request, response);
			return;
		}
		String key = request.getHeader(HEADER);
		if (key.isBlank() || key.length() > 200) {
			refuse(request, response, handler, InvalidInputException.of(HEADER, "must be 1-200 characters"));
			return;
		}
		// a chunked body declares no length, so the limit is checked again as it is read
		long maxBytes = bodySizeLimit.maxBytes();
		byte[] body = request.getInputStream().readNBytes((int) Math.min(maxBytes + 1, Integer.MAX_VALUE));
		if (body.length > maxBytes) {
			refuse(request, response, handler, bodySizeLimit.tooLarge());
			return;
		}
		String hash = fingerprint(request, body);
		Optional<IdempotentRequests.Held> held = requests.claim(caller.getName(), key, hash);
		if (held.isPresent()) {
			answerFrom(held.get(), key, hash, request, response, handler);
			return;
		}
		ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
		boolean created = false;
		try {
			chain.doFilter(new BufferedRequest(request, body), answer);
			created = answer.getStatus() == HttpServletResponse.SC_CREATED;
			if (created) {
				// an answer not to be stored anywhere (it carries a secret shown once) is remembered without its body
				String cacheControl = answer.getHeader("Cache-Control");
				boolean secret = cacheControl != null && cacheControl.contains("no-store");
				requests.complete(caller.getName(), key, new IdempotentRequests.Answer(answer.getStatus(),
						answer.getContentType(), answer.getHeader("Location"), answer.getHeader("ETag"),
						secret ? null : answer.getContentAsByteArray()));
			}
		}
		finally {
			if (!created) {
				requests.release(caller.getName(), key);
			}
			answer.copyBodyToResponse();
		}
	}

	private void answerFrom(IdempotentRequests.Held held, String key, String hash, HttpServletRequest request,
			HttpServletResponse response, HandlerMethod handler) throws IOException {
		if (!held.requestHash().equals(hash)) {
			refuse(request, response, handler, AllotException
				.unprocessable("idempotency_key_reused", "Idempotency-Key " + key + " was used for a different request")
				.with("field", HEADER));
			return;
		}
		if (!(held instanceof IdempotentRequests.Done done)) {
			refuse(request, response, handler, AllotException.conflict("idempotency_key_in_use",
					"A request with Idempotency-Key " + key + " is still running; retry in a moment"));
			return;
		}
		IdempotentRequests.Answer answer = done.answer();
		if (answer.body() == null) {
			refuse(request, response, handler, AllotException
				.conflict("idempotency_key_used", "The request with Idempotency-Key " + key + " created "
						+ answer.location() + "; its answer held a secret that is shown only once: revoke what it "
						+ "created and create another")
				.with("location", String.valueOf(answer.location())));
			return;
		}
		response.setStatus(answer.status());
		if (answer.contentType() != null) {
			response.setContentType(answer.contentType());
		}
		if (answer.location() != null) {
			response.setHeader("Location", answer.location());
		}
		if (answer.etag() != null) {
			response.setHeader("ETag", answer.etag());
		}
		response.setHeader("Idempotent-Replayed", "true");
		response.setContentLength(answer.body().length);
		response.getOutputStream().write(answer.body());
	}

	/** Answers a problem as the endpoint would have (its advice, its metrics). */
	private void refuse(HttpServletRequest request, HttpServletResponse response, HandlerMethod handler,
			RuntimeException problem) {
		problems.resolveException(request, response, handler, problem);
	}

	/** The endpoint that will answer; null when none will (404, 405), which the dispatcher answers as usual. */
	private @Nullable HandlerMethod handlerOf(HttpServletRequest request) {
		boolean parsed = ServletRequestPathUtils.hasParsedRequestPath(request);
		if (!parsed) {
			ServletRequestPathUtils.parseAndCache(request);
		}
		try {
			HandlerExecutionChain chain = handlers.getHandler(request);
			return chain != null && chain.getHandler() instanceof HandlerMethod method ? method : null;
		}
		catch (Exception ex) {
			return null;
		}
		finally {
			if (!parsed) {
				ServletRequestPathUtils.clearParsedRequestPath(request);
			}
		}
	}

	private static boolean takesTheKeyItself(HandlerMethod handler) {
		return Arrays.stream(handler.getMethodParameters()).anyMatch(parameter -> {
			RequestHeader header = parameter.getParameterAnnotation(RequestHeader.class);
			return header != null && HEADER.equalsIgnoreCase(header.name().isEmpty() ? header.value() : header.name());
		});
	}

	private static String fingerprint(HttpServletRequest request, byte[] body) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			digest.update(request.getRequestURI().getBytes(StandardCharsets.UTF_8));
			digest.update((byte) 0);
			digest.update(body);
			return HexFormat.of().formatHex(digest.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The request with its body read once into memory, to be fingerprinted and then read again by the endpoint. */
	private static final class BufferedRequest extends HttpServletRequestWrapper {

		private final byte[] body;

		BufferedRequest(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = body;
		}

		@Override
		public ServletInputStream getInputStream() {
			ByteArrayInputStream bytes = new ByteArrayInputStream(body);
			return new ServletInputStream() {
				@Override
				public int read() {
					return bytes.read();
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					return bytes.read(buffer, offset, length);
				}

				@Override
				public boolean isFinished() {
					return bytes.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(@Nullable ReadListener listener) {
					throw new UnsupportedOperationException();
				}
			};
		}

		@Override
		public BufferedReader getReader() {
			return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
		}

	}

}
