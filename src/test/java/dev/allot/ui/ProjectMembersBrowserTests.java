package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * Project roles in the browser (issue 31): on the Projects page a project admin, who has no role in the team itself,
 * sees only their project and adds, changes and removes its members; a team admin manages every project's.
 */
class ProjectMembersBrowserTests extends ConsoleBrowserTest {

    @Test
    void aProjectAdminAddsChangesAndRemovesTheirProjectsMembersOnTheProjectsPage() {
        Team team = team(1, 8, 16, false);
        newProject(team.tenant(), "serving");
        String lead = newUser();
        String newcomer = newUser();
        assertThat(api.put(
                                "/api/v1/tenants/" + team.tenant() + "/projects/training/members/" + lead,
                                adminToken(),
                                Map.of("role", "PROJECT_ADMIN"))
                        .status())
                .isEqualTo(201);

        // only a project role in the team: the team is theirs in the header, and only their project is listed
        signIn(lead);
        open("/tenants/" + team.tenant() + "/projects");
        assertThat(find("#nav-team").getAttribute("href")).endsWith("/tenants/" + team.tenant() + "/projects");
        assertThat(findAll("#projects tbody tr").stream()
                        .map(row -> row.getAttribute("data-project"))
                        .toList())
                .containsExactly("training");
        assertThat(exists("#create-project")).isFalse();
        assertThat(exists("#tab-members"))
                .as("the team's members are not theirs to see")
                .isFalse();
        assertThat(exists("#tab-quota")).isTrue();

        find("tr[data-project='training'] details.manage-members summary").click();
        find("#pmember-training").sendKeys(newcomer);
        new Select(find("#pmember-role-training")).selectByValue("PROJECT_VIEWER");
        submit("tr[data-project='training'] .add-project-member-submit");
        assertThat(find("#notice").getText()).isEqualTo(newcomer + " joined project training as project viewer.");
        assertThat(role(team, newcomer)).isEqualTo("PROJECT_VIEWER");

        find("tr[data-project='training'] details.manage-members summary").click();
        waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("prole-training-" + newcomer)));
        new Select(find("#prole-training-" + newcomer)).selectByValue("PROJECT_MEMBER");
        submit("li[data-username='" + newcomer + "'] .change-project-role");
        assertThat(find("#notice").getText()).isEqualTo(newcomer + " is now a project member of project training.");
        assertThat(role(team, newcomer)).isEqualTo("PROJECT_MEMBER");

        // a name nobody has is refused next to the field, and adds nobody
        find("tr[data-project='training'] details.manage-members summary").click();
        find("#pmember-training").sendKeys("nosuchuser");
        submit("tr[data-project='training'] .add-project-member-submit");
        assertThat(find("#pmember-training-error").getText()).startsWith("No user is named nosuchuser.");
        assertThat(find("#pmember-training").getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(count("SELECT count(*) FROM project_member WHERE subject = 'nosuchuser'"))
                .isZero();

        submit("li[data-username='" + newcomer + "'] .remove-project-member");
        assertThat(find("#notice").getText()).isEqualTo("Removed " + newcomer + " from project training.");
        assertThat(count("SELECT count(*) FROM project_member WHERE subject = ?", newcomer))
                .isZero();
        assertThat(count(
                        "SELECT count(*) FROM audit_event WHERE tenant_slug = ? AND object_type = 'project-member'",
                        team.tenant()))
                .isEqualTo(4);

        // a team admin manages every project's members
        String admin = newUser();
        addMember(team.tenant(), admin, "TENANT_ADMIN");
        signIn(admin);
        open("/tenants/" + team.tenant() + "/projects");
        assertThat(findAll("#projects details.manage-members")).hasSize(2);
        assertThat(exists("#tab-members")).isTrue();
        find("tr[data-project='serving'] details.manage-members summary").click();
        find("#pmember-serving").sendKeys(newcomer);
        submit("tr[data-project='serving'] .add-project-member-submit");
        assertThat(find("#notice").getText()).isEqualTo(newcomer + " joined project serving as project member.");
        assertThat(findAll("tr[data-project='serving'] li[data-username='" + newcomer + "']"))
                .hasSize(1);
    }

    @Test
    void aTeamAdminScopesAServiceAccountToOneProject() {
        Team team = team(1, 8, 16, false);
        newProject(team.tenant(), "serving");
        String admin = newUser();
        addMember(team.tenant(), admin, "TENANT_ADMIN");
        signIn(admin);
        open("/tenants/" + team.tenant() + "/service-accounts");
        find("#name").sendKeys("serving-ci");
        new Select(find("#sa-project")).selectByValue("serving");
        submit("#create-service-account-submit");
        assertThat(find("#created-heading").getText()).isEqualTo("Service account serving-ci created");
        String clientId = find("#client-id").getAttribute("value");
        assertThat(find("tr[data-client-id='" + clientId + "'] .sa-project").getText())
                .isEqualTo("serving");
        assertThat(count(
                        "SELECT count(*) FROM service_account WHERE client_id = ? AND project = 'serving' "
                                + "AND role = 'MEMBER'",
                        clientId))
                .isEqualTo(1);

        // a team admin account cannot be scoped to a project: said next to the role, and nothing is created
        find("#name").sendKeys("serving-admin");
        new Select(find("#sa-role")).selectByValue("TENANT_ADMIN");
        new Select(find("#sa-project")).selectByValue("serving");
        submit("#create-service-account-submit");
        assertThat(find("#sa-role-error").getText()).contains("not a TENANT_ADMIN");
        assertThat(count("SELECT count(*) FROM service_account WHERE name = 'serving-admin'"))
                .isZero();
    }

    private String role(Team team, String username) {
        return jdbc.sql("""
				SELECT m.role FROM project_member m JOIN project p ON p.id = m.project_id
				JOIN tenant t ON t.id = p.tenant_id WHERE t.slug = ? AND p.slug = 'training' AND m.subject = ?""").params(team.tenant(), username).query(String.class).single();
    }
}
