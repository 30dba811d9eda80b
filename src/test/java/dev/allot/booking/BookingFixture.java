package dev.allot.booking;

import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;

/** A pool of 8-GPU nodes, and a tenant with a project, a quota on the pool's GPU type and a MEMBER token. */
public abstract class BookingFixture extends FleetTest {

    protected record Setup(String tenant, String gpuType, String pool, String token, List<String> nodes) {}

    protected Setup setup(int nodes, int guaranteed, int max, boolean burst) {
        String type = newGpuType();
        setRateCard(type);
        String pool = newPool(type, 8);
        List<String> hostnames = addNodes(pool, nodes, 4);
        return tenantOn(type, pool, hostnames, guaranteed, max, burst);
    }

    protected Setup tenantOn(String type, String pool, List<String> nodes, int guaranteed, int max, boolean burst) {
        String tenant = newTenant();
        newProject(tenant, "training");
        setQuota(tenant, type, guaranteed, max, burst);
        return new Setup(tenant, type, pool, tenantToken(tenant, "MEMBER"), nodes);
    }

    /** Replaces the tenant's quota on its GPU type with one of this priority class. */
    protected void prioritize(Setup s, int guaranteed, int max, String priority) {
        Map<String, Object> policy = policy(s.gpuType(), guaranteed, max, false);
        policy.put("priority", priority);
        setQuota(s.tenant(), policy);
    }

    protected static Instant hour(int hoursFromNow) {
        return Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(hoursFromNow));
    }

    protected static Map<String, Object> body(Setup s, int gpus, Instant start, Instant end) {
        Map<String, Object> body = new HashMap<>();
        body.put("project", "training");
        body.put("pool", s.pool());
        body.put("gpus", gpus);
        body.put("startsAt", start.toString());
        body.put("endsAt", end.toString());
        body.put(
                "cluster",
                Map.of(
                        "orchestrator",
                        "SLURM",
                        "cudaDriver",
                        "550.54",
                        "sharedMemoryGi",
                        64,
                        "volumes",
                        List.of(Map.of("name", "data", "sizeGi", 500)),
                        "sshPublicKeys",
                        List.of(SSH_KEY)));
        return body;
    }

    protected Api.Response book(Setup s, Map<String, Object> body, String... headers) {
        return api.post("/api/v1/tenants/" + s.tenant() + "/reservations", s.token(), body, headers);
    }

    protected Api.Response book(Setup s, int gpus, Instant start, Instant end) {
        return book(s, body(s, gpus, start, end));
    }

    /** The id of a booking that must have been made. */
    protected static String createdId(Api.Response booked) {
        Assertions.assertThat(booked.status()).as(booked.toString()).isEqualTo(201);
        return booked.json().get("id").asString();
    }

    protected String path(Setup s, String id) {
        return "/api/v1/tenants/" + s.tenant() + "/reservations/" + id;
    }

    protected long reservationsOf(String tenant) {
        return jdbc.sql("SELECT count(*) FROM reservation WHERE tenant_slug = ?")
                .param(tenant)
                .query(Long.class)
                .single();
    }

    protected long writesOf(String tenant) {
        return jdbc.sql("""
				SELECT (SELECT count(*) FROM reservation WHERE tenant_slug = :t)
				     + (SELECT count(*) FROM quota_usage u JOIN tenant t ON t.id = u.tenant_id WHERE t.slug = :t)
				     + (SELECT count(*) FROM allocation a JOIN reservation r ON r.id = a.reservation_id
				        WHERE r.tenant_slug = :t)""").param("t", tenant).query(Long.class).single();
    }
}
