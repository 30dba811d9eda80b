package dev.allot.shared.outbound;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The one policy for URLs a user sets and Allot then calls (a budget's webhook, ...): https only, a host that
 * resolves, and only to public addresses, unless {@code allot.security.outbound.allowed-hosts} names the host or
 * its network. Checked when the URL is saved ({@link #problem}) and again before each request
 * ({@link #destination}), because what a name resolves to can change in between (DNS rebinding).
 *
 * <p>Hosts are read as java.net would connect to them, without its leniencies: an IPv4 address must be written
 * in dotted decimal; any other numeric form ({@code 0x7f000001}, {@code 2130706433}, {@code 0177.0.0.1},
 * {@code 127.1}), which resolvers read in different ways, is refused rather than guessed at.
 */
@Component
public class OutboundUrls {

    /** Resolves a host name to its addresses; DNS in production. */
    @FunctionalInterface
    public interface Resolver {

        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** A host whose last label is a number (or hex) is an address in some notation, never a DNS name. */
    static final Pattern NUMERIC_TAIL = Pattern.compile("(^|\\.)(0x[0-9a-f]*|[0-9]+)\\.?$");

    private static final Pattern HOST_NAME =
            Pattern.compile("^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$");

    private static final int MAX_LENGTH = 2000;

    private final List<Cidr> allowedNetworks;

    private final List<String> allowedNames;

    private final boolean allowHttp;

    private final Resolver resolver;

    private final Duration resolveTimeout;

    @Autowired
    public OutboundUrls(OutboundProperties properties) {
        this(properties, InetAddress::getAllByName);
    }

    public OutboundUrls(OutboundProperties properties, Resolver resolver) {
        this(properties, resolver, Duration.ofSeconds(5));
    }

    OutboundUrls(OutboundProperties properties, Resolver resolver, Duration resolveTimeout) {
        this.allowedNetworks = properties.networks();
        this.allowedNames = properties.names();
        this.allowHttp = properties.allowHttp();
        this.resolver = resolver;
        this.resolveTimeout = resolveTimeout;
    }

    /** Why the URL may not be saved, in words for the user who typed it; empty when it may. */
    public Optional<String> problem(String url) {
        try {
            destination(url);
            return Optional.empty();
        } catch (OutboundRefusedException ex) {
            return Optional.of(ex.getMessage());
        }
    }

    /**
     * Checks the URL and resolves its host once: every address must be allowed. The request must then go to
     * exactly these addresses ({@link OutboundHttp} does).
     * @throws OutboundRefusedException when the URL, its scheme, its host or any of its addresses is not allowed
     */
    public Destination destination(String url) {
        URI uri = parse(url);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        Authority authority = authority(uri.getRawAuthority(), scheme, url);
        boolean namedHost = namedByName(authority.host());
        boolean named = namedHost || inAllowedNetwork(authority.literal());
        if (!scheme.equals("https") && !(scheme.equals("http") && allowHttp && named)) {
            throw refused("must use https", url);
        }
        List<InetAddress> addresses =
                authority.literal() != null ? List.of(authority.literal()) : resolve(authority.host(), url);
        if (!namedHost) {
            for (InetAddress address : addresses) {
                Optional<String> internal =
                        inAllowedNetwork(address) ? Optional.empty() : InternalAddresses.kind(address);
                if (internal.isPresent()) {
                    throw refused(
                            "must not point at " + internal.get() + " (ask an admin to allow the host)",
                            url + " resolves to " + address.getHostAddress());
                }
            }
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return new Destination(
                scheme,
                authority.host(),
                authority.port(),
                uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery(),
                authority.literal() != null,
                addresses);
    }

    /** A URL's host (lower case, no brackets, no trailing dot) and port; the address when the host is one. */
    private record Authority(
            String host, int port, @Nullable InetAddress literal) {}

    private static Authority authority(String authority, String scheme, String url) {
        if (authority.contains("@")) {
            throw refused("must not carry credentials", url);
        }
        String host;
        String port;
        InetAddress literal = null;
        if (authority.startsWith("[")) {
            int end = authority.indexOf(']');
            host = end < 0 ? "" : authority.substring(1, end).toLowerCase(Locale.ROOT);
            // A zone id (fe80::1%eth0) names an interface of Allot's host: never one of a user's.
            literal = host.contains("%") ? null : Cidr.literal(host);
            if (literal == null || !(end + 1 == authority.length() || authority.charAt(end + 1) == ':')) {
                throw refused("has an invalid IPv6 address", url);
            }
            port = authority.substring(end + 1).replaceFirst("^:", "");
        } else {
            int colon = authority.lastIndexOf(':');
            host = (colon < 0 ? authority : authority.substring(0, colon)).toLowerCase(Locale.ROOT);
            port = colon < 0 ? "" : authority.substring(colon + 1);
            if (host.endsWith(".")) {
                host = host.substring(0, host.length() - 1);
            }
            if (NUMERIC_TAIL.matcher(host).find()) {
                literal = Cidr.DOTTED_QUAD.matcher(host).matches() ? Cidr.literal(host) : null;
                if (literal == null) {
                    throw refused("must name a host, or an IPv4 address in dotted decimal (a.b.c.d)", url);
                }
            } else if (host.length() > 253 || !HOST_NAME.matcher(host).matches()) {
                throw refused("has an invalid host name", url);
            }
        }
        return new Authority(host, port(port, scheme, url), literal);
    }

    private static URI parse(String url) {
        if (url.length() > MAX_LENGTH) {
            throw refused("must be at most " + MAX_LENGTH + " characters", "a URL of " + url.length() + " characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException ex) {
            throw refused("is not a URL", url);
        }
        if (uri.isOpaque() || uri.getScheme() == null || uri.getRawAuthority() == null) {
            throw refused("must be an absolute URL with a host, such as https://hooks.example.com/allot", url);
        }
        return uri;
    }

    private static int port(String port, String scheme, String url) {
        if (port.isEmpty()) {
            return scheme.equals("http") ? 80 : 443;
        }
        if (!port.matches("^[0-9]{1,5}$") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
            throw refused("has an invalid port", url);
        }
        return Integer.parseInt(port);
    }

    private List<InetAddress> resolve(String host, String url) {
        try {
            InetAddress[] addresses = lookUp(host);
            if (addresses.length == 0) {
                throw new UnknownHostException(host);
            }
            return Arrays.asList(addresses);
        } catch (UnknownHostException | RuntimeException ex) {
            throw new OutboundRefusedException("names a host that does not resolve", url + ": " + ex, true);
        }
    }

    /**
     * The resolver's answer within the resolve timeout: the JDK's lookup has no timeout of its own, and a saving
     * request or a delivery must not wait on a slow DNS server for as long as the OS resolver retries.
     */
    private InetAddress[] lookUp(String host) throws UnknownHostException {
        FutureTask<InetAddress[]> lookup = new FutureTask<>(() -> resolver.resolve(host));
        Thread.ofPlatform().daemon().name("outbound-dns").start(lookup);
        try {
            return lookup.get(resolveTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException ex) {
            lookup.cancel(true);
            throw new UnknownHostException(host + ": no answer within " + resolveTimeout);
        } catch (ExecutionException ex) {
            throw ex.getCause() instanceof UnknownHostException unknown
                    ? unknown
                    : new UnknownHostException(host + ": " + ex.getCause());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new UnknownHostException(host + ": interrupted");
        }
    }

    private boolean namedByName(String host) {
        return allowedNames.stream()
                .anyMatch(name -> name.startsWith("*.") ? host.endsWith(name.substring(1)) : name.equals(host));
    }

    private boolean inAllowedNetwork(@Nullable InetAddress address) {
        return address != null && allowedNetworks.stream().anyMatch(network -> network.contains(address));
    }

    private static OutboundRefusedException refused(String reason, String detail) {
        return new OutboundRefusedException(reason, detail, false);
    }
}
