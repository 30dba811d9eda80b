package dev.allot.shared.outbound;

import java.net.InetAddress;
import java.util.List;

/**
 * Where a checked URL leads: its host as written, and every address the host resolved to when it was checked,
 * each one allowed. A request goes to these addresses, never to a second resolution of the host.
 */
public record Destination(
        String scheme,
        String host,
        int port,
        String pathAndQuery,
        boolean addressLiteral,
        List<InetAddress> addresses) {

    public Destination {
        addresses = List.copyOf(addresses);
    }

    boolean https() {
        return "https".equals(scheme);
    }

    /** The Host header: the host as written (IPv6 in brackets), with the port unless it is the scheme's default. */
    String hostHeader() {
        String name = host.contains(":") ? "[" + host + "]" : host;
        boolean defaultPort = port == (https() ? 443 : 80);
        return defaultPort ? name : name + ":" + port;
    }
}
