package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Project roles and project-scoped service accounts (issue 31, part 4): who manages a project's members, what a user
 * with only project roles in a tenant sees and books, a project admin deciding its project's bookings, and a service
 * account whose tokens act in one project only.
 */
class ProjectRolesTests extends BookingFixture {

    private String members(Setup s, String project) {
        return "/api/v1/tenants/" + s.tenant() + "/projects/" + project + "/members";
    }

    /** A project "serving" beside the fixture's "training". */
    private Setup withTwoProjects(int nodes) {
        Setup s = setup(nodes, 8, 32, false);
        newProject(s.tenant(), "serving");
        return s;
    }

    private void grant(Setup s, String project, String username, String role) {
        Api.Response put = api.put(members(s, project) + "/" + username, adminToken(), Map.of("role", role));
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
    }

    private static Map<String, Object> in(Map<String, Object> body, String project) {
        body.put("project", project);
        return body;
    }

    @Test
    void tenantAdminsAndTheProjectsAdminsManageItsMembersEachChangeAuditedAndEveryRefusalWritesNothing() {
        Setup s = withTwoProjects(1);
        String tenantAdmin = tenantToken(s.tenant(), "TENANT_ADMIN");
        String alice = newUser();
        String bob = newUser();
        String carol = newUser();

        Api.Response created =
                api.put(members(s, "training") + "/" + alice, tenantAdmin, Map.of("role", "PROJECT_MEMBER"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("role").asString()).isEqualTo("PROJECT_MEMBER");
        assertThat(created.json().get("project").asString()).isEqualTo("training");
        Api.Response changed =
                api.put(members(s, "training") + "/" + alice, tenantAdmin, Map.of("role", "PROJECT_ADMIN"));
        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
        assertThat(changed.json().get("role").asString()).isEqualTo("PROJECT_ADMIN");
        assertThat(audited("training/" + alice, "project-member.created")).isEqualTo(1);
        assertThat(audited("training/" + alice, "project-member.updated")).isEqualTo(1);

        // the project admin adds a member to their project
        String aliceToken = userToken(alice);
        assertThat(api.put(members(s, "training") + "/" + bob, aliceToken, Map.of("role", "PROJECT_MEMBER"))
                        .status())
                .isEqualTo(201);
        JsonNode listed = api.get(members(s, "training"), aliceToken).json();
        assertThat(listed.get("totalItems").asInt()).isEqualTo(2);
        assertThat(usernames(listed)).containsExactlyInAnyOrder(alice, bob);

        long before = writes(s);
        // not another project of the tenant (it does not exist for them), nor the tenant's members and quotas
        assertThat(api.put(members(s, "serving") + "/" + carol, aliceToken, Map.of("role", "PROJECT_MEMBER"))
                        .status())
                .isEqualTo(404);
        assertThat(api.get(members(s, "serving"), aliceToken).status()).isEqualTo(404);
        assertThat(api.post(
                                "/api/v1/tenants/" + s.tenant() + "/members",
                                aliceToken,
                                Map.of("username", carol, "role", "MEMBER"))
                        .status())
                .isEqualTo(404);
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/members", aliceToken)
                        .status())
                .isEqualTo(404);
        assertThat(api.put(
                                "/api/v1/tenants/" + s.tenant() + "/quota",
                                aliceToken,
                                Map.of("policies", List.of(policy(s.gpuType(), 8, 64, false))))
                        .status())
                .isEqualTo(404);
        assertThat(api.put(
                                "/api/v1/tenants/" + s.tenant() + "/projects/training/quota",
                                aliceToken,
                                Map.of("policies", List.of(Map.of("gpuType", s.gpuType(), "maxGpus", 8))))
                        .status())
                .isEqualTo(404);
        assertThat(api.post(
                                "/api/v1/tenants/" + s.tenant() + "/projects",
                                aliceToken,
                                Map.of("slug", "another", "displayName", "Another"))
                        .status())
                .isEqualTo(404);
        // a project member does not manage the members
        Api.Response notAdmin =
                api.put(members(s, "training") + "/" + carol, userToken(bob), Map.of("role", "PROJECT_MEMBER"));
        assertThat(notAdmin.status()).isEqualTo(403);
        assertThat(notAdmin.json().get("code").asString()).isEqualTo("project_admin_required");
        // nobody of that name; no such role; no such project; another tenant's admin; an auditor reads only
        Api.Response unknown =
                api.put(members(s, "training") + "/nosuchuser", aliceToken, Map.of("role", "PROJECT_MEMBER"));
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().get("code").asString()).isEqualTo("unknown_user");
        assertThat(api.put(members(s, "training") + "/" + carol, aliceToken, Map.of("role", "OWNER"))
                        .status())
                .isEqualTo(400);
        assertThat(api.put(members(s, "training") + "/" + carol, aliceToken, Map.of())
                        .status())
                .isEqualTo(400);
        assertThat(api.put(members(s, "nosuch") + "/" + carol, tenantAdmin, Map.of("role", "PROJECT_MEMBER"))
                        .status())
                .isEqualTo(404);
        String strangerAdmin = tenantToken(newTenant(), "TENANT_ADMIN");
        assertThat(api.put(members(s, "training") + "/" + carol, strangerAdmin, Map.of("role", "PROJECT_MEMBER"))
                        .status())
                .isEqualTo(404);
        assertThat(api.get(members(s, "training"), strangerAdmin).status()).isEqualTo(404);
        String auditor = userToken(newUser(PlatformRole.AUDITOR));
        assertThat(api.get(members(s, "training"), auditor)
                        .json()
                        .get("totalItems")
                        .asInt())
                .isEqualTo(2);
        assertThat(api.put(members(s, "training") + "/" + carol, auditor, Map.of("role", "PROJECT_MEMBER"))
                        .status())
                .isEqualTo(403);
        assertThat(api.delete(members(s, "training") + "/" + bob, auditor).status())
                .isEqualTo(403);
        assertThat(api.delete(members(s, "training") + "/" + bob, userToken(bob))
                        .status())
                .isEqualTo(403);
        assertThat(writes(s)).isEqualTo(before);

        assertThat(api.delete(members(s, "training") + "/" + bob, aliceToken).status())
                .isEqualTo(204);
        assertThat(audited("training/" + bob, "project-member.removed")).isEqualTo(1);
        assertThat(api.delete(members(s, "training") + "/" + bob, aliceToken).status())
                .isEqualTo(404);
        assertThat(usernames(api.get(members(s, "training"), tenantAdmin).json()))
                .containsExactly(alice);
    }

    @Test
    void aUserWithOnlyProjectRolesSeesAndBooksOnlyInTheirProjectsAndAViewerOnlyReads() {
        Setup s = withTwoProjects(3);
        String dana = newUser();
        String eve = newUser();
        grant(s, "training", dana, "PROJECT_MEMBER");
        grant(s, "training", eve, "PROJECT_VIEWER");
        String danaToken = userToken(dana);
        String eveToken = userToken(eve);
        String serving = createdId(book(s, in(body(s, 8, hour(30), hour(31)), "serving")));

        String training = createdId(
                api.post("/api/v1/tenants/" + s.tenant() + "/reservations", danaToken, body(s, 8, hour(30), hour(31))));
        long before = writesOf(s.tenant());
        Api.Response elsewhere = api.post(
                "/api/v1/tenants/" + s.tenant() + "/reservations",
                danaToken,
                in(body(s, 8, hour(32), hour(33)), "serving"));
        assertThat(elsewhere.status()).as(elsewhere.toString()).isEqualTo(403);
        assertThat(elsewhere.json().get("code").asString()).isEqualTo("project_not_allowed");
        assertThat(elsewhere.json().get("allowedProjects").toString()).isEqualTo("[\"training\"]");
        Api.Response quoteElsewhere = api.post(
                "/api/v1/tenants/" + s.tenant() + "/quotes", danaToken, in(body(s, 8, hour(32), hour(33)), "serving"));
        assertThat(quoteElsewhere.json().get("code").asString()).isEqualTo("project_not_allowed");
        assertThat(api.post("/api/v1/tenants/" + s.tenant() + "/quotes", danaToken, body(s, 8, hour(32), hour(33)))
                        .json()
                        .get("fits")
                        .asBoolean())
                .isTrue();

        // reads: their projects' reservations only
        JsonNode listed = api.get("/api/v1/tenants/" + s.tenant() + "/reservations", danaToken)
                .json();
        assertThat(listed.get("totalItems").asInt()).isEqualTo(1);
        assertThat(listed.get("items").get(0).get("id").asString()).isEqualTo(training);
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/reservations?project=serving", danaToken)
                        .json()
                        .get("totalItems")
                        .asInt())
                .isZero();
        assertThat(api.get(path(s, serving), danaToken).status()).isEqualTo(404);
        assertThat(api.post(path(s, serving) + "/cancel", danaToken).status()).isEqualTo(404);
        assertThat(api.get(path(s, training), danaToken).status()).isEqualTo(200);
        // the tenant's quota, its standing and the pool's calendar read as a member reads them; its projects, theirs
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/quota", danaToken)
                        .status())
                .isEqualTo(200);
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/quota/standing?gpuType=" + s.gpuType(), danaToken)
                        .status())
                .isEqualTo(200);
        assertThat(api.get("/api/v1/capacity?pool=" + s.pool(), danaToken).status())
                .isEqualTo(200);
        JsonNode projects = api.get("/api/v1/tenants/" + s.tenant() + "/projects", danaToken)
                .json();
        assertThat(projects.get("totalItems").asInt()).isEqualTo(1);
        assertThat(projects.get("items").get(0).get("slug").asString()).isEqualTo("training");
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/projects/serving", danaToken)
                        .status())
                .isEqualTo(404);
        assertThat(api.get("/api/v1/tenants", danaToken)
                        .json()
                        .get("items")
                        .get(0)
                        .get("slug")
                        .asString())
                .isEqualTo(s.tenant());
        JsonNode me = api.get("/api/v1/me", danaToken).json();
        assertThat(me.get("tenants").size()).isZero();
        assertThat(me.get("projects").get(0).get("role").asString()).isEqualTo("PROJECT_MEMBER");
        // nothing tenant-wide beyond that
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/usage", danaToken)
                        .status())
                .isEqualTo(404);
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/service-accounts", danaToken)
                        .status())
                .isEqualTo(404);

        // a project viewer reads the project's reservations, and books or cancels nothing
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/reservations", eveToken)
                        .json()
                        .get("totalItems")
                        .asInt())
                .isEqualTo(1);
        Api.Response viewerBooks =
                api.post("/api/v1/tenants/" + s.tenant() + "/reservations", eveToken, body(s, 8, hour(34), hour(35)));
        assertThat(viewerBooks.status()).isEqualTo(403);
        assertThat(viewerBooks.json().get("code").asString()).isEqualTo("project_not_allowed");
        assertThat(viewerBooks.json().get("allowedProjects").size()).isZero();
        Api.Response viewerCancels = api.post(path(s, training) + "/cancel", eveToken);
        assertThat(viewerCancels.status()).isEqualTo(403);
        assertThat(viewerCancels.json().get("code").asString()).isEqualTo("project_not_allowed");
        assertThat(writesOf(s.tenant())).isEqualTo(before);

        // a tenant member keeps seeing the whole tenant; the project member cancels their own project's booking
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/reservations", s.token())
                        .json()
                        .get("totalItems")
                        .asInt())
                .isEqualTo(2);
        assertThat(api.post(path(s, training) + "/cancel", danaToken).status()).isEqualTo(200);
        // and once the role is taken away, the tenant is a stranger again
        assertThat(api.delete(members(s, "training") + "/" + dana, adminToken()).status())
                .isEqualTo(204);
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/reservations", danaToken)
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aProjectAdminDecidesTheirProjectsWaitingBookingsButNotAnotherProjectsNorTheirOwn() {
        Setup s = withTwoProjects(3);
        Map<String, Object> policy = policy(s.gpuType(), 8, 32, false);
        policy.put("approval", Map.of("aboveGpuHours", 10));
        setQuota(s.tenant(), policy);
        String alice = newUser();
        grant(s, "training", alice, "PROJECT_ADMIN");
        String aliceToken = userToken(alice);

        String theirs = createdId(book(s, 8, hour(30), hour(32)));
        String other = createdId(book(s, in(body(s, 8, hour(30), hour(32)), "serving")));
        String own = createdId(api.post(
                "/api/v1/tenants/" + s.tenant() + "/reservations", aliceToken, body(s, 8, hour(40), hour(42))));
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/reservations?status=PENDING_APPROVAL", aliceToken)
                        .json()
                        .get("totalItems")
                        .asInt())
                .isEqualTo(2);

        Api.Response notTheirs = api.post(path(s, other) + "/approve", aliceToken, Map.of());
        assertThat(notTheirs.status()).isEqualTo(404);
        assertThat(api.post(path(s, other) + "/deny", aliceToken, Map.of("reason", "no"))
                        .status())
                .isEqualTo(404);
        assertThat(api.post(path(s, own) + "/approve", aliceToken, Map.of()).status())
                .isEqualTo(403);
        // a project member of the project does not decide either
        String bob = newUser();
        grant(s, "training", bob, "PROJECT_MEMBER");
        assertThat(api.post(path(s, theirs) + "/approve", userToken(bob), Map.of())
                        .status())
                .isEqualTo(403);
        assertThat(audited(other, "reservation.approved")
                        + audited(other, "reservation.denied")
                        + audited(own, "reservation.approved")
                        + audited(theirs, "reservation.approved"))
                .isZero();

        Api.Response approved = api.post(path(s, theirs) + "/approve", aliceToken, Map.of("reason", "planned"));
        assertThat(approved.status()).as(approved.toString()).isEqualTo(200);
        assertThat(approved.json().get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(audited(theirs, "reservation.approved")).isEqualTo(1);
        assertThat(api.get(path(s, other), s.token()).json().get("status").asString())
                .isEqualTo("PENDING_APPROVAL");
        // a tenant admin still decides the other project's, and the project admin's own
        String tenantAdmin = tenantToken(s.tenant(), "TENANT_ADMIN");
        assertThat(api.post(path(s, other) + "/deny", tenantAdmin, Map.of("reason", "not now"))
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("DENIED");
        assertThat(api.post(path(s, own) + "/approve", tenantAdmin, Map.of())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("CONFIRMED");
    }

    @Test
    void aServiceAccountScopedToAProjectSeesAndBooksOnlyThere() {
        Setup s = withTwoProjects(3);
        String accounts = "/api/v1/tenants/" + s.tenant() + "/service-accounts";
        String tenantAdmin = tenantToken(s.tenant(), "TENANT_ADMIN");
        long before = jdbc.sql("SELECT count(*) FROM service_account WHERE tenant_slug = ?")
                .param(s.tenant())
                .query(Long.class)
                .single();
        Api.Response noSuch = api.post(accounts, tenantAdmin, Map.of("name", "ci", "project", "nosuch"));
        assertThat(noSuch.status()).isEqualTo(400);
        assertThat(noSuch.body()).contains("project");
        Api.Response asAdmin =
                api.post(accounts, tenantAdmin, Map.of("name", "ci", "project", "training", "role", "TENANT_ADMIN"));
        assertThat(asAdmin.status()).isEqualTo(400);
        assertThat(api.post(
                                accounts,
                                tenantToken(newTenant(), "TENANT_ADMIN"),
                                Map.of("name", "ci", "project", "training"))
                        .status())
                .isEqualTo(404);
        assertThat(jdbc.sql("SELECT count(*) FROM service_account WHERE tenant_slug = ?")
                        .param(s.tenant())
                        .query(Long.class)
                        .single())
                .isEqualTo(before);

        Api.Response created = api.post(accounts, tenantAdmin, Map.of("name", "training-ci", "project", "training"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("project").asString()).isEqualTo("training");
        assertThat(created.json().get("role").asString()).isEqualTo("MEMBER");
        String id = created.json().get("id").asString();
        assertThat(api.get(accounts + "/" + id, tenantAdmin)
                        .json()
                        .get("project")
                        .asString())
                .isEqualTo("training");
        assertThat(jdbc.sql(
                                "SELECT count(*) FROM audit_event WHERE object_id = ? AND action = 'service-account.created'"
                                        + " AND after ->> 'project' = 'training'")
                        .param(id)
                        .query(Long.class)
                        .single())
                .isEqualTo(1);
        String token = api.token(
                created.json().get("clientId").asString(),
                created.json().get("clientSecret").asString());

        String serving = createdId(book(s, in(body(s, 8, hour(30), hour(31)), "serving")));
        String training = createdId(
                api.post("/api/v1/tenants/" + s.tenant() + "/reservations", token, body(s, 8, hour(30), hour(31))));
        long writes = writesOf(s.tenant());
        Api.Response elsewhere = api.post(
                "/api/v1/tenants/" + s.tenant() + "/reservations",
                token,
                in(body(s, 8, hour(32), hour(33)), "serving"));
        assertThat(elsewhere.status()).isEqualTo(403);
        assertThat(elsewhere.json().get("code").asString()).isEqualTo("project_not_allowed");
        assertThat(elsewhere.json().get("allowedProjects").toString()).isEqualTo("[\"training\"]");
        assertThat(api.post(path(s, serving) + "/cancel", token).status()).isEqualTo(404);
        assertThat(writesOf(s.tenant())).isEqualTo(writes);
        JsonNode listed = api.get("/api/v1/tenants/" + s.tenant() + "/reservations", token)
                .json();
        assertThat(listed.get("totalItems").asInt()).isEqualTo(1);
        assertThat(listed.get("items").get(0).get("id").asString()).isEqualTo(training);
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/members", token).status())
                .isEqualTo(404);
        assertThat(api.get("/api/v1/me", token)
                        .json()
                        .get("projects")
                        .get(0)
                        .get("project")
                        .asString())
                .isEqualTo("training");

        // scoped as a viewer, it reads there and books nothing
        Api.Response viewer = api.post(
                accounts, tenantAdmin, Map.of("name", "training-dashboards", "project", "training", "role", "VIEWER"));
        String viewerToken = api.token(
                viewer.json().get("clientId").asString(),
                viewer.json().get("clientSecret").asString());
        assertThat(api.get(path(s, training), viewerToken).status()).isEqualTo(200);
        assertThat(api.post(
                                "/api/v1/tenants/" + s.tenant() + "/reservations",
                                viewerToken,
                                body(s, 8, hour(34), hour(35)))
                        .status())
                .isEqualTo(403);
        assertThat(writesOf(s.tenant())).isEqualTo(writes);
    }

    private static List<String> usernames(JsonNode page) {
        List<String> names = new ArrayList<>();
        page.get("items").forEach(item -> names.add(item.get("username").asString()));
        return names;
    }

    /** Project members and audit rows of the tenant: what a refused change must leave as it was. */
    private long writes(Setup s) {
        return jdbc.sql("""
				SELECT (SELECT count(*) FROM project_member m JOIN project p ON p.id = m.project_id
				        JOIN tenant t ON t.id = p.tenant_id WHERE t.slug = :t)
				     + (SELECT count(*) FROM audit_event WHERE tenant_slug = :t)
				     + (SELECT count(*) FROM member m JOIN tenant t ON t.id = m.tenant_id WHERE t.slug = :t)
				     + (SELECT count(*) FROM member_invitation i JOIN tenant t ON t.id = i.tenant_id WHERE t.slug = :t)
				     + (SELECT count(*) FROM project p JOIN tenant t ON t.id = p.tenant_id WHERE t.slug = :t)""").param("t", s.tenant()).query(Long.class).single();
    }

    private long audited(String objectId, String action) {
        return jdbc.sql("SELECT count(*) FROM audit_event WHERE object_id = ? AND action = ?")
                .params(objectId, action)
                .query(Long.class)
                .single();
    }
}
