package dev.allot.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;

/**
 * Checks every answer the integration tests get from {@code /api/**} against the committed {@code openapi.yaml}:
 * a status the operation does not document, a field its schema does not name, a missing required field, a null
 * where none is allowed, a wrong type or content type. A test whose exchange breaks the contract fails there
 * ({@code -Dallot.contract.check=report} only writes {@code target/contract-violations.txt} instead). Requests
 * are not checked: tests send malformed ones on purpose.
 */
final class ContractCheck {

	private static final String MODE = System.getProperty("allot.contract.check", "fail");

	private static final AtomicLong CHECKED = new AtomicLong();

	private static final AtomicLong VIOLATIONS = new AtomicLong();

	private static volatile OpenApiInteractionValidator validator;

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			String summary = CHECKED.get() + " API answers checked against openapi.yaml, " + VIOLATIONS.get()
					+ " broke it\n";
			try {
				Files.writeString(Path.of("target", "contract-check.txt"), summary, StandardOpenOption.CREATE,
						StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				// the JVM is going away: the count is lost, nothing else
			}
		}));
	}

	private ContractCheck() {
	}

	static void check(String method, URI uri, int status, Map<String, String> headers, String body) {
		String path = uri.getRawPath();
		if (!path.startsWith("/api/") || "off".equals(MODE)) {
			return;
		}
		SimpleResponse.Builder response = SimpleResponse.Builder.status(status).withBody(body);
		headers.forEach(response::withHeader);
		ValidationReport report = validator().validateResponse(URLDecoder.decode(path, StandardCharsets.UTF_8),
				Request.Method.valueOf(method), response.build());
		CHECKED.incrementAndGet();
		// a request to no documented operation (a test of routing: 404, 405) has no answer to check against
		if (report.getMessages().stream().anyMatch(message -> message.getKey().startsWith("validation.request."))) {
			return;
		}
		if (!report.hasErrors()) {
			return;
		}
		VIOLATIONS.incrementAndGet();
		StringBuilder messages = new StringBuilder();
		report.getMessages()
			.stream()
			.filter(message -> message.getLevel() == ValidationReport.Level.ERROR)
			.forEach(message -> messages.append("\n  ").append(message.getKey()).append(": ").append(message.getMessage()));
		String violation = method + " " + path + " -> " + status + messages;
		if ("report".equals(MODE)) {
			try {
				Files.writeString(Path.of("target", "contract-violations.txt"), violation + "\n",
						StandardOpenOption.CREATE, StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			return;
		}
		throw new AssertionError("The answer breaks openapi.yaml: " + violation + "\n  body: "
				+ (body.length() > 2000 ? body.substring(0, 2000) + "…" : body));
	}

	private static OpenApiInteractionValidator validator() {
		if (validator == null) {
			synchronized (ContractCheck.class) {
				if (validator == null) {
					validator = OpenApiInteractionValidator.createForSpecificationUrl(Path.of("openapi.yaml").toUri().toString())
						.build();
				}
			}
		}
		return validator;
	}

}
