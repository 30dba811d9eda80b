package dev.allot.shared.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The outbound client against a raw receiver on the loopback interface: it connects to the address the policy
 * checked, follows no redirect, keeps to its deadline and its head limit, and tells only a generic reason.
 */
class OutboundHttpTests {

    /** Every request's head and body as the receiver read it. */
    private final List<String> received = new CopyOnWriteArrayList<>();

    private ServerSocket server;

    private Thread acceptor;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
            acceptor.join(5000);
        }
    }

    /** Starts a receiver on 127.0.0.1 that answers each request with what {@code answer} writes. */
    private int receiver(Function<String, byte[]> answer) throws IOException {
        return receiver(answer, true);
    }

    /** A receiver that writes its answer as soon as it accepts, without reading the request when told not to. */
    private int receiver(Function<String, byte[]> answer, boolean readsRequest) throws IOException {
        server = new ServerSocket();
        server.bind(new InetSocketAddress("127.0.0.1", 0));
        acceptor = Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    String request = readsRequest ? readRequest(socket.getInputStream()) : "";
                    received.add(request);
                    OutputStream out = socket.getOutputStream();
                    out.write(answer.apply(request));
                    out.flush();
                } catch (IOException ex) {
                    // closed by the test, or by the client giving up
                }
            }
        });
        return server.getLocalPort();
    }

    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int length = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            bytes.write(b);
            String text = bytes.toString(StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end >= 0 && length < 0) {
                length = text.lines()
                        .filter(l -> l.toLowerCase().startsWith("content-length:"))
                        .map(l -> Integer.parseInt(l.substring(15).trim()))
                        .findFirst()
                        .orElse(0);
            }
            if (end >= 0 && bytes.size() >= end + 4 + length) {
                break;
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static byte[] answer(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** "hooks.test" exists only in this resolver, allow-listed, and leads to 127.0.0.1. */
    private static OutboundHttp client(boolean allowHooksTest) {
        OutboundUrls urls = new OutboundUrls(
                new OutboundProperties(allowHooksTest ? List.of("hooks.test") : List.of(), true), host -> {
                    if (host.equals("hooks.test")) {
                        return new InetAddress[] {InetAddress.getByName("127.0.0.1")};
                    }
                    throw new UnknownHostException(host);
                });
        return new OutboundHttp(urls);
    }

    private static OutboundResponse post(OutboundHttp client, String url, Duration timeout) {
        return client.post(
                url, Map.of("X-Allot-Delivery", "d-1"), "{\"a\":1}".getBytes(StandardCharsets.UTF_8), timeout, "test");
    }

    @Test
    void theRequestGoesToTheCheckedAddressWithTheHostOfTheUrl() throws Exception {
        int port = receiver(request -> answer("HTTP/1.1 204 No Content\r\n\r\n"));

        OutboundResponse response =
                post(client(true), "http://hooks.test:" + port + "/hook?x=1", Duration.ofSeconds(5));

        assertThat(response.successful()).isTrue();
        assertThat(response.error()).isNull();
        assertThat(received)
                .singleElement()
                .satisfies(request -> assertThat(request)
                        .startsWith("POST /hook?x=1 HTTP/1.1\r\n")
                        .contains("\r\nHost: hooks.test:" + port + "\r\n")
                        .contains("\r\nX-Allot-Delivery: d-1\r\n")
                        .endsWith("\r\n\r\n{\"a\":1}"));
    }

    @Test
    void redirectsAreNotFollowed() throws Exception {
        int port = receiver(request -> request.startsWith("POST /hook ")
                ? answer("HTTP/1.1 302 Found\r\nLocation: http://hooks.test:" + server.getLocalPort()
                        + "/elsewhere\r\nContent-Length: 0\r\n\r\n")
                : answer("HTTP/1.1 204 No Content\r\n\r\n"));

        OutboundResponse response = post(client(true), "http://hooks.test:" + port + "/hook", Duration.ofSeconds(5));

        assertThat(response.error()).isEqualTo("HTTP 302");
        Thread.sleep(200);
        assertThat(received).hasSize(1);
    }

    @Test
    void aReceiverThatNeverAnswersTimesOutWithinTheDeadline() throws Exception {
        int port = receiver(request -> {
            try {
                Thread.sleep(20_000);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return answer("HTTP/1.1 204 No Content\r\n\r\n");
        });

        long start = System.nanoTime();
        OutboundResponse response = post(client(true), "http://hooks.test:" + port + "/hook", Duration.ofMillis(500));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(response.error()).isEqualTo("timed out");
    }

    @Test
    void anEndlessAnswerHeadIsCutAtItsLimit() throws Exception {
        int port = receiver(request -> answer("HTTP/1.1 200 OK\r\nX-Filler: " + "y".repeat(1024 * 1024) + "\r\n\r\n"));

        OutboundResponse response = post(client(true), "http://hooks.test:" + port + "/hook", Duration.ofSeconds(5));

        assertThat(response.error()).isEqualTo("connection failed");
    }

    @Test
    void failuresTellTheTenantOnlyAGenericReason() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = closed.getLocalPort();
        }
        assertThat(post(client(true), "http://hooks.test:" + port + "/hook", Duration.ofSeconds(5))
                        .error())
                .isEqualTo("connection failed");

        assertThat(post(client(true), "https://nowhere.test/hook", Duration.ofSeconds(5))
                        .error())
                .as("a host that does not resolve at delivery")
                .isEqualTo("connection failed");

        int tls = receiver(request -> answer("not TLS at all\r\n\r\n"), false);
        assertThat(post(client(true), "https://hooks.test:" + tls + "/hook", Duration.ofSeconds(5))
                        .error())
                .isEqualTo("connection failed");

        server.close();
        acceptor.join(5000);
        int failing = receiver(request -> answer("HTTP/1.1 500 Oops\r\nContent-Length: 5\r\n\r\noops!"));
        assertThat(post(client(true), "http://hooks.test:" + failing + "/hook", Duration.ofSeconds(5))
                        .error())
                .isEqualTo("HTTP 500");
    }

    @Test
    void anAddressNoLongerAllowedIsRefusedWithoutConnecting() throws Exception {
        int port = receiver(request -> answer("HTTP/1.1 204 No Content\r\n\r\n"));

        OutboundResponse response = post(client(false), "http://hooks.test:" + port + "/hook", Duration.ofSeconds(5));

        assertThat(response.error()).isEqualTo("refused: address not allowed");
        assertThat(post(client(true), "https://127.0.0.1:" + port + "/", Duration.ofSeconds(5))
                        .error())
                .isEqualTo("refused: address not allowed");
        Thread.sleep(200);
        assertThat(received).isEmpty();
    }
}
