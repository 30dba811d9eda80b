package dev.allot.shared.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.web.util.matcher.IpAddressMatcher;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.ForwardedHeaderFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Honours {@code Forwarded} and {@code X-Forwarded-*} (scheme, host, port, client address) only on requests
 * that come straight from a proxy listed in {@code allot.security.trusted-proxies} (addresses or CIDR blocks);
 * from anyone else they are removed before anything reads them. Otherwise any client could choose the host
 * Allot builds redirects and links with, or the source address that rate limits and the audit record.
 * <p>
 * The client is the rightmost address of the chain that is not a trusted proxy, as Tomcat's
 * {@code RemoteIpValve} reads it: a proxy that appends (nginx's {@code $proxy_add_x_forwarded_for}, AWS ALB)
 * keeps whatever the client sent on the left, so the leftmost entry, which Spring's filter takes, was the
 * client's choice (200 attempts recorded 200 forged addresses, none throttled per address).
 * <p>
 * Redirects stay relative (with 303 See Other, as Spring's relative redirects answer), never built from
 * {@code X-Forwarded-Host}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class TrustedProxies extends OncePerRequestFilter {

    private static final Pattern IPV4 =
            Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");

    private static final Pattern IPV6_CHARACTERS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    private final List<IpAddressMatcher> proxies;

    private final ForwardedHeaderFilter apply = new ForwardedHeaderFilter();

    private final ForwardedHeaderFilter remove = new ForwardedHeaderFilter();

    TrustedProxies(@Value("${allot.security.trusted-proxies:}") String[] proxies) {
        this.proxies = Arrays.stream(proxies)
                .map(String::strip)
                .filter(proxy -> !proxy.isEmpty())
                .map(IpAddressMatcher::new)
                .toList();
        this.remove.setRemoveOnly(true);
        // a redirect keeps the relative Location the application wrote: built absolute from X-Forwarded-Host it
        // sent the browser to whatever host the proxy passed on
        this.apply.setRelativeRedirects(true);
    }

    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!trusted(request.getRemoteAddr())) {
            this.remove.doFilter(request, response, chain);
            return;
        }
        String client = client(request);
        this.apply.doFilter(
                request,
                response,
                (forwarded, answer) ->
                        chain.doFilter(new ClientAddress((HttpServletRequest) forwarded, client), answer));
    }

    /**
     * The address the chain of proxies names as the client: walking {@code Forwarded} ({@code for=}) or else
     * {@code X-Forwarded-For} from the right, the first entry that is not a trusted proxy. An entry that is not an
     * address stops the walk at the proxy that wrote it; when every entry is a trusted proxy, the leftmost is it.
     */
    String client(HttpServletRequest request) {
        List<String> chain = forwardedFor(request);
        String client = request.getRemoteAddr();
        for (int i = chain.size() - 1; i >= 0; i--) {
            String hop = address(chain.get(i));
            if (hop == null) {
                return client;
            }
            client = hop;
            if (!trusted(hop)) {
                return hop;
            }
        }
        return client;
    }

    private static List<String> forwardedFor(HttpServletRequest request) {
        List<String> chain = new ArrayList<>();
        Enumeration<String> forwarded = request.getHeaders("Forwarded");
        while (forwarded != null && forwarded.hasMoreElements()) {
            for (String element : forwarded.nextElement().split(",")) {
                String forClient = null;
                for (String pair : element.split(";")) {
                    int equals = pair.indexOf('=');
                    if (equals > 0 && pair.substring(0, equals).strip().equalsIgnoreCase("for")) {
                        forClient = pair.substring(equals + 1).strip();
                    }
                }
                chain.add(forClient == null ? "" : forClient);
            }
        }
        if (!chain.isEmpty()) {
            return chain;
        }
        Enumeration<String> xForwardedFor = request.getHeaders("X-Forwarded-For");
        while (xForwardedFor != null && xForwardedFor.hasMoreElements()) {
            for (String entry : xForwardedFor.nextElement().split(",")) {
                chain.add(entry.strip());
            }
        }
        return chain;
    }

    /** The IP address an entry names ({@code "[2001:db8::1]:443"} and {@code 192.0.2.1:80} too), else null. */
    static @Nullable String address(String entry) {
        String value = entry.strip();
        if (value.length() > 1 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        if (value.startsWith("[")) {
            int end = value.indexOf(']');
            value = end < 0 ? "" : value.substring(1, end);
        } else if (value.indexOf(':') > 0 && value.indexOf(':') == value.lastIndexOf(':')) {
            value = value.substring(0, value.indexOf(':'));
        }
        if (IPV4.matcher(value).matches()) {
            return value;
        }
        // an IPv6 literal: parsing it looks nothing up, as it holds no name
        if (value.indexOf(':') >= 0 && IPV6_CHARACTERS.matcher(value).matches()) {
            try {
                return InetAddress.getByName(value).getHostAddress();
            } catch (UnknownHostException ex) {
                return null;
            }
        }
        return null;
    }

    /** The request as the client made it: its address is the one the proxies name. */
    private static final class ClientAddress extends HttpServletRequestWrapper {

        private final String client;

        ClientAddress(HttpServletRequest request, String client) {
            super(request);
            this.client = client;
        }

        @Override
        public String getRemoteAddr() {
            return this.client;
        }

        @Override
        public String getRemoteHost() {
            return this.client;
        }
    }

    boolean trusted(String address) {
        for (IpAddressMatcher proxy : this.proxies) {
            if (proxy.matches(address)) {
                return true;
            }
        }
        return false;
    }
}
