package dev.allot.shared.outbound;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Sends a {@code POST} to a URL a user chose (or a {@code GET} to an exporter an admin configured), to exactly the
 * address {@link OutboundUrls} checked.
 *
 * <p>Why plain sockets and not {@code java.net.http.HttpClient}: that client resolves the host itself when it
 * connects, and offers no per-client resolver, so a name checked a moment before may then resolve to an internal
 * address (DNS rebinding). Connecting to the IP and setting the {@code Host} header does not work with it either
 * ({@code Host} is a restricted header, and TLS would then verify the certificate against the IP). So the host is
 * resolved once, each address is checked, and the socket connects to a checked address; TLS is layered over that
 * socket with the host name as SNI and as the name the certificate must carry ({@code HTTPS} endpoint
 * identification), so certificate checks are exactly those of a normal https request. No proxy is used.
 *
 * <p>One request per connection ({@code Connection: close}); redirects are never followed (a 3xx is just an
 * answer); connecting, the TLS handshake, sending and reading the answer all share one deadline; only the status
 * line and headers are read, at most {@value #MAX_HEAD_BYTES} bytes, and a POST's answer body is not read at all.
 */
@Component
public class OutboundHttp {

    static final int MAX_HEAD_BYTES = 16 * 1024;

    private static final Logger log = LoggerFactory.getLogger("allot.security");

    private final OutboundUrls urls;

    private final SSLSocketFactory tls;

    public OutboundHttp(OutboundUrls urls) {
        this.urls = urls;
        this.tls = (SSLSocketFactory) SSLSocketFactory.getDefault();
    }

    /**
     * Posts the body with the headers; never throws for what the receiver or the network does.
     * @param purpose what the request is for, in the log ("webhook delivery 4f1c...")
     */
    public OutboundResponse post(
            String url, Map<String, String> headers, byte[] body, Duration timeout, String purpose) {
        return send("POST", url, headers, body, timeout, -1, purpose).response();
    }

    /** An answer with its body (empty unless the receiver answered 2xx). */
    public record Fetched(OutboundResponse response, byte[] body) {}

    /**
     * Gets the URL's document (an internal endpoint such as an exporter, allowed by the same rules); never throws
     * for what the receiver or the network does. The body is read until the connection closes (the request is
     * HTTP/1.0, so it is never chunked), within the same deadline, and refused as {@link OutboundResponse#TOO_LARGE}
     * once more than {@code maxBodyBytes} bytes have been read, whatever the answer's Content-Length says.
     */
    public Fetched get(String url, Duration timeout, int maxBodyBytes, String purpose) {
        return send("GET", url, Map.of(), new byte[0], timeout, maxBodyBytes, purpose);
    }

    private Fetched send(
            String method,
            String url,
            Map<String, String> headers,
            byte[] body,
            Duration timeout,
            int maxBodyBytes,
            String purpose) {
        Destination destination;
        try {
            destination = urls.destination(url);
        } catch (OutboundRefusedException ex) {
            log.warn("Outbound request refused ({}): {}: {}", purpose, ex.getMessage(), ex.detail());
            return failed(ex.unresolved() ? OutboundResponse.CONNECTION_FAILED : OutboundResponse.REFUSED);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException failure = new IOException("no address");
        InetAddress tried = null;
        for (InetAddress address : destination.addresses()) {
            tried = address;
            try (Socket socket = new Socket(Proxy.NO_PROXY)) {
                try {
                    socket.connect(new InetSocketAddress(address, destination.port()), remaining(deadline));
                } catch (IOException ex) {
                    failure = ex;
                    continue;
                }
                Socket connected = destination.https() ? secure(socket, destination, deadline) : socket;
                try (connected) {
                    return exchange(connected, method, destination, headers, body, maxBodyBytes, deadline);
                }
            } catch (BodyTooLargeException ex) {
                log.warn("Outbound request failed ({}): {}: {}", purpose, destination.host(), ex.getMessage());
                return failed(OutboundResponse.TOO_LARGE);
            } catch (IOException ex) {
                failure = ex;
                break;
            }
        }
        log.warn(
                "Outbound request failed ({}): {} at {}: {}",
                purpose,
                destination.host(),
                tried == null ? "-" : tried.getHostAddress(),
                failure.toString());
        return failed(
                failure instanceof SocketTimeoutException
                        ? OutboundResponse.TIMED_OUT
                        : OutboundResponse.CONNECTION_FAILED);
    }

    private static Fetched failed(String failure) {
        return new Fetched(OutboundResponse.failed(failure), new byte[0]);
    }

    private SSLSocket secure(Socket socket, Destination destination, long deadline) throws IOException {
        SSLSocket secure = (SSLSocket) tls.createSocket(socket, destination.host(), destination.port(), true);
        SSLParameters parameters = secure.getSSLParameters();
        // The certificate must name the host of the URL, not the address connected to.
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!destination.addressLiteral()) {
            parameters.setServerNames(List.of(new SNIHostName(destination.host())));
        }
        secure.setSSLParameters(parameters);
        secure.setSoTimeout(remaining(deadline));
        secure.startHandshake();
        return secure;
    }

    private static Fetched exchange(
            Socket socket,
            String method,
            Destination destination,
            Map<String, String> headers,
            byte[] body,
            int maxBodyBytes,
            long deadline)
            throws IOException {
        boolean post = method.equals("POST");
        StringBuilder head = new StringBuilder(method)
                .append(' ')
                .append(destination.pathAndQuery())
                .append(post ? " HTTP/1.1\r\n" : " HTTP/1.0\r\n");
        header(head, "Host", destination.hostHeader());
        header(head, "User-Agent", "Allot");
        if (post) {
            header(head, "Content-Length", String.valueOf(body.length));
        }
        header(head, "Connection", "close");
        headers.forEach((name, value) -> header(head, name, value));
        head.append("\r\n");
        socket.setSoTimeout(remaining(deadline));
        OutputStream out = socket.getOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
        Head answer = new Head(socket, new BufferedInputStream(socket.getInputStream()), deadline);
        int status;
        do {
            status = statusOf(answer.line());
            answer.skipHeaders();
        } while (status / 100 == 1);
        OutboundResponse response = OutboundResponse.answered(status);
        return new Fetched(
                response, maxBodyBytes < 0 || !response.successful() ? new byte[0] : answer.rest(maxBodyBytes));
    }

    /** More of an answer's body arrived than the caller allows. */
    private static final class BodyTooLargeException extends IOException {

        BodyTooLargeException(int limit) {
            super("answer body longer than " + limit + " bytes");
        }
    }

    private static int statusOf(String statusLine) throws IOException {
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("^[0-9]{3}$")) {
            throw new IOException("not an HTTP/1.x status line");
        }
        return Integer.parseInt(parts[1]);
    }

    private static void header(StringBuilder head, String name, String value) {
        if (!name.matches("^[A-Za-z0-9-]+$") || value.chars().anyMatch(c -> c == '\r' || c == '\n')) {
            throw new IllegalArgumentException("invalid header " + name);
        }
        head.append(name).append(": ").append(value).append("\r\n");
    }

    /** Milliseconds left before the deadline (at least 1); a timeout when none are. */
    private static int remaining(long deadline) throws SocketTimeoutException {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
            throw new SocketTimeoutException("deadline passed");
        }
        return (int) Math.min(left, Integer.MAX_VALUE);
    }

    /** Reads the answer's head line by line, within the deadline and at most {@link #MAX_HEAD_BYTES} in all. */
    private static final class Head {

        private final Socket socket;

        private final InputStream in;

        private final long deadline;

        private int read;

        Head(Socket socket, InputStream in, long deadline) {
            this.socket = socket;
            this.in = in;
            this.deadline = deadline;
        }

        /** The headers are not needed: a redirect's Location is not followed. */
        void skipHeaders() throws IOException {
            String header;
            do {
                header = line();
            } while (!header.isEmpty());
        }

        /** The body: everything until the connection closes, at most {@code limit} bytes. */
        byte[] rest(int limit) throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            while (true) {
                socket.setSoTimeout(remaining(deadline));
                int n = in.read(buffer);
                if (n < 0) {
                    return body.toByteArray();
                }
                if (body.size() + n > limit) {
                    throw new BodyTooLargeException(limit);
                }
                body.write(buffer, 0, n);
            }
        }

        String line() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            while (true) {
                socket.setSoTimeout(remaining(deadline));
                int b = in.read();
                if (b < 0) {
                    throw new IOException("connection closed before the answer's head ended");
                }
                if (++read > MAX_HEAD_BYTES) {
                    throw new IOException("answer head longer than " + MAX_HEAD_BYTES + " bytes");
                }
                if (b == '\n') {
                    String text = line.toString(StandardCharsets.ISO_8859_1);
                    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
                }
                line.write(b);
            }
        }
    }
}
