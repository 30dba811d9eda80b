package dev.allot.booking.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import dev.allot.support.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * What another replica hears: a connection of its own LISTENs as a replica's feed does, and learns of every
 * committed change to a pool's capacity, and of nothing that was refused.
 */
class CapacityNotificationTests extends FleetTest {

    private Connection replica;

    @BeforeEach
    void listen() throws Exception {
        TestDatabase.Connection db = TestDatabase.get();
        replica = DriverManager.getConnection(db.url(), db.username(), db.password());
        try (Statement statement = replica.createStatement()) {
            statement.execute("LISTEN " + CapacityNotifier.CHANNEL);
        }
    }

    @AfterEach
    void close() throws Exception {
        replica.close();
    }

    @Test
    void bookingCancellingExtendingAndNodeChangesNotifyTheirPoolAndARefusalNotifiesNothing() throws Exception {
        String type = newGpuType();
        setRateCard(type);
        String pool = newPool(type, 8);
        String other = newPool(type, 8);
        List<String> nodes = addNodes(pool, 2, 2);
        addNodes(other, 1, 1);
        assertThat(next()).isEqualTo(pool);
        assertThat(next()).isEqualTo(pool);
        assertThat(next()).isEqualTo(other);
        String tenant = newTenant();
        newProject(tenant, "training");
        setQuota(tenant, type, 8, 8, false);
        String token = tenantToken(tenant, "MEMBER");
        Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofDays(2));

        Api.Response refused = book(tenant, token, pool, 16, start);
        assertThat(refused.status()).isEqualTo(422);
        Api.Response booked = book(tenant, token, other, 8, start);
        assertThat(booked.status()).isEqualTo(201);
        assertThat(next())
                .as("the refusal sent nothing; the next change is the booking")
                .isEqualTo(other);

        String id = booked.json().get("id").asString();
        String path = "/api/v1/tenants/" + tenant + "/reservations/" + id;
        assertThat(api.patch(
                                path,
                                token,
                                Map.of("endsAt", start.plus(Duration.ofHours(3)).toString()),
                                "If-Match",
                                "\"0\"")
                        .status())
                .isEqualTo(200);
        assertThat(next()).isEqualTo(other);
        assertThat(api.post(path + "/cancel", token, Map.of()).status()).isEqualTo(200);
        assertThat(next()).isEqualTo(other);

        api.post("/api/v1/nodes/" + nodes.getFirst() + "/quarantine", adminToken(), Map.of("reason", "fans"));
        assertThat(next()).isEqualTo(pool);
    }

    private Api.Response book(String tenant, String token, String pool, int gpus, Instant start) {
        Map<String, Object> body = new HashMap<>(Map.of(
                "project",
                "training",
                "pool",
                pool,
                "gpus",
                gpus,
                "startsAt",
                start.toString(),
                "endsAt",
                start.plus(Duration.ofHours(2)).toString()));
        return api.post("/api/v1/tenants/" + tenant + "/reservations", token, body);
    }

    private final List<String> heard = new ArrayList<>();

    /** The next notification, in commit order; waits for it (the test fails after 20 s without one). */
    private String next() throws Exception {
        PGConnection pg = replica.unwrap(PGConnection.class);
        for (int i = 0; i < 40 && heard.isEmpty(); i++) {
            PGNotification[] notifications = pg.getNotifications(500);
            if (notifications != null) {
                for (PGNotification notification : notifications) {
                    heard.add(notification.getParameter());
                }
            }
        }
        assertThat(heard).as("a notification").isNotEmpty();
        return heard.removeFirst();
    }
}
