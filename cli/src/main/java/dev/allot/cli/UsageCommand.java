package dev.allot.cli;

import dev.allot.client.ApiException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The tenant's usage as the server groups it: JSON, or CSV with --csv for spreadsheets. */
@Command(name = "usage", description = "Show the tenant's GPU-hours and cost.")
class UsageCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Option(names = "--from", description = "Start (as the API takes it, e.g. 2026-12-01).")
    String from;

    @Option(names = "--to")
    String to;

    @Option(names = "--group-by", description = "e.g. project, pool, gpuType, day.")
    String groupBy;

    @Option(names = "--csv", description = "Ask for CSV instead of JSON.")
    boolean csv;

    @Override
    public Integer call() throws ApiException {
        StringBuilder query = new StringBuilder();
        append(query, "from", this.from);
        append(query, "to", this.to);
        append(query, "groupBy", this.groupBy);
        String body = this.session.text(
                "/api/v1/tenants/" + Session.encode(this.session.tenant()) + "/usage" + query,
                this.csv ? "text/csv" : "application/json");
        this.session.out().println(body.strip());
        this.session.out().flush();
        return ExitCodes.OK;
    }

    private static void append(StringBuilder query, String name, String value) {
        if (value != null) {
            query.append(query.isEmpty() ? '?' : '&')
                    .append(name)
                    .append('=')
                    .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }
}
