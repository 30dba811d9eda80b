package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.allot.billing.metering.CollectorProperties.Exporter;
import dev.allot.billing.metering.TelemetryCollector;
import dev.allot.billing.metering.TelemetryCollector.Outcome;
import dev.allot.shared.outbound.OutboundResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * The collector scrapes a stand-in DCGM exporter that the test starts (a JDK HTTP server on 127.0.0.1 serving
 * src/test/resources/telemetry/dcgm-exporter-a100.prom), reached as http://localhost, which the tests'
 * outbound allow-list names (as an admin would list an internal exporter).
 */
@TestPropertySource(properties = "allot.billing.collector.max-size=64KB")
class TelemetryCollectorTests extends BillingTest {

    @Autowired
    TelemetryCollector collector;

    private final List<HttpServer> servers = new ArrayList<>();

    @AfterEach
    void stopExporters() {
        servers.forEach(server -> server.stop(0));
    }

    @Test
    void eachPoolsExporterIsScrapedIntoSamplesBadLinesSkippedAndAnUnreachableOneTriedAgainNextRound()
            throws IOException {
        Instant t0 = newMonth();
        Setup a = setup(1, 8, 8, false);
        Setup b = setup(1, 8, 8, false);
        Instant start = t0.plus(Duration.ofHours(1));
        String nodeA = book(a, 8, start, t0.plus(Duration.ofHours(5)))
                .json()
                .get("nodes")
                .get(0)
                .asString();
        String nodeB = book(b, 8, start, t0.plus(Duration.ofHours(5)))
                .json()
                .get("nodes")
                .get(0)
                .asString();
        CLOCK.set(start.plus(Duration.ofMinutes(10)));

        String served = fixture(nodeA) + """
				DCGM_FI_DEV_GPU_UTIL{gpu="0",Hostname="%s"
				DCGM_FI_DEV_GPU_UTIL{gpu="zero",Hostname="%s"} 50
				DCGM_FI_DEV_GPU_UTIL{gpu="0",Hostname="not-a-node-of-allot"} 50
				DCGM_FI_DEV_GPU_UTIL{gpu="1",Hostname="%s"} 50
				""".formatted(nodeA, nodeA, nodeB);
        int port = start(0, "/metrics", served).getAddress().getPort();
        int down;
        try (ServerSocket free = new ServerSocket(0)) {
            down = free.getLocalPort();
        }
        start(port, "/huge", "# padding\n".repeat(8000));
        Map<String, Exporter> exporters = new LinkedHashMap<>();
        exporters.put(b.pool(), exporter(down));
        exporters.put(a.pool(), exporter(port));
        exporters.put(
                "huge",
                new Exporter(
                        "http://" + WEBHOOK_HOST + ":" + port + "/huge", "DCGM_FI_DEV_GPU_UTIL", "Hostname", "gpu"));

        List<Outcome> first = collector.collect(exporters);
        System.out.println("first round: " + first);

        assertThat(first.get(0).error()).isEqualTo(OutboundResponse.CONNECTION_FAILED);
        // 8 GPUs of node A stored; a cut line and a GPU label that is no index skipped; an unknown node and a
        // node of another pool refused
        assertThat(first.get(1)).isEqualTo(new Outcome(a.pool(), 8, 2, 2, null));
        assertThat(first.get(2).error()).isEqualTo(OutboundResponse.TOO_LARGE);
        assertThat(utilisations(nodeA))
                .containsExactly("97.00", "94.00", "88.00", "96.00", "0.00", "99.00", "93.00", "91.00");
        assertThat(utilisations(nodeB)).isEmpty();

        // pool B's exporter comes back: the next round reads it
        start(down, "/metrics", fixture(nodeB));
        CLOCK.set(CLOCK.instant().plus(Duration.ofMinutes(1)));
        List<Outcome> second = collector.collect(exporters);
        System.out.println("second round: " + second);
        assertThat(second.get(0)).isEqualTo(new Outcome(b.pool(), 8, 0, 0, null));
        assertThat(utilisations(nodeB)).hasSize(8);
        assertThat(utilisations(nodeA)).hasSize(16);
        assertThat(jdbc.sql("SELECT count(*) FROM scheduled_tasks WHERE task_name = 'billing-collect-telemetry'")
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
    }

    @Test
    void readingsOutsideTheNodesReservationsAreDroppedLikeTheApiWould() throws IOException {
        Instant t0 = newMonth();
        Setup a = setup(1, 8, 8, false);
        String node = book(a, 8, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(2)))
                .json()
                .get("nodes")
                .get(0)
                .asString();
        CLOCK.set(t0.plus(Duration.ofHours(3)));
        int port = start(0, "/metrics", fixture(node)).getAddress().getPort();

        List<Outcome> round = collector.collect(Map.of(a.pool(), exporter(port)));

        assertThat(round).containsExactly(new Outcome(a.pool(), 0, 0, 8, null));
        assertThat(utilisations(node)).isEmpty();
    }

    private static Exporter exporter(int port) {
        return new Exporter(
                "http://" + WEBHOOK_HOST + ":" + port + "/metrics", "DCGM_FI_DEV_GPU_UTIL", "Hostname", "gpu");
    }

    private List<String> utilisations(String node) {
        return jdbc.sql("SELECT utilisation::numeric(5, 2)::text FROM gpu_utilisation_sample WHERE hostname = ? "
                        + "ORDER BY at, gpu")
                .param(node)
                .query(String.class)
                .list();
    }

    private static String fixture(String hostname) throws IOException {
        try (InputStream in = TelemetryCollectorTests.class.getResourceAsStream("/telemetry/dcgm-exporter-a100.prom")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("dgx-a100-01", hostname);
        }
    }

    private HttpServer start(int port, String path, String body) throws IOException {
        HttpServer server = servers.stream()
                .filter(s -> s.getAddress().getPort() == port)
                .findFirst()
                .orElse(null);
        if (server == null) {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
            server.start();
            servers.add(server);
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        server.createContext(path, exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        return server;
    }
}
