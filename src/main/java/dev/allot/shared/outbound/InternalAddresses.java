package dev.allot.shared.outbound;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The addresses no request of a user's choosing may reach unless an admin allows them: what is not on the public
 * internet (loopback, link-local with the cloud metadata service at 169.254.169.254, private, unique-local,
 * CGNAT, unspecified, reserved, broadcast, multicast). An IPv6 address carrying an IPv4 one (IPv4-mapped, NAT64,
 * 6to4) is judged by the IPv4 address it carries.
 */
final class InternalAddresses {

    private record Range(Cidr cidr, String kind) {}

    private static final List<Range> RANGES = List.of(
            range("0.0.0.0/8", "an unspecified"),
            range("10.0.0.0/8", "a private"),
            range("100.64.0.0/10", "a shared (CGNAT)"),
            range("127.0.0.0/8", "a loopback"),
            range("169.254.0.0/16", "a link-local"),
            range("172.16.0.0/12", "a private"),
            range("192.0.0.0/24", "a reserved"),
            range("192.168.0.0/16", "a private"),
            range("198.18.0.0/15", "a reserved"),
            range("224.0.0.0/4", "a multicast"),
            range("240.0.0.0/4", "a reserved or broadcast"),
            range("::/128", "an unspecified"),
            range("::1/128", "a loopback"),
            range("::/96", "an IPv4-compatible"),
            range("100::/64", "a discard"),
            range("fc00::/7", "a unique-local"),
            range("fe80::/10", "a link-local"),
            range("fec0::/10", "a site-local"),
            range("ff00::/8", "a multicast"));

    private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96");

    private static final Cidr SIX_TO_FOUR = Cidr.parse("2002::/16");

    private InternalAddresses() {}

    /** What kind of internal address this is ("a loopback address"); empty for a public one. */
    static Optional<String> kind(InetAddress address) {
        Inet4Address carried = carriedIpv4(address);
        if (carried != null) {
            return kind(carried);
        }
        return RANGES.stream()
                .filter(range -> range.cidr().contains(address))
                .map(range -> range.kind() + " address")
                .findFirst();
    }

    private static @Nullable Inet4Address carriedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return null;
        }
        byte[] bytes = address.getAddress();
        // java.net already turns an IPv4-mapped literal into an Inet4Address; the bytes are checked in case.
        if (mapped(bytes) || NAT64.contains(address)) {
            return ipv4(Arrays.copyOfRange(bytes, 12, 16));
        }
        if (SIX_TO_FOUR.contains(address)) {
            return ipv4(Arrays.copyOfRange(bytes, 2, 6));
        }
        return null;
    }

    private static boolean mapped(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }

    private static Inet4Address ipv4(byte[] bytes) {
        try {
            return (Inet4Address) InetAddress.getByAddress(bytes);
        } catch (UnknownHostException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static Range range(String cidr, String kind) {
        return new Range(Cidr.parse(cidr), kind);
    }
}
