package dev.allot.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.allot.cli.ScriptedServer.Reply;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpHeaders;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Network-failure handling, against a {@link ScriptedServer} (not the application: a dropped connection, a 503 or
 * a 429 with Retry-After cannot be provoked from it on demand).
 */
class RetriesOverAFailingNetworkTests {

    static final String RESERVATION = """
			{"id":"0b7e2f52-5d2a-4c55-9a39-8e0f3f6b1a11","tenant":"t","status":"CONFIRMED","project":"training",
			 "pool":"p","gpuType":"H100","gpus":8,"startsAt":"2030-01-01T10:00:00Z","endsAt":"2030-01-01T11:00:00Z"}""";

    @TempDir
    Path home;

    @Test
    void aBookingRetriedAfterADroppedConnectionA503AndA429SendsOneKeyAndOneBody_scriptedNetworkFailures()
            throws Exception {
        try (ScriptedServer server = new ScriptedServer(List.of(
                Reply.drop(),
                Reply.json(503, "{\"status\":503,\"title\":\"Service Unavailable\"}", "Retry-After", "0"),
                Reply.json(429, "{\"status\":429,\"title\":\"Too Many Requests\"}", "Retry-After", "1"),
                Reply.json(201, RESERVATION)))) {
            long began = System.nanoTime();
            CliRun book = allot(
                    server,
                    "book",
                    "--tenant",
                    "t",
                    "--project",
                    "training",
                    "--pool",
                    "p",
                    "--gpus",
                    "8",
                    "--start",
                    "2030-01-01T10:00:00Z",
                    "--duration",
                    "PT1H",
                    "--max-retries",
                    "3",
                    "-o",
                    "json");
            Duration took = Duration.ofNanos(System.nanoTime() - began);

            assertEquals(ExitCodes.OK, book.exitCode(), book.err());
            assertEquals(
                    "0b7e2f52-5d2a-4c55-9a39-8e0f3f6b1a11",
                    book.json().path("reservation").path("id").asText());
            List<ScriptedServer.Request> sent = server.requests();
            assertEquals(4, sent.size(), book.err());
            String key = sent.getFirst().headers().get("idempotency-key");
            assertTrue(key != null && key.startsWith("allot-cli-"), "the CLI makes a key when none is given: " + key);
            for (ScriptedServer.Request retry : sent) {
                assertEquals(key, retry.headers().get("idempotency-key"));
                assertEquals(sent.getFirst().body(), retry.body(), "a retry sends the same body");
            }
            assertEquals(key, book.json().path("idempotencyKey").asText(), "the key is printed with the booking");
            assertTrue(took.compareTo(Duration.ofSeconds(1)) >= 0, "Retry-After: 1 is waited for: " + took);
            assertTrue(book.err().contains("answered 429; retry 3 of 3"), book.err());
        }
    }

    @Test
    void afterTheLastRetryTheProblemIsPrintedAsJsonAndTheExitCodeIsFailed_scriptedNetworkFailures() throws Exception {
        String unavailable = "{\"type\":\"https://allot.dev/problems/unavailable\",\"title\":\"Service Unavailable\","
                + "\"status\":503,\"detail\":\"database failing over\",\"code\":\"unavailable\"}";
        try (ScriptedServer server = new ScriptedServer(List.of(
                Reply.json(503, unavailable, "Retry-After", "0"),
                Reply.json(503, unavailable, "Retry-After", "0"),
                Reply.json(503, unavailable, "Retry-After", "0")))) {
            CliRun pools = allot(server, "pools", "--max-retries", "2", "-o", "json");

            assertEquals(ExitCodes.FAILED, pools.exitCode(), pools.err());
            assertEquals(3, server.requests().size());
            assertEquals("database failing over", pools.json().path("detail").asText(), pools.out());
            assertTrue(pools.err().contains("allot: 503 unavailable: database failing over"), pools.err());
        }
    }

    @Test
    void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
        assertEquals(Duration.ofSeconds(7), Retries.retryAfter(headers("7")).orElseThrow());
        String inTenSeconds = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
                Instant.now().plusSeconds(10).atZone(java.time.ZoneOffset.UTC));
        Duration date = Retries.retryAfter(headers(inTenSeconds)).orElseThrow();
        assertTrue(date.compareTo(Duration.ofSeconds(8)) > 0 && date.compareTo(Duration.ofSeconds(11)) < 0, "" + date);
        assertTrue(Retries.retryAfter(headers("soon")).isEmpty());
    }

    @Test
    void theBackOffGrowsWithJitterUpToItsCap() {
        Retries retries =
                new Retries(10, Duration.ofSeconds(1), Duration.ofSeconds(30), new PrintWriter(new StringWriter()));
        for (int attempt = 1; attempt <= 10; attempt++) {
            long step = Math.min(30_000, 1000L << (attempt - 1));
            long pause = retries.backoff(attempt).toMillis();
            assertTrue(pause >= step / 2 && pause <= step, attempt + ": " + pause);
        }
    }

    private static HttpHeaders headers(String retryAfter) {
        return HttpHeaders.of(Map.of("Retry-After", List.of(retryAfter)), (name, value) -> true);
    }

    private CliRun allot(ScriptedServer server, String... args) throws Exception {
        return server.allot(this.home, args);
    }
}
