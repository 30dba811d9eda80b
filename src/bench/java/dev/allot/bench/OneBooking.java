package dev.allot.bench;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * The statements of one successful booking through the API, on a warm application with free nodes: the
 * {@code pg_stat_statements} of the benchmark's database are reset, one booking is made, and after {@link #SETTLE}
 * (for what it sets off after its commit) every statement run meanwhile is listed with its calls. Background work
 * that runs on a timer whatever happens (the scheduler's polls, the API call counts' sync) falls into the same
 * seconds and is listed too, marked as such where it is recognised.
 */
final class OneBooking {

    /** Long enough for the after-commit work a booking sets off. */
    private static final long SETTLE = 3000;

    private OneBooking() {}

    /** Prints the list; answers the statements counted, or -1 without pg_stat_statements. */
    static long print(
            Settings settings, String base, List<Fleet.Tenant> tenants, List<String> tokens, Requests requests)
            throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        SplittableRandom random = new SplittableRandom(4_242);
        try (Connection c = Fleet.connect(settings);
                Statement st = c.createStatement()) {
            for (int tries = 0; tries < 50; tries++) {
                Requests.Request request = requests.next(random);
                try {
                    st.execute("SELECT pg_stat_statements_reset()");
                } catch (SQLException missing) {
                    System.out.println("Statements of one booking: not counted (pg_stat_statements is not loaded)");
                    return -1;
                }
                HttpResponse<String> answer = http.send(
                        Http.booking(
                                base,
                                tenants.get(request.tenant()).slug(),
                                tokens.get(request.tenant()),
                                UUID.randomUUID().toString(),
                                request.json()),
                        HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() != 201) {
                    continue;
                }
                Thread.sleep(SETTLE);
                List<String> lines = new ArrayList<>();
                long total = 0;
                long background = 0;
                try (ResultSet rs = st.executeQuery("""
						SELECT calls, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements
						WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
						  AND query NOT LIKE '%pg_stat_statements%'
						ORDER BY calls DESC, query""")) {
                    while (rs.next()) {
                        long calls = rs.getLong(1);
                        String query = rs.getString(2).strip();
                        boolean timer = query.contains("scheduled_tasks") || query.contains("api_call_count");
                        total += calls;
                        background += timer ? calls : 0;
                        lines.add("%4d  %s%s"
                                .formatted(
                                        calls,
                                        timer ? "[background] " : "",
                                        query.length() > 150 ? query.substring(0, 150) + "…" : query));
                    }
                }
                System.out.printf(
                        "%nStatements of one booking through the API (%d ms settled after its answer): %d, "
                                + "of which %d background work on a timer%n",
                        SETTLE, total, background);
                lines.forEach(line -> System.out.println("  " + line));
                return total - background;
            }
        }
        System.out.println("Statements of one booking: no booking succeeded in 50 tries");
        return -1;
    }
}
