package dev.allot.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.allot.client.ApiException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns a failed command into one line on stderr (the problem's detail, as the server worded it, and for a
 * refused booking its earliest start and alternatives) and an exit code from {@link ExitCodes}, instead of a stack
 * trace. With {@code -o json} stdout gets the problem JSON as well: the server's, or one the CLI words the same way.
 */
class Failures implements IExecutionExceptionHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        boolean json = json(parseResult);
        if (ex instanceof ApiException api && api.getCode() != 0) {
            JsonNode problem = parse(api.getResponseBody());
            int exit = problem(api, problem, err);
            if (json) {
                print(
                        commandLine,
                        problem != null ? problem : cliProblem("HTTP " + api.getCode(), api.getCode(), exit));
            }
            return exit;
        }
        int exit;
        String reason;
        if (ex instanceof CliFailure failure) {
            exit = failure.exitCode();
            reason = failure.getMessage();
        } else if (ex instanceof CommandLine.ParameterException) {
            exit = ExitCodes.BAD_INPUT;
            reason = ex.getMessage();
        } else {
            exit = ExitCodes.FAILED;
            reason = networkReason(ex);
        }
        err.println("allot: " + reason);
        err.flush();
        if (json) {
            print(commandLine, cliProblem(reason, null, exit));
        }
        return exit;
    }

    static String networkReason(Exception ex) {
        Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
        return (cause instanceof ConnectException)
                ? "cannot reach the server"
                : (cause instanceof HttpTimeoutException) ? "the server did not answer in time" : String.valueOf(cause);
    }

    /** Writes the problem's line (and a refusal's way out) to stderr; returns the exit code. */
    static int problem(ApiException ex, JsonNode problem, PrintWriter err) {
        String code = "";
        String line = "HTTP " + ex.getCode();
        if (problem != null) {
            code = problem.path("code").asText("");
            String title = problem.path("title").asText("");
            String detail = problem.path("detail").asText("");
            line = ex.getCode() + " " + (code.isEmpty() ? title : code) + (detail.isEmpty() ? "" : ": " + detail);
        }
        err.println("allot: " + line);
        String wayOut = wayOut(problem);
        if (wayOut != null) {
            err.println("allot: " + wayOut);
        }
        err.flush();
        return exitCode(ex.getCode(), code);
    }

    /** A refused booking's earliest start and alternatives, as one line; {@code null} when it names none. */
    static String wayOut(JsonNode problem) {
        if (problem == null) {
            return null;
        }
        StringBuilder line = new StringBuilder();
        if (problem.hasNonNull("earliestStart")) {
            line.append("earliest start ").append(problem.get("earliestStart").asText());
        }
        JsonNode alternatives = problem.path("alternatives");
        if (alternatives.isArray() && !alternatives.isEmpty()) {
            line.append(line.isEmpty() ? "" : "; ").append("alternatives:");
            for (JsonNode window : alternatives) {
                line.append(' ')
                        .append(window.path("startsAt").asText())
                        .append(" .. ")
                        .append(window.path("endsAt").asText());
            }
        }
        return line.isEmpty() ? null : line.toString();
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

    /** A failure the server did not word (bad options, no network), shaped like its problems. */
    static ObjectNode cliProblem(String detail, Integer status, int exitCode) {
        ObjectNode problem = JSON.createObjectNode();
        problem.put("title", "allot CLI failure");
        if (status != null) {
            problem.put("status", status);
        }
        problem.put("detail", detail);
        problem.put("exitCode", exitCode);
        return problem;
    }

    /** Whether the command that ran was given {@code -o json}. */
    static boolean json(ParseResult parseResult) {
        ParseResult last = parseResult;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        return last.hasMatchedOption("--output")
                && last.matchedOptionValue("--output", Session.Format.text) == Session.Format.json;
    }

    private static void print(CommandLine commandLine, JsonNode problem) {
        try {
            commandLine.getOut().println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(problem));
            commandLine.getOut().flush();
        } catch (Exception ex) {
            commandLine.getErr().println("allot: cannot print the problem: " + ex.getMessage());
        }
    }

    static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(body);
            return node.isObject() ? node : null;
        } catch (Exception ex) {
            return null;
        }
    }
}
