package dev.allot.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.IntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Nobody becomes a member of a tenant without consent (issue 28, finding 5): a tenant admin's adding an existing
 * user is an invitation that user accepts, through the API or on their Invitations page; a platform admin still adds
 * directly, audited. Before, a tenant admin could make any user (of another tenant) a member on the spot.
 */
class InvitationTests extends IntegrationTest {

    private long memberCount(String tenant, String username) {
        return jdbc.sql(
                        "SELECT count(*) FROM member m JOIN tenant t ON t.id = m.tenant_id WHERE t.slug = ? AND m.subject = ?")
                .params(tenant, username)
                .query(Long.class)
                .single();
    }

    @Test
    void aTenantAdminsAddIsAnInvitationOnlyTheInvitedUserAccepts() {
        String tenant = newTenant();
        String admin = tenantToken(tenant, "TENANT_ADMIN");
        String bob = newUser();
        String carol = newUser();

        Api.Response invited =
                api.post("/api/v1/tenants/" + tenant + "/members", admin, Map.of("username", bob, "role", "MEMBER"));

        assertThat(invited.status()).as(invited.toString()).isEqualTo(202);
        assertThat(invited.json().get("status").asString()).isEqualTo("PENDING");
        assertThat(invited.json().get("username").asString()).isEqualTo(bob);
        String id = invited.json().get("id").asString();
        // not a member until he accepts: the tenant is not his to see
        assertThat(memberCount(tenant, bob)).isZero();
        assertThat(api.get("/api/v1/tenants/" + tenant + "/projects", userToken(bob))
                        .status())
                .isEqualTo(404);
        assertThat(api.post("/api/v1/tenants/" + tenant + "/members", admin, Map.of("username", bob, "role", "VIEWER"))
                        .json()
                        .get("code")
                        .asString())
                .isEqualTo("invitation_exists");
        assertThat(api.get("/api/v1/invitations", userToken(bob))
                        .json()
                        .get("items")
                        .valueStream()
                        .map(i -> i.get("id").asString()))
                .containsExactly(id);
        assertThat(api.get("/api/v1/invitations", userToken(carol))
                        .json()
                        .get("items")
                        .valueStream())
                .isEmpty();
        // nobody else answers it, nor learns of it
        assertThat(api.post("/api/v1/invitations/" + id + "/accept", userToken(carol))
                        .status())
                .isEqualTo(404);
        assertThat(api.post("/api/v1/invitations/" + id + "/accept", admin).status())
                .isEqualTo(404);
        assertThat(memberCount(tenant, bob)).isZero();

        Api.Response accepted = api.post("/api/v1/invitations/" + id + "/accept", userToken(bob));

        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
        assertThat(accepted.json().get("role").asString()).isEqualTo("MEMBER");
        assertThat(memberCount(tenant, bob)).isEqualTo(1);
        assertThat(api.get("/api/v1/tenants/" + tenant + "/projects", userToken(bob))
                        .status())
                .isEqualTo(200);
        assertThat(api.post("/api/v1/invitations/" + id + "/accept", userToken(bob))
                        .json()
                        .get("code")
                        .asString())
                .isEqualTo("invitation_answered");
        assertThat(jdbc.sql("SELECT action FROM audit_event WHERE object_id = ? ORDER BY id")
                        .param(id)
                        .query(String.class)
                        .list())
                .containsExactly("invitation.created", "invitation.accepted");
    }

    @Test
    void aDeclinedOrExpiredInvitationMakesNobodyAMember() {
        String tenant = newTenant();
        String admin = tenantToken(tenant, "TENANT_ADMIN");
        String bob = newUser();
        String first = api.post(
                        "/api/v1/tenants/" + tenant + "/members", admin, Map.of("username", bob, "role", "MEMBER"))
                .json()
                .get("id")
                .asString();

        Api.Response declined = api.post("/api/v1/invitations/" + first + "/decline", userToken(bob));

        assertThat(declined.json().get("status").asString()).isEqualTo("DECLINED");
        assertThat(memberCount(tenant, bob)).isZero();
        String second = api.post(
                        "/api/v1/tenants/" + tenant + "/members", admin, Map.of("username", bob, "role", "VIEWER"))
                .json()
                .get("id")
                .asString();
        jdbc.sql("UPDATE member_invitation SET created_at = now() - interval '15 days', "
                        + "expires_at = now() - interval '1 day' WHERE id = ?::uuid")
                .param(second)
                .update();
        assertThat(api.get("/api/v1/invitations", userToken(bob))
                        .json()
                        .get("items")
                        .get(0)
                        .get("status")
                        .asString())
                .isEqualTo("EXPIRED");

        Api.Response late = api.post("/api/v1/invitations/" + second + "/accept", userToken(bob));

        assertThat(late.status()).isEqualTo(409);
        assertThat(late.json().get("code").asString()).isEqualTo("invitation_expired");
        assertThat(memberCount(tenant, bob)).isZero();

        // an expired invitation does not stand in the way of a new one
        Api.Response again =
                api.post("/api/v1/tenants/" + tenant + "/members", admin, Map.of("username", bob, "role", "VIEWER"));
        assertThat(again.status()).as(again.toString()).isEqualTo(202);
        assertThat(api.post("/api/v1/invitations/" + again.json().get("id").asString() + "/accept", userToken(bob))
                        .status())
                .isEqualTo(200);
        assertThat(memberCount(tenant, bob)).isEqualTo(1);
    }

    @Test
    void aPlatformAdminAddsAMemberDirectlyAndTheAuditSaysWho() {
        String tenant = newTenant();
        String bob = newUser();

        Api.Response added = api.post(
                "/api/v1/tenants/" + tenant + "/members", adminToken(), Map.of("username", bob, "role", "MEMBER"));

        assertThat(added.status()).isEqualTo(201);
        assertThat(memberCount(tenant, bob)).isEqualTo(1);
        assertThat(jdbc.sql("SELECT actor FROM audit_event WHERE tenant_slug = ? AND action = 'member.created' "
                                + "AND object_id = ?")
                        .params(tenant, bob)
                        .query(String.class)
                        .list())
                .containsExactly(ADMIN_CLIENT);
    }
}
