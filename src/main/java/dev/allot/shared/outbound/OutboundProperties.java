package dev.allot.shared.outbound;

import dev.allot.shared.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code allot.security.outbound.*}: which internal destinations an admin lets users' URLs reach.
 *
 * @param allowedHosts host names ({@code hooks.corp.example}, or {@code *.corp.example} for its subdomains)
 * and networks ({@code 10.20.0.0/16}, {@code 127.0.0.1}) that URLs may point at although they are internal. A
 * listed host name may resolve to any address; any other host must resolve only to public addresses or to
 * addresses inside a listed network
 * @param allowHttp accept {@code http://} URLs, but only to hosts the allow-list names (by name, or as an
 * address literal inside a listed network); everything else must use {@code https://}
 */
@ConfigurationProperties("allot.security.outbound")
public record OutboundProperties(
        @DefaultValue List<String> allowedHosts,
        @DefaultValue("false") boolean allowHttp) {

    private static final Pattern HOST_NAME =
            Pattern.compile("^(\\*\\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$");

    public OutboundProperties {
        allowedHosts = allowedHosts.stream()
                .map(String::trim)
                .map(h -> h.toLowerCase(Locale.ROOT))
                .filter(h -> !h.isEmpty())
                .toList();
        networks(allowedHosts);
    }

    /** The listed networks (and single addresses). */
    List<Cidr> networks() {
        return networks(allowedHosts);
    }

    /** The listed host names, {@code *.} patterns included. */
    List<String> names() {
        return allowedHosts.stream().filter(OutboundProperties::isName).toList();
    }

    private static List<Cidr> networks(List<String> entries) {
        List<Cidr> networks = new ArrayList<>();
        for (String entry : entries) {
            if (isName(entry)) {
                continue;
            }
            try {
                networks.add(Cidr.parse(entry));
            } catch (IllegalArgumentException ex) {
                throw InvalidInputException.of(
                        "allot.security.outbound.allowed-hosts",
                        entry + " is neither a host name nor an address or CIDR");
            }
        }
        return networks;
    }

    private static boolean isName(String entry) {
        return HOST_NAME.matcher(entry).matches()
                && !OutboundUrls.NUMERIC_TAIL.matcher(entry).find();
    }
}
