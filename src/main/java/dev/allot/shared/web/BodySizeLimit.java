package dev.allot.shared.web;

import dev.allot.shared.AllotException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses API bodies above {@code allot.api.max-body-size} with a 413 problem. A body that declares a larger
 * length is refused before anything reads it; any other (chunked, or lying about its length) is counted as it
 * is read, and the read that passes the limit fails with {@link BodyTooLargeException}, so no reader ever holds
 * more than the limit. That failure becomes the 413 here, or in {@link ApiProblems} when a message converter
 * wrapped it.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class BodySizeLimit extends OncePerRequestFilter {

    private final long maxBytes;

    private final JsonMapper json;

    BodySizeLimit(@Value("${allot.api.max-body-size:256KB}") DataSize maxBodySize, JsonMapper json) {
        this.maxBytes = maxBodySize.toBytes();
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith("/api/");
    }

    long maxBytes() {
        return maxBytes;
    }

    /** The refusal of a body above the limit (one that declared its length is refused here, before any read). */
    AllotException tooLarge() {
        return tooLarge(maxBytes);
    }

    static AllotException tooLarge(long maxBytes) {
        return new AllotException(
                413, "payload_too_large", "Payload too large", "The body may have at most " + maxBytes + " bytes");
    }

    /** The body passing the limit that caused a failure, however deep a reader wrapped it. */
    static Optional<BodyTooLargeException> tooLargeBody(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BodyTooLargeException tooLarge) {
                return Optional.of(tooLarge);
            }
        }
        return Optional.empty();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            refuse(response);
            return;
        }
        try {
            chain.doFilter(new CountedRequest(request, maxBytes), response);
        } catch (IOException | ServletException | RuntimeException ex) {
            if (tooLargeBody(ex).isEmpty() || response.isCommitted()) {
                throw ex;
            }
            response.reset();
            refuse(response);
        }
    }

    private void refuse(HttpServletResponse response) throws IOException {
        // the rest of the body is not read: the client should not reuse this connection
        response.setHeader("Connection", "close");
        ProblemResponses.write(response, tooLarge(), json);
    }

    /** Thrown by the read that passes the limit. */
    static final class BodyTooLargeException extends IOException {

        private final long maxBytes;

        BodyTooLargeException(long maxBytes) {
            super("The body passed the limit of " + maxBytes + " bytes");
            this.maxBytes = maxBytes;
        }

        long maxBytes() {
            return maxBytes;
        }
    }

    /** The request whose body stream counts the bytes read through it. */
    private static final class CountedRequest extends HttpServletRequestWrapper {

        private final long maxBytes;

        private @Nullable CountedStream stream;

        CountedRequest(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountedStream(super.getInputStream(), maxBytes);
            }
            return stream;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }
    }

    private static final class CountedStream extends ServletInputStream {

        private final ServletInputStream body;

        private final long maxBytes;

        private long read;

        CountedStream(ServletInputStream body, long maxBytes) {
            this.body = body;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            int b = body.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = body.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws BodyTooLargeException {
            read += n;
            if (read > maxBytes) {
                throw new BodyTooLargeException(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return body.isFinished();
        }

        @Override
        public boolean isReady() {
            return body.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            body.setReadListener(listener);
        }
    }
}
