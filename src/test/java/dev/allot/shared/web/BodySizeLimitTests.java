package dev.allot.shared.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.IntegrationTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The body limit counts the bytes actually read: a chunked body (no declared length) is refused with a 413
 * problem as soon as it passes the limit, whatever token sent it and whatever filter reads it first.
 */
class BodySizeLimitTests extends IntegrationTest {

    private static final long MB = 1024 * 1024;

    /** What a raw chunked upload got back, and how much of the body had been sent when the answer came. */
    record Upload(int status, String head, String body, long sentWhenAnswered, Duration took) {}

    private long projects(String tenant) {
        return jdbc.sql("SELECT count(*) FROM project p JOIN tenant t ON t.id = p.tenant_id WHERE t.slug = ?")
                .param(tenant)
                .query(Long.class)
                .single();
    }

    @Test
    void aChunkedBodyOf48MegabytesFromAViewerIsRefusedWith413AsSoonAsItPassesTheLimit() throws Exception {
        String tenant = newTenant();
        String viewer = tenantToken(tenant, "VIEWER");

        Upload upload = chunked("/api/v1/tenants/" + tenant + "/projects", viewer, 48 * MB, "");

        assertThat(upload.status()).as(upload.head() + upload.body()).isEqualTo(413);
        assertThat(upload.head().toLowerCase()).contains("content-type: application/problem+json");
        assertThat(upload.body()).contains("payload_too_large");
        assertThat(upload.sentWhenAnswered())
                .as("answered long before the 48 MB were sent")
                .isLessThan(24 * MB);
        System.out.printf(
                "chunked 48 MB upload: answered 413 after %d KB sent, in %d ms%n",
                upload.sentWhenAnswered() / 1024, upload.took().toMillis());
    }

    @Test
    void aChunkedBodyWithAnIdempotencyKeyIsRefusedToo() throws Exception {
        String tenant = newTenant();
        long before = projects(tenant);

        Upload upload =
                chunked("/api/v1/tenants/" + tenant + "/projects", adminToken(), 8 * MB, "Idempotency-Key: big-1\r\n");

        assertThat(upload.status()).as(upload.head() + upload.body()).isEqualTo(413);
        assertThat(upload.body()).contains("payload_too_large");
        assertThat(projects(tenant)).isEqualTo(before);
    }

    @Test
    void aChunkedBodyUnderTheLimitIsReadAsUsual() throws Exception {
        String tenant = newTenant();
        String slug = unique("p");
        Upload upload = chunkedJson(
                "/api/v1/tenants/" + tenant + "/projects",
                adminToken(),
                "{\"slug\":\"" + slug + "\",\"displayName\":\"" + "x".repeat(100) + "\"}");
        assertThat(upload.status()).as(upload.head() + upload.body()).isEqualTo(201);
        assertThat(projects(tenant)).isEqualTo(1);
    }

    /** Sends {@code {"slug":"x","displayName":"aaaa…"}} of about {@code total} bytes in 64 KB chunks. */
    private Upload chunked(String path, String token, long total, String extraHeaders) throws Exception {
        byte[] filler = new byte[64 * 1024];
        Arrays.fill(filler, (byte) 'a');
        return upload(path, token, extraHeaders, (out, sent) -> {
            chunk(out, "{\"slug\":\"big\",\"displayName\":\"".getBytes(StandardCharsets.US_ASCII), sent);
            while (sent.get() < total) {
                chunk(out, filler, sent);
            }
            chunk(out, "\"}".getBytes(StandardCharsets.US_ASCII), sent);
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        });
    }

    private Upload chunkedJson(String path, String token, String json) throws Exception {
        return upload(path, token, "", (out, sent) -> {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            chunk(out, Arrays.copyOfRange(bytes, 0, bytes.length / 2), sent);
            chunk(out, Arrays.copyOfRange(bytes, bytes.length / 2, bytes.length), sent);
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        });
    }

    private interface Body {

        void write(OutputStream out, AtomicLong sent) throws IOException;
    }

    private static void chunk(OutputStream out, byte[] bytes, AtomicLong sent) throws IOException {
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        sent.addAndGet(bytes.length);
    }

    private Upload upload(String path, String token, String extraHeaders, Body body) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + token
                            + "\r\nContent-Type: application/json\r\nAccept: application/json\r\nTransfer-Encoding: chunked\r\n"
                            + extraHeaders + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            AtomicLong sent = new AtomicLong();
            long start = System.nanoTime();
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    body.write(out, sent);
                    out.flush();
                } catch (IOException closedByTheServer) {
                    // expected once the server answered and closed
                }
            });
            InputStream in = socket.getInputStream();
            int first = in.read();
            long sentWhenAnswered = sent.get();
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            answer.write(first);
            byte[] buffer = new byte[8192];
            int n;
            while (!answer.toString(StandardCharsets.ISO_8859_1).contains("}") && (n = in.read(buffer)) > 0) {
                answer.write(buffer, 0, n);
            }
            socket.close();
            writer.join(10_000);
            String text = answer.toString(StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            String head = split < 0 ? text : text.substring(0, split);
            int status = Integer.parseInt(head.substring(9, 12));
            return new Upload(status, head, split < 0 ? "" : text.substring(split + 4), sentWhenAnswered, took);
        }
    }
}
