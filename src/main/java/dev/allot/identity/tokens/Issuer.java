package dev.allot.identity.tokens;

import dev.allot.identity.settings.SecurityProperties;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * The issuer of Allot's own tokens: the public URL without a trailing slash, or, when none is configured
 * (tests on a random port), the loopback address and the port the server listens on.
 */
@Component
public class Issuer implements ApplicationListener<WebServerInitializedEvent> {

    private final SecurityProperties properties;

    private volatile int port = -1;

    Issuer(SecurityProperties properties) {
        this.properties = properties;
    }

    public String get() {
        if (properties.publicUrl() != null) {
            String url = properties.publicUrl().toString();
            return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        }
        if (port < 0) {
            throw new IllegalStateException("The server is not listening yet; set allot.security.public-url");
        }
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        port = event.getWebServer().getPort();
    }
}
