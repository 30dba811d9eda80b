package dev.allot.cli;

import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.allot.client.ApiException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns a failed command into one line on stderr (the problem's detail, as the server worded it) and an exit code
 * from {@link ExitCodes}, instead of a stack trace.
 */
class Failures implements IExecutionExceptionHandler {

	private static final ObjectMapper JSON = new ObjectMapper();

	@Override
	public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
		PrintWriter err = commandLine.getErr();
		if (ex instanceof CliFailure failure) {
			err.println("allot: " + failure.getMessage());
			err.flush();
			return failure.exitCode();
		}
		if (ex instanceof ApiException api) {
			return problem(api, err);
		}
		if (ex instanceof CommandLine.ParameterException) {
			err.println("allot: " + ex.getMessage());
			err.flush();
			return ExitCodes.BAD_INPUT;
		}
		Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
		String reason = (cause instanceof ConnectException) ? "cannot reach the server"
				: (cause instanceof HttpTimeoutException) ? "the server did not answer in time" : String.valueOf(cause);
		err.println("allot: " + reason);
		err.flush();
		return ExitCodes.FAILED;
	}

	static int problem(ApiException ex, PrintWriter err) {
		if (ex.getCode() == 0) {
			err.println("allot: " + (ex.getCause() != null ? ex.getCause() : ex.getMessage()));
			err.flush();
			return ExitCodes.FAILED;
		}
		String code = "";
		String line = "HTTP " + ex.getCode();
		JsonNode problem = parse(ex.getResponseBody());
		if (problem != null) {
			code = problem.path("code").asText("");
			String title = problem.path("title").asText("");
			String detail = problem.path("detail").asText("");
			line = ex.getCode() + " " + (code.isEmpty() ? title : code) + (detail.isEmpty() ? "" : ": " + detail);
		}
		err.println("allot: " + line);
		err.flush();
		return exitCode(ex.getCode(), code);
	}

	static int exitCode(int status, String code) {
		return switch (status) {
			case 400, 404 -> ExitCodes.BAD_INPUT;
			case 401, 403 -> ExitCodes.AUTH;
			case 409 -> "capacity_not_available".equals(code) ? ExitCodes.NO_CAPACITY : ExitCodes.FAILED;
			case 422 -> ExitCodes.QUOTA;
			default -> ExitCodes.FAILED;
		};
	}

	private static JsonNode parse(String body) {
		if (body == null || body.isBlank()) {
			return null;
		}
		try {
			JsonNode node = JSON.readTree(body);
			return node.isObject() ? node : null;
		}
		catch (Exception ex) {
			return null;
		}
	}

}
