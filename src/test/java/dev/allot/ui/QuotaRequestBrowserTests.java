package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.support.ui.Select;

/**
 * Quota requests in the browser (issue 31, part 2): a team admin asks on the team's Quota page, a platform admin
 * approves or denies each on Admin → Quotas, and the team reads the answer; members see the requests only.
 */
class QuotaRequestBrowserTests extends ConsoleBrowserTest {

    @Test
    void aTeamAdminAsksForMoreAndAPlatformAdminApprovesItWhichChangesTheQuota() {
        Team team = team(2, 0, 8, false);
        String teamAdmin = newUser();
        addMember(team.tenant(), teamAdmin, "TENANT_ADMIN");

        signIn(teamAdmin);
        open("/tenants/" + team.tenant() + "/quota");
        assertThat(find("#no-quota-requests").getText()).isEqualTo("Your team has not asked for a quota change yet.");
        new Select(find("#request-gpuType")).selectByValue(team.gpuType());
        find("#request-guaranteedGpus").sendKeys("8");
        find("#request-maxGpus").sendKeys("4");
        submit("#request-submit");
        assertThat(find("#request-maxGpus-error").getText()).isEqualTo("Must be at least the guaranteed GPUs (8)");
        assertThat(find("#request-reason-error").getText()).startsWith("Say why your team needs it");
        assertThat(find("#request-reason").getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(exists("#request-guaranteedGpus-error")).isFalse();
        assertThat(requests(team.tenant())).isZero();

        find("#request-maxGpus").clear();
        find("#request-maxGpus").sendKeys("16");
        find("#request-reason").sendKeys("The spring training runs");
        submit("#request-submit");
        assertThat(find("#notice").getText())
                .isEqualTo("Asked for 8 guaranteed, up to 16 " + team.gpuType() + " GPUs: a platform admin decides.");
        String id = pendingOf(team.tenant());
        assertThat(find("tr[data-id='" + id + "'] .request-status").getText()).isEqualTo("Pending");
        assertThat(find("tr[data-id='" + id + "']").getText())
                .contains(team.gpuType() + ": 8 guaranteed, up to 16", "The spring training runs", "by " + teamAdmin);
        assertThat(exists("#quota-request-form")).isFalse();
        assertThat(find("#request-waiting").getText()).startsWith("Your team's request waits");
        fullScreenshot("laptop-team_quota_requests");

        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/quotas");
        String row = "#pending-quota-requests article[data-id='" + id + "']";
        assertThat(find(row + " h3").getText()).isEqualTo(team.tenant());
        assertThat(find(row + " .asked").getText()).isEqualTo("Asks 8 guaranteed, up to 16");
        assertThat(find(row + " .held").getText()).isEqualTo("Holds 0 guaranteed, up to 8 now");
        assertThat(find(row + " .why").getText()).isEqualTo("The spring training runs");
        assertThat(find(row).getText()).contains("Asked by " + teamAdmin);
        assertThat(find(row + " time").getAttribute("datetime")).isNotBlank();
        fullScreenshot("laptop-admin_quota_requests");
        submit("#approve-" + id);
        assertThat(find("#notice").getText())
                .isEqualTo("Approved the quota request of " + team.tenant() + ": its quota is changed.");
        assertThat(exists(row)).isFalse();
        var policy = api.get("/api/v1/tenants/" + team.tenant() + "/quota", adminToken())
                .json()
                .get("policies")
                .get(0);
        assertThat(policy.get("guaranteedGpus").asInt()).isEqualTo(8);
        assertThat(policy.get("maxGpus").asInt()).isEqualTo(16);
        // the rest of the policy is kept
        assertThat(policy.get("maxWindow").asString()).isEqualTo("PT720H");

        signIn(teamAdmin);
        open("/tenants/" + team.tenant() + "/quota");
        assertThat(find("tr[data-id='" + id + "'] .request-status").getText()).isEqualTo("Approved");
        assertThat(findAll("#policy-" + team.gpuType() + " dd").stream()
                        .limit(2)
                        .map(dd -> dd.getText()))
                .containsExactly("8", "16");
        assertThat(exists("#quota-request-form")).isTrue();
    }

    @Test
    void aDenialNeedsAReasonWhichTheTeamAdminThenReads() {
        Team team = team(2, 0, 8, false);
        String teamAdmin = newUser();
        addMember(team.tenant(), teamAdmin, "TENANT_ADMIN");
        String id = ask(team, 0, 32);

        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/quotas");
        submit("#deny-" + id);
        assertThat(find("#deny-reason-" + id + "-error").getText()).startsWith("Say why you deny it");
        assertThat(find("#deny-reason-" + id).getAttribute("aria-invalid")).isEqualTo("true");
        screenshot("laptop-admin_quota_request_denial_reason");
        assertThat(count("SELECT count(*) FROM quota_request WHERE id = ?::uuid AND status = 'PENDING'", id))
                .isEqualTo(1);

        find("#deny-reason-" + id).sendKeys("Ask again next quarter");
        submit("#deny-" + id);
        assertThat(find("#notice").getText()).startsWith("Denied the quota request of " + team.tenant());

        signIn(teamAdmin);
        open("/tenants/" + team.tenant() + "/quota");
        assertThat(find("tr[data-id='" + id + "'] .request-status").getText()).isEqualTo("Denied");
        assertThat(find("tr[data-id='" + id + "'] .request-answer").getText()).endsWith(": Ask again next quarter");
        assertThat(find("tr[data-id='" + id + "'] .request-answer time").getAttribute("datetime"))
                .isNotBlank();
    }

    @Test
    void anApprovalBeyondCapacityIsRefusedOnItsRowAndTheRequestStaysPending() {
        Team team = team(1, 0, 8, false);
        String id = ask(team, 16, 16);

        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/quotas");
        submit("#approve-" + id);
        assertThat(find("#request-error-" + id).getText()).contains("more than its healthy capacity of 8 GPUs");
        assertThat(count("SELECT count(*) FROM quota_request WHERE id = ?::uuid AND status = 'PENDING'", id))
                .isEqualTo(1);
    }

    @Test
    void aMemberSeesTheRequestsButNoFormAndATeamAdminWithdrawsOne() {
        Team team = team(2, 0, 8, false);
        String id = ask(team, 0, 16);

        signIn(team.member());
        open("/tenants/" + team.tenant() + "/quota");
        assertThat(find("tr[data-id='" + id + "'] .request-status").getText()).isEqualTo("Pending");
        assertThat(exists("#quota-request-form")).isFalse();
        assertThat(exists("#withdraw-" + id)).isFalse();

        String teamAdmin = newUser();
        addMember(team.tenant(), teamAdmin, "TENANT_ADMIN");
        signIn(teamAdmin);
        open("/tenants/" + team.tenant() + "/quota");
        submit("#withdraw-" + id);
        assertThat(find("#notice").getText()).isEqualTo("Withdrew the quota request: you may ask for another.");
        assertThat(find("tr[data-id='" + id + "'] .request-status").getText()).isEqualTo("Withdrawn");
        assertThat(exists("#quota-request-form")).isTrue();
    }

    /** The team's admin asks for this of the team's GPU type through the API; answers the request's id. */
    private String ask(Team team, int guaranteed, int max) {
        Api.Response asked = api.post(
                "/api/v1/tenants/" + team.tenant() + "/quota-requests",
                tenantToken(team.tenant(), "TENANT_ADMIN"),
                Map.of(
                        "policies",
                        List.of(policy(team.gpuType(), guaranteed, max, false)),
                        "reason",
                        "The spring training runs"));
        if (asked.status() != 201) {
            throw new AssertionError("Not asked: " + asked);
        }
        return asked.json().get("id").asString();
    }

    private long requests(String tenant) {
        return count("SELECT count(*) FROM quota_request WHERE tenant_slug = ?", tenant);
    }

    private String pendingOf(String tenant) {
        return jdbc.sql("SELECT id::text FROM quota_request WHERE tenant_slug = ? AND status = 'PENDING'")
                .param(tenant)
                .query(String.class)
                .single();
    }
}
