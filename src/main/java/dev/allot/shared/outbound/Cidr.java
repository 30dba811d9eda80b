package dev.allot.shared.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A network written as {@code address/prefix} ({@code 10.0.0.0/8}, {@code fd00::/8}); a bare address is the
 * network of that address alone.
 */
public record Cidr(InetAddress network, int prefix) {

    static final Pattern DOTTED_QUAD = Pattern.compile(
            "^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$");

    private static final Pattern IPV6 = Pattern.compile("^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$");

    public Cidr {
        int bits = network.getAddress().length * 8;
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("prefix of " + network.getHostAddress() + " must be 0 to " + bits);
        }
    }

    /** Parses {@code address[/prefix]}; never asks DNS (the address must be a literal). */
    public static Cidr parse(String text) {
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        InetAddress network = literal(address);
        if (network == null) {
            throw new IllegalArgumentException(text + " is not an IP address or CIDR");
        }
        int bits = network.getAddress().length * 8;
        if (slash < 0) {
            return new Cidr(network, bits);
        }
        try {
            return new Cidr(network, Integer.parseInt(text.substring(slash + 1)));
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException(text + " has no valid prefix length");
        }
    }

    /**
     * The address an IP literal stands for: a dotted-decimal IPv4 address or an IPv6 address; null for anything
     * else. Only these forms are parsed, so no DNS query is made and no other notation ({@code 0x7f000001},
     * {@code 127.1}, {@code 0177.0.0.1}) is taken for an address.
     */
    static @Nullable InetAddress literal(String text) {
        if (!DOTTED_QUAD.matcher(text).matches() && !IPV6.matcher(text).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException | IllegalArgumentException ex) {
            return null;
        }
    }

    public boolean contains(InetAddress address) {
        byte[] candidate = address.getAddress();
        byte[] net = network.getAddress();
        if (candidate.length != net.length) {
            return false;
        }
        int whole = prefix / 8;
        for (int i = 0; i < whole; i++) {
            if (candidate[i] != net[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (candidate[whole] & mask) == (net[whole] & mask);
    }

    @Override
    public String toString() {
        return network.getHostAddress() + "/" + prefix;
    }
}
