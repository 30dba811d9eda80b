package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.booking.approval.Approvals;
import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Booking approvals (issue 31, part 1): a booking the tenant's policy asks approval for waits as
 * {@code PENDING_APPROVAL}, holding its nodes but neither provisioned nor billed; a tenant admin other than its
 * requester (or a platform admin) approves or denies it, and one undecided in time expires.
 */
class ApprovalTests extends BookingFixture {

    @Autowired
    Approvals approvals;

    /** A tenant whose H100-like type asks approval above 10 GPU-hours. */
    private Setup withApproval(int nodes) {
        Setup s = setup(nodes, 8, 16, false);
        Map<String, Object> policy = policy(s.gpuType(), 8, 16, false);
        policy.put("approval", Map.of("aboveGpuHours", 10));
        setQuota(s.tenant(), policy);
        return s;
    }

    @Test
    void aLargeBookingWaitsForApprovalHoldingItsNodesAndIsProvisionedOnlyOnceApproved() {
        Setup s = withApproval(1);
        Api.Response quote =
                api.post("/api/v1/tenants/" + s.tenant() + "/quotes", s.token(), body(s, 8, hour(5), hour(7)));
        assertThat(quote.json().get("needsApproval").asBoolean()).isTrue();
        assertThat(api.post("/api/v1/tenants/" + s.tenant() + "/quotes", s.token(), body(s, 8, hour(5), hour(6)))
                        .json()
                        .get("needsApproval")
                        .asBoolean())
                .isFalse();

        // a lifecycle webhook of the tenant that asked for the approval events (its deliveries are what is checked)
        jdbc.sql("""
				INSERT INTO tenant_webhook (id, tenant_id, url, secret, events, created_at)
				SELECT gen_random_uuid(), id, 'https://hooks.example.com/allot', 'unused-in-this-test',
				       ARRAY['PENDING_APPROVAL', 'APPROVED', 'DENIED', 'EXPIRED'], now()
				FROM tenant WHERE slug = ?""").param(s.tenant()).update();
        Api.Response booked = book(s, 8, hour(5), hour(7));
        assertThat(booked.status()).as(booked.toString()).isEqualTo(201);
        assertThat(booked.json().get("status").asString()).isEqualTo("PENDING_APPROVAL");
        String id = booked.json().get("id").asString();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> told(id, "APPROVAL_REQUESTED") == 1 && delivered(id, "PENDING_APPROVAL") == 1);
        // it holds its node: nothing else fits there
        assertThat(book(s, 8, hour(6), hour(7)).status()).isEqualTo(409);
        assertThat(clusters(id)).isZero();
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/reservations?status=PENDING_APPROVAL", s.token())
                        .json()
                        .get("totalItems")
                        .asInt())
                .isEqualTo(1);

        // the member who booked cannot decide; a tenant admin does
        assertThat(api.post(path(s, id) + "/approve", s.token(), Map.of()).status())
                .isEqualTo(403);
        String admin = tenantToken(s.tenant(), "TENANT_ADMIN");
        Api.Response approved = api.post(path(s, id) + "/approve", admin, Map.of("reason", "planned run"));
        assertThat(approved.status()).as(approved.toString()).isEqualTo(200);
        assertThat(approved.json().get("status").asString()).isEqualTo("CONFIRMED");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> clusters(id) == 1 && told(id, "APPROVAL_DECIDED") == 1 && delivered(id, "APPROVED") == 1);
        Api.Response again = api.post(path(s, id) + "/approve", admin, Map.of());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("code").asString()).isEqualTo("reservation_not_pending");
        assertThat(audited(id, "reservation.approved")).isEqualTo(1);
    }

    @Test
    void aDeniedBookingFreesItsNodesAndCostsNothing() {
        Setup s = withApproval(1);
        String id = createdId(book(s, 8, hour(5), hour(7)));
        String admin = tenantToken(s.tenant(), "TENANT_ADMIN");
        assertThat(api.post(path(s, id) + "/deny", admin, Map.of()).status()).isEqualTo(400);

        Api.Response denied = api.post(path(s, id) + "/deny", admin, Map.of("reason", "not this week"));
        assertThat(denied.status()).as(denied.toString()).isEqualTo(200);
        assertThat(denied.json().get("status").asString()).isEqualTo("DENIED");
        assertThat(book(s, 8, hour(5), hour(6)).status()).isEqualTo(201);
        assertThat(jdbc.sql("SELECT count(*) FROM quota_usage WHERE reservation_id = ?::uuid")
                        .param(id)
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(clusters(id)).isZero();
        assertThat(audited(id, "reservation.denied")).isEqualTo(1);
        assertThat(api.post(path(s, id) + "/cancel", s.token()).status()).isEqualTo(409);
    }

    @Test
    void aTenantAdminCannotApproveTheirOwnBookingButAnotherAdminOrAPlatformAdminCan() {
        Setup s = withApproval(2);
        String bookingAdmin = tenantToken(s.tenant(), "TENANT_ADMIN");
        String id = createdId(api.post(
                "/api/v1/tenants/" + s.tenant() + "/reservations", bookingAdmin, body(s, 8, hour(5), hour(7))));
        assertThat(api.post(path(s, id) + "/approve", bookingAdmin, Map.of()).status())
                .isEqualTo(403);
        assertThat(api.post(path(s, id) + "/approve", tenantToken(newTenant(), "TENANT_ADMIN"), Map.of())
                        .status())
                .isEqualTo(404);
        assertThat(api.post(path(s, id) + "/approve", adminToken(), Map.of())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("CONFIRMED");
    }

    @Test
    void aBookingUndecidedWhenItsHoldRunsOutExpiresAndFreesItsNodes() {
        Setup s = withApproval(1);
        String id = createdId(book(s, 8, hour(5), hour(7)));
        assertThat(jdbc.sql("SELECT approval_until <= starts_at FROM reservation WHERE id = ?::uuid")
                        .param(id)
                        .query(Boolean.class)
                        .single())
                .isTrue();
        jdbc.sql("UPDATE reservation SET approval_until = now() - interval '1 second' WHERE id = ?::uuid")
                .param(id)
                .update();

        assertThat(approvals.expireDue()).isGreaterThanOrEqualTo(1);
        Api.Response expired = api.get(path(s, id), s.token());
        assertThat(expired.json().get("status").asString()).isEqualTo("EXPIRED");
        assertThat(book(s, 8, hour(5), hour(6)).status()).isEqualTo(201);
        assertThat(api.post(path(s, id) + "/approve", adminToken(), Map.of()).status())
                .isEqualTo(409);
    }

    @Test
    void twoAdminsApprovingAtOnceDecideItOnceTheOtherIsToldItIsNoLongerPending() throws Exception {
        Setup s = withApproval(1);
        String id = createdId(book(s, 8, hour(5), hour(7)));
        String first = tenantToken(s.tenant(), "TENANT_ADMIN");
        String second = tenantToken(s.tenant(), "TENANT_ADMIN");
        List<Callable<Api.Response>> both = List.of(
                () -> api.post(path(s, id) + "/approve", first, Map.of()),
                () -> api.post(path(s, id) + "/deny", second, Map.of("reason", "not now")));
        List<Integer> statuses = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (var answer : pool.invokeAll(both)) {
                statuses.add(answer.get().status());
            }
        }
        assertThat(statuses).containsExactlyInAnyOrder(200, 409);
        assertThat(audited(id, "reservation.approved") + audited(id, "reservation.denied"))
                .isEqualTo(1);
        String status = api.get(path(s, id), s.token()).json().get("status").asString();
        assertThat(status).isIn("CONFIRMED", "DENIED");
        // an auditor reads it but decides nothing
        String auditor = userToken(newUser(PlatformRole.AUDITOR));
        assertThat(api.get(path(s, id), auditor).status()).isEqualTo(200);
        assertThat(api.post(path(s, id) + "/approve", auditor, Map.of()).status())
                .isEqualTo(403);
    }

    private long clusters(String reservation) {
        return jdbc.sql("SELECT count(*) FROM cluster WHERE reservation_id = ?::uuid")
                .param(reservation)
                .query(Long.class)
                .single();
    }

    /** The tenant's notifications of this kind about the reservation. */
    private long told(String reservation, String kind) {
        return jdbc.sql("SELECT count(*) FROM notification WHERE kind = ? AND details ->> 'reservationId' = ?")
                .params(kind, reservation)
                .query(Long.class)
                .single();
    }

    /** The lifecycle webhook deliveries of this event about the reservation. */
    private long delivered(String reservation, String event) {
        return jdbc.sql("SELECT count(*) FROM tenant_webhook_delivery WHERE event = ? AND reservation_id = ?::uuid")
                .params(event, reservation)
                .query(Long.class)
                .single();
    }

    private long audited(String reservation, String action) {
        return jdbc.sql("SELECT count(*) FROM audit_event WHERE object_id = ? AND action = ?")
                .params(reservation, action)
                .query(Long.class)
                .single();
    }
}
