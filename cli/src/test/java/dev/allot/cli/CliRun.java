package dev.allot.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** One run of the CLI in-process: its exit code and what it wrote to stdout and stderr. */
record CliRun(int exitCode, String out, String err) {

    static final ObjectMapper JSON = new ObjectMapper();

    static CliRun of(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Allot.commandLine()
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args.toArray(String[]::new));
        return new CliRun(exit, out.toString(), err.toString());
    }

    JsonNode json() throws Exception {
        return JSON.readTree(this.out);
    }
}
