package dev.allot.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.allot.cli.ScriptedServer.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without --start the CLI books the earliest window the server offers. The server offers a start at least 30 s
 * ahead (it once offered the next whole minute, and a cold CLI asking in a minute's last fraction was refused 400
 * "startsAt: must be in the future" in CI); a client stalled longer still meets that refusal. It then asks for the
 * earliest window again and books that, once. Against a {@link ScriptedServer}: the application cannot be made to
 * answer on either side of a start on demand.
 */
class AChosenWindowThatHasBegunTests {

    private static final String BEGUN = """
            {"type":"https://allot.dev/problems/invalid-request","title":"Invalid request","status":400,
             "code":"invalid_request","detail":"startsAt: must be in the future",
             "errors":[{"field":"startsAt","message":"must be in the future"}]}""";

    @TempDir
    Path home;

    @Test
    void aWindowTheCliChoseIsChosenAgainOnceWhenItHadBegunOnArrival_scriptedServer() throws Exception {
        try (ScriptedServer server = new ScriptedServer(List.of(
                Reply.json(200, earliest("2030-01-01T10:00:00Z", "2030-01-01T11:00:00Z")),
                Reply.json(400, BEGUN),
                Reply.json(200, earliest("2030-01-01T10:01:00Z", "2030-01-01T11:01:00Z")),
                Reply.json(201, RetriesOverAFailingNetworkTests.RESERVATION)))) {
            CliRun book = book(server, "--duration", "PT1H", "--idempotency-key", "step-7");

            assertEquals(ExitCodes.OK, book.exitCode(), book.err());
            List<ScriptedServer.Request> sent = server.requests();
            assertEquals(4, sent.size(), book.err());
            assertTrue(
                    sent.get(1).body().contains("2030-01-01T10:00:00Z"),
                    sent.get(1).body());
            assertTrue(
                    sent.get(3).body().contains("2030-01-01T10:01:00Z"),
                    sent.get(3).body());
            assertEquals("step-7", sent.get(3).headers().get("idempotency-key"));

            // the window now kept for the key is the one booked: the step run again sends the same body
            try (ScriptedServer again =
                    new ScriptedServer(List.of(Reply.json(201, RetriesOverAFailingNetworkTests.RESERVATION)))) {
                CliRun rerun = book(again, "--duration", "PT1H", "--idempotency-key", "step-7");
                assertEquals(ExitCodes.OK, rerun.exitCode(), rerun.err());
                assertEquals(sent.get(3).body(), again.requests().getFirst().body());
            }
        }
    }

    @Test
    void aWindowTheCallerGaveIsNotMoved_scriptedServer() throws Exception {
        try (ScriptedServer server = new ScriptedServer(List.of(Reply.json(400, BEGUN)))) {
            CliRun book = book(server, "--start", "2030-01-01T10:00:00Z", "--duration", "PT1H");

            assertEquals(ExitCodes.BAD_INPUT, book.exitCode(), book.err());
            assertEquals(1, server.requests().size());
            assertTrue(book.err().contains("startsAt: must be in the future"), book.err());
        }
    }

    @Test
    void aWindowThatHasBegunAgainIsRefusedAndNotChosenAThirdTime_scriptedServer() throws Exception {
        try (ScriptedServer server = new ScriptedServer(List.of(
                Reply.json(200, earliest("2030-01-01T10:00:00Z", "2030-01-01T11:00:00Z")),
                Reply.json(400, BEGUN),
                Reply.json(200, earliest("2030-01-01T10:01:00Z", "2030-01-01T11:01:00Z")),
                Reply.json(400, BEGUN)))) {
            CliRun book = book(server, "--duration", "PT1H");

            assertEquals(ExitCodes.BAD_INPUT, book.exitCode(), book.err());
            assertEquals(4, server.requests().size());
        }
    }

    private CliRun book(ScriptedServer server, String... window) throws Exception {
        List<String> args = new ArrayList<>(
                List.of("book", "--tenant", "t", "--project", "training", "--pool", "p", "--gpus", "8"));
        args.addAll(List.of(window));
        return server.allot(this.home, args.toArray(String[]::new));
    }

    private static String earliest(String startsAt, String endsAt) {
        return "{\"pool\":\"p\",\"gpus\":8,\"windows\":[{\"startsAt\":\"" + startsAt + "\",\"endsAt\":\"" + endsAt
                + "\"}]}";
    }
}
