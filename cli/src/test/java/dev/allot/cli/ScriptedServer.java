package dev.allot.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A stand-in HTTP server for the network-failure tests only: it answers each request with the next scripted
 * reply (a status with headers and body, or a dropped connection) and records what it was sent. Everything else
 * in the CLI's tests runs against the real application.
 */
final class ScriptedServer implements AutoCloseable {

    record Request(String method, String path, Map<String, String> headers, String body) {}

    /** {@code status} 0: close the connection without answering. */
    record Reply(int status, Map<String, String> headers, String body) {

        static Reply drop() {
            return new Reply(0, Map.of(), "");
        }

        static Reply json(int status, String body, String... headers) {
            Map<String, String> all = new LinkedHashMap<>();
            all.put("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
            for (int i = 0; i < headers.length; i += 2) {
                all.put(headers[i], headers[i + 1]);
            }
            return new Reply(status, all, body);
        }
    }

    private final ServerSocket socket;

    private final Deque<Reply> script = new ArrayDeque<>();

    private final List<Request> requests = new ArrayList<>();

    private final Thread thread;

    ScriptedServer(List<Reply> replies) throws IOException {
        this.socket = new ServerSocket(0);
        this.script.addAll(replies);
        this.thread = Thread.ofVirtual().start(this::serve);
    }

    String url() {
        return "http://127.0.0.1:" + this.socket.getLocalPort();
    }

    /** The CLI in-process, its credentials in {@code home}, signed in here with a token that is still valid. */
    CliRun allot(Path home, String... args) throws Exception {
        Path config = home.resolve("credentials");
        Files.writeString(
                config,
                "url=" + url().replace(":", "\\:") + "\nclientId=ci\nclientSecret=s\ntenant=t\n"
                        + "accessToken=token\naccessTokenExpiresAt="
                        + Instant.now().plus(Duration.ofHours(1)) + "\n");
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--config");
        all.add(config.toString());
        return CliRun.of(all);
    }

    synchronized List<Request> requests() {
        return List.copyOf(this.requests);
    }

    private void serve() {
        while (!this.socket.isClosed()) {
            try {
                Socket connection = this.socket.accept();
                Thread.ofVirtual().start(() -> answer(connection));
            } catch (IOException closed) {
                // the end
            }
        }
    }

    private void answer(Socket connection) {
        try (connection) {
            while (true) {
                Request request = read(connection.getInputStream());
                if (request == null) {
                    return;
                }
                Reply reply;
                synchronized (this) {
                    this.requests.add(request);
                    reply = this.script.isEmpty()
                            ? Reply.json(500, "{\"title\":\"script ended\"}")
                            : this.script.pollFirst();
                }
                if (reply.status() == 0) {
                    return;
                }
                write(connection.getOutputStream(), reply);
            }
        } catch (IOException closed) {
            // the client went away
        }
    }

    private static Request read(InputStream in) throws IOException {
        String line = line(in);
        if (line == null || line.isEmpty()) {
            return null;
        }
        String[] start = line.split(" ");
        Map<String, String> headers = new LinkedHashMap<>();
        for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            headers.put(
                    header.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    header.substring(colon + 1).strip());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        return new Request(start[0], start[1], headers, body);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int b = in.read(); b != -1; b = in.read()) {
            if (b == '\n') {
                return bytes.toString(StandardCharsets.US_ASCII).stripTrailing();
            }
            bytes.write(b);
        }
        return bytes.size() == 0 ? null : bytes.toString(StandardCharsets.US_ASCII);
    }

    private static void write(OutputStream out, Reply reply) throws IOException {
        byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("HTTP/1.1 " + reply.status() + " Scripted\r\n");
        reply.headers()
                .forEach((name, value) ->
                        head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    @Override
    public void close() throws Exception {
        this.socket.close();
        this.thread.join(5000);
    }
}
