package dev.allot.cli;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.InetAddress;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An {@link HttpClient} that sends a request again as {@link Retries} says. The generated client takes an
 * {@link HttpClient.Builder}, so {@link #builder} wraps the default one; every API call of the CLI goes through
 * it. Only the blocking {@code send} retries (the generated client uses nothing else).
 */
final class RetryingHttpClient extends HttpClient {

    private final HttpClient delegate;

    private final Retries retries;

    private RetryingHttpClient(HttpClient delegate, Retries retries) {
        this.delegate = delegate;
        this.retries = retries;
    }

    static HttpClient.Builder builder(HttpClient.Builder delegate, Retries retries) {
        return new Builder(delegate, retries);
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            HttpResponse<T> response;
            try {
                response = this.delegate.send(request, handler);
            } catch (IOException ex) {
                Optional<Duration> pause = this.retries.afterFailure(attempt);
                if (pause.isEmpty()) {
                    throw ex;
                }
                this.retries.announce(
                        request.method() + " " + request.uri().getPath() + ": " + ex, attempt, pause.get());
                Thread.sleep(pause.get());
                continue;
            }
            Optional<Duration> pause = this.retries.after(attempt, response);
            if (pause.isEmpty()) {
                return response;
            }
            Retries.discard(response);
            this.retries.announce(
                    request.method() + " " + request.uri().getPath() + " answered " + response.statusCode(),
                    attempt,
                    pause.get());
            Thread.sleep(pause.get());
        }
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return this.delegate.sendAsync(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
            HttpRequest request,
            HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        return this.delegate.sendAsync(request, handler, pushPromiseHandler);
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return this.delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return this.delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return this.delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return this.delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return this.delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return this.delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return this.delegate.authenticator();
    }

    @Override
    public Version version() {
        return this.delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return this.delegate.executor();
    }

    @Override
    public void close() {
        this.delegate.close();
    }

    private record Builder(HttpClient.Builder delegate, Retries retries) implements HttpClient.Builder {

        @Override
        public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
            this.delegate.cookieHandler(cookieHandler);
            return this;
        }

        @Override
        public HttpClient.Builder connectTimeout(Duration duration) {
            this.delegate.connectTimeout(duration);
            return this;
        }

        @Override
        public HttpClient.Builder sslContext(SSLContext sslContext) {
            this.delegate.sslContext(sslContext);
            return this;
        }

        @Override
        public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
            this.delegate.sslParameters(sslParameters);
            return this;
        }

        @Override
        public HttpClient.Builder executor(Executor executor) {
            this.delegate.executor(executor);
            return this;
        }

        @Override
        public HttpClient.Builder followRedirects(Redirect policy) {
            this.delegate.followRedirects(policy);
            return this;
        }

        @Override
        public HttpClient.Builder version(Version version) {
            this.delegate.version(version);
            return this;
        }

        @Override
        public HttpClient.Builder priority(int priority) {
            this.delegate.priority(priority);
            return this;
        }

        @Override
        public HttpClient.Builder proxy(ProxySelector proxySelector) {
            this.delegate.proxy(proxySelector);
            return this;
        }

        @Override
        public HttpClient.Builder authenticator(Authenticator authenticator) {
            this.delegate.authenticator(authenticator);
            return this;
        }

        @Override
        public HttpClient.Builder localAddress(InetAddress localAddr) {
            this.delegate.localAddress(localAddr);
            return this;
        }

        @Override
        public HttpClient build() {
            return new RetryingHttpClient(this.delegate.build(), this.retries);
        }
    }
}
