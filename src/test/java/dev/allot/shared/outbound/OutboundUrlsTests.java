package dev.allot.shared.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.shared.InvalidInputException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The outbound address policy, rule by rule, against a fixed table of DNS answers. */
class OutboundUrlsTests {

    /** DNS as these tests see it; any other name does not resolve. */
    private static final Map<String, String[]> DNS = Map.of(
            "hooks.example.com",
            new String[] {"93.184.216.34"},
            "localhost",
            new String[] {"127.0.0.1", "::1"},
            "metadata.example.com",
            new String[] {"169.254.169.254"},
            "mixed.example.com",
            new String[] {"93.184.216.34", "10.0.0.7"},
            "v6.example.com",
            new String[] {"2606:2800:220:1:248:1893:25c8:1946"},
            "hooks.corp.example",
            new String[] {"10.20.0.5"},
            "a.corp.example",
            new String[] {"10.20.0.6"});

    static InetAddress[] resolve(String host) throws UnknownHostException {
        String[] answer = DNS.get(host);
        if (answer == null) {
            throw new UnknownHostException(host);
        }
        InetAddress[] addresses = new InetAddress[answer.length];
        for (int i = 0; i < answer.length; i++) {
            addresses[i] = InetAddress.getByName(answer[i]);
        }
        return addresses;
    }

    private final OutboundUrls strict =
            new OutboundUrls(new OutboundProperties(List.of(), false), OutboundUrlsTests::resolve);

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://127.0.0.1/",
                "https://127.0.0.53:8443/x",
                "https://169.254.169.254/latest/meta-data",
                "https://10.0.0.1/",
                "https://172.16.0.1/",
                "https://172.31.255.255/",
                "https://192.168.1.1/",
                "https://100.64.0.1/",
                "https://0.0.0.0/",
                "https://255.255.255.255/",
                "https://224.0.0.1/",
                "https://[::1]/",
                "https://[::]/",
                "https://[::ffff:127.0.0.1]/",
                "https://[::ffff:a9fe:a9fe]/",
                "https://[fd00::1]/",
                "https://[fc00::1]/",
                "https://[fe80::1]/",
                "https://[ff02::1]/",
                "https://[64:ff9b::a00:1]/",
                "https://[2002:7f00:1::1]/",
                "https://[::127.0.0.1]/",
                "https://localhost/",
                "https://metadata.example.com/",
                "https://mixed.example.com/"
            })
    void internalAddressesAreRefused(String url) {
        assertThat(strict.problem(url))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("must not point at"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://0x7f000001/",
                "https://2130706433/",
                "https://0177.0.0.1/",
                "https://127.1/",
                "https://0x7f.0.0.1/",
                "https://127.0.0.01/",
                "https://017700000001/",
                "https://1.2.3.4.5/",
                "https://127.0.0.1./"
            })
    void numericFormsOtherThanDottedDecimalAreRefusedNotGuessedAt(String url) {
        assertThat(strict.problem(url)).isPresent();
    }

    @Test
    void aTrailingDotDoesNotHideALoopbackAddress() {
        assertThat(strict.problem("https://localhost./"))
                .hasValue("must not point at a loopback address (ask an admin to allow the host)");
    }

    @Test
    void publicHttpsUrlsAreAccepted() {
        assertThat(strict.problem("https://hooks.example.com/allot?x=1")).isEmpty();
        assertThat(strict.problem("https://HOOKS.example.com:8443/")).isEmpty();
        assertThat(strict.problem("https://93.184.216.34/")).isEmpty();
        assertThat(strict.problem("https://v6.example.com/")).isEmpty();
        Destination destination = strict.destination("https://hooks.example.com:8443/allot?x=1#frag");
        assertThat(destination.host()).isEqualTo("hooks.example.com");
        assertThat(destination.port()).isEqualTo(8443);
        assertThat(destination.pathAndQuery()).isEqualTo("/allot?x=1");
        assertThat(destination.hostHeader()).isEqualTo("hooks.example.com:8443");
        assertThat(destination.addresses())
                .extracting(InetAddress::getHostAddress)
                .containsExactly("93.184.216.34");
    }

    @Test
    void otherSchemesAndBadUrlsAreRefusedWithAReason() {
        assertThat(strict.problem("http://hooks.example.com/")).hasValue("must use https");
        assertThat(strict.problem("ftp://hooks.example.com/")).hasValue("must use https");
        assertThat(strict.problem("file:///etc/passwd")).isPresent();
        assertThat(strict.problem("https://user:pw@hooks.example.com/")).hasValue("must not carry credentials");
        assertThat(strict.problem("not a url")).isPresent();
        assertThat(strict.problem("/relative")).isPresent();
        assertThat(strict.problem("https://hooks.example.com:99999/")).hasValue("has an invalid port");
        assertThat(strict.problem("https://[fe80::1%25eth0]/")).hasValue("has an invalid IPv6 address");
        assertThat(strict.problem("https://hooks.example.com/" + "x".repeat(2000)))
                .isPresent();
    }

    @Test
    void unresolvableHostsAreRefused() {
        assertThat(strict.problem("https://kubernetes.default.svc/")).hasValue("names a host that does not resolve");
    }

    @Test
    void aResolverThatDoesNotAnswerInTimeCountsAsUnresolvable() {
        OutboundUrls slow = new OutboundUrls(
                new OutboundProperties(List.of(), false),
                host -> {
                    try {
                        Thread.sleep(10_000);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                    return resolve("hooks.example.com");
                },
                Duration.ofMillis(200));
        long start = System.nanoTime();
        assertThat(slow.problem("https://hooks.example.com/")).hasValue("names a host that does not resolve");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
    }

    @Test
    void theAllowListNamesHostsAndNetworks() {
        OutboundUrls allowing = new OutboundUrls(
                new OutboundProperties(List.of("hooks.corp.example", "*.corp.example", "127.0.0.1", "fd00::/8"), false),
                OutboundUrlsTests::resolve);
        assertThat(allowing.problem("https://hooks.corp.example/")).isEmpty();
        assertThat(allowing.problem("https://a.corp.example/")).isEmpty();
        assertThat(allowing.problem("https://127.0.0.1:9000/")).isEmpty();
        assertThat(allowing.problem("https://localhost/"))
                .as("resolves to ::1 too, which is not listed")
                .isPresent();
        assertThat(allowing.problem("https://[fd00::1]/")).isEmpty();
        assertThat(allowing.problem("https://127.0.0.2/")).isPresent();
        assertThat(allowing.problem("https://10.20.0.5/")).isPresent();
        assertThat(allowing.problem("http://127.0.0.1/"))
                .as("http needs allow-http")
                .hasValue("must use https");
    }

    @Test
    void httpIsAcceptedOnlyForAllowListedHosts() {
        OutboundUrls http = new OutboundUrls(
                new OutboundProperties(List.of("localhost", "10.20.0.0/16"), true), OutboundUrlsTests::resolve);
        assertThat(http.problem("http://localhost:8080/hook")).isEmpty();
        assertThat(http.problem("http://10.20.0.5/")).isEmpty();
        assertThat(http.problem("http://hooks.corp.example/"))
                .as("resolves into the network, but is not named")
                .hasValue("must use https");
        assertThat(http.problem("http://hooks.example.com/")).hasValue("must use https");
        assertThat(http.problem("http://127.0.0.1/")).hasValue("must use https");
    }

    @Test
    void anAddressThatChangesAfterSavingIsRefusedAtTheNextCheck() {
        String[] answer = {"93.184.216.34"};
        OutboundUrls rebinding = new OutboundUrls(
                new OutboundProperties(List.of(), false), host -> new InetAddress[] {InetAddress.getByName(answer[0])});
        assertThat(rebinding.problem("https://rebind.example.com/")).isEmpty();
        answer[0] = "127.0.0.1";
        assertThatThrownBy(() -> rebinding.destination("https://rebind.example.com/"))
                .isInstanceOf(OutboundRefusedException.class)
                .satisfies(ex ->
                        assertThat(((OutboundRefusedException) ex).detail()).contains("127.0.0.1"))
                .satisfies(ex -> assertThat(ex.getMessage()).doesNotContain("127.0.0.1"));
    }

    @Test
    void anAllowListEntryThatIsNeitherANameNorANetworkStopsTheStart() {
        assertThatThrownBy(() -> new OutboundProperties(List.of("10.0.0.0/40"), false))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new OutboundProperties(List.of("https://x.example"), false))
                .isInstanceOf(InvalidInputException.class);
        assertThat(new OutboundProperties(List.of(" Hooks.Example.COM ", ""), false).allowedHosts())
                .containsExactly("hooks.example.com");
    }

    @Test
    void cidrsContainWhatTheirPrefixCovers() {
        Cidr net = Cidr.parse("100.64.0.0/10");
        assertThat(net.contains(address("100.127.255.255"))).isTrue();
        assertThat(net.contains(address("100.128.0.0"))).isFalse();
        assertThat(net.contains(address("::1"))).isFalse();
        assertThat(Cidr.parse("fc00::/7").contains(address("fdff::1"))).isTrue();
        assertThat(Cidr.parse("fc00::/7").contains(address("fe00::1"))).isFalse();
        assertThatThrownBy(() -> Cidr.parse("example.com/8")).isInstanceOf(IllegalArgumentException.class);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
