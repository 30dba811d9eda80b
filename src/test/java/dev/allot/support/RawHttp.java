package dev.allot.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * HTTP/1.1 written byte for byte on a socket, for what {@link Api}'s client refuses to send: a raw backslash or
 * space in the path, a control character in a header. The answer is read until the server closes.
 */
public final class RawHttp {

    private RawHttp() {}

    /** Sends {@code method target} with the headers (name, value, ...) and the body, if any. */
    public static Api.Response send(int port, String method, String target, String body, String... headers) {
        StringBuilder request =
                new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        request.append("Host: 127.0.0.1:").append(port).append("\r\nConnection: close\r\n");
        request.append("Accept: application/json, application/problem+json\r\n");
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        if (!body.isEmpty()) {
            boolean typed = false;
            for (int i = 0; i + 1 < headers.length; i += 2) {
                typed |= headers[i].equalsIgnoreCase("Content-Type");
            }
            request.append(typed ? "" : "Content-Type: application/json\r\n");
            request.append("Content-Length: ").append(content.length).append("\r\n");
        }
        request.append("\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            return parse(socket.getInputStream());
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static Api.Response parse(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        String text = all.toString(StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        String head = end < 0 ? text : text.substring(0, end);
        String body = end < 0 ? "" : text.substring(end + 4);
        String[] lines = head.split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.putIfAbsent(
                        lines[i].substring(0, colon).trim().toLowerCase(),
                        lines[i].substring(colon + 1).trim());
            }
        }
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = unchunk(body);
        }
        return new Api.Response(
                status, headers, new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    private static String unchunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(
                    chunked.substring(at, lineEnd).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            body.append(chunked, lineEnd + 2, Math.min(chunked.length(), lineEnd + 2 + size));
            at = lineEnd + 2 + size + 2;
        }
        return body.toString();
    }
}
