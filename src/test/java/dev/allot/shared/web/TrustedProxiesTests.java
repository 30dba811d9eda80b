package dev.allot.shared.web;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class TrustedProxiesTests {

    private final TrustedProxies filter = new TrustedProxies(new String[] {"10.0.0.0/8", " 2001:db8::1 ", ""});

    @Test
    void aTrustedProxyNamesTheClientItsSchemeAndItsHost() throws Exception {
        HttpServletRequest seen = pass(request("10.1.2.3"));
        assertThat(seen.getRemoteAddr()).isEqualTo("198.51.100.7");
        assertThat(seen.getServerName()).isEqualTo("allot.example");
        assertThat(seen.getScheme()).isEqualTo("https");
        assertThat(pass(request("2001:db8::1")).getServerName()).isEqualTo("allot.example");
    }

    @Test
    void behindAnAppendingProxyTheClientIsTheRightmostAddressThatIsNoTrustedProxy() throws Exception {
        // the client sent "X-Forwarded-For: 6.6.6.6"; the proxies appended what they saw
        assertThat(pass(forwardedFor("6.6.6.6, 198.51.100.7")).getRemoteAddr()).isEqualTo("198.51.100.7");
        assertThat(pass(forwardedFor("6.6.6.6, 198.51.100.7, 10.0.0.9")).getRemoteAddr())
                .isEqualTo("198.51.100.7");
        assertThat(pass(forwardedFor("6.6.6.6", "198.51.100.7:4711")).getRemoteAddr())
                .isEqualTo("198.51.100.7");
        // only proxies in the chain: the first of them
        assertThat(pass(forwardedFor("10.0.0.7, 10.0.0.9")).getRemoteAddr()).isEqualTo("10.0.0.7");
        // what is not an address stops the walk at the proxy that wrote it, and is never looked up
        assertThat(pass(forwardedFor("6.6.6.6, evil.example")).getRemoteAddr()).isEqualTo("10.1.2.3");
        assertThat(pass(forwardedFor("6.6.6.6, unknown, 10.0.0.9")).getRemoteAddr())
                .isEqualTo("10.0.0.9");
    }

    @Test
    void theForwardedHeaderIsWalkedFromTheRightToo() throws Exception {
        MockHttpServletRequest request = request("10.1.2.3");
        request.addHeader("Forwarded", "for=6.6.6.6;proto=https, for=\"[2001:db8::7]:4711\", for=10.0.0.9");
        assertThat(pass(request).getRemoteAddr()).isEqualTo("2001:db8:0:0:0:0:0:7");
    }

    @Test
    void aRedirectBehindATrustedProxyStaysRelative() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(
                request("10.1.2.3"),
                response,
                new MockFilterChain(
                        new HttpServlet() {}, (req, res, chain) -> ((HttpServletResponse) res).sendRedirect("/login")));
        assertThat(response.getHeader("Location")).isEqualTo("/login");
        assertThat(response.getStatus()).isEqualTo(303);
    }

    @Test
    void anyoneElsesForwardedHeadersAreDroppedUnread() throws Exception {
        for (String client : new String[] {"127.0.0.1", "11.0.0.1", "2001:db8::2", "192.168.1.10"}) {
            MockHttpServletRequest request = request(client);
            request.addHeader("Forwarded", "for=198.51.100.8;host=other.example;proto=https");
            HttpServletRequest seen = pass(request);
            assertThat(seen.getRemoteAddr()).isEqualTo(client);
            assertThat(seen.getServerName()).isEqualTo("localhost");
            assertThat(seen.getScheme()).isEqualTo("http");
            assertThat(seen.getHeader("X-Forwarded-Host")).isNull();
            assertThat(seen.getHeader("X-Forwarded-For")).isNull();
            assertThat(seen.getHeader("Forwarded")).isNull();
        }
    }

    @Test
    void withNoProxyConfiguredNobodyIsTrusted() throws Exception {
        TrustedProxies none = new TrustedProxies(new String[0]);
        assertThat(none.trusted("127.0.0.1")).isFalse();
        assertThat(none.trusted("10.0.0.1")).isFalse();
    }

    private static MockHttpServletRequest request(String from) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/me");
        request.setRemoteAddr(from);
        request.addHeader("X-Forwarded-For", "198.51.100.7");
        request.addHeader("X-Forwarded-Host", "allot.example");
        request.addHeader("X-Forwarded-Proto", "https");
        return request;
    }

    private static MockHttpServletRequest forwardedFor(String... headers) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/me");
        request.setRemoteAddr("10.1.2.3");
        for (String header : headers) {
            request.addHeader("X-Forwarded-For", header);
        }
        return request;
    }

    private HttpServletRequest pass(MockHttpServletRequest request) throws Exception {
        AtomicReference<HttpServletRequest> seen = new AtomicReference<>();
        filter.doFilter(
                request,
                new MockHttpServletResponse(),
                new MockFilterChain(new HttpServlet() {}, (req, res, chain) -> seen.set((HttpServletRequest) req)));
        return seen.get();
    }
}
