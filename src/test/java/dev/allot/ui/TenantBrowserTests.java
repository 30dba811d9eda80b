package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.BrowserTest;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.Select;

class TenantBrowserTests extends BrowserTest {

    /**
     * A tenant admin's "Add member" is an invitation (issue 28, finding 5): the colleague is a member only once they
     * accept it on their Invitations page, which the header links to while it waits.
     */
    @Test
    void aTenantAdminInvitesAMemberWhoAcceptsThenChangesTheRoleAndRemovesThem() {
        String tenant = newTenant();
        String admin = newUser();
        String colleague = newUser();
        addMember(tenant, admin, "TENANT_ADMIN");
        signIn(admin);

        find("#nav-team").click();
        find("#tab-members").click();
        assertThat(h1()).startsWith("Members");
        find("#username").sendKeys(colleague);
        new Select(find("#role")).selectByValue("VIEWER");
        submit("#add-member-submit");
        assertThat(find("#notice").getText())
                .isEqualTo(
                        "Invited " + colleague + " as viewer: they join when they accept, on their Invitations page.");
        assertThat(memberCount(tenant)).isEqualTo(1);

        signIn(colleague);
        assertThat(find("#nav-invitations").getText()).isEqualTo("Invitations (1)");
        find("#nav-invitations").click();
        assertThat(find("#invitations").getText()).contains(tenant, "Viewer");
        submit("#invitations .accept-invitation");
        assertThat(find("#notice").getText()).isEqualTo("You joined " + tenant + " as viewer.");
        assertThat(exists("#nav-invitations")).isFalse();
        assertThat(role(tenant, colleague)).isEqualTo("VIEWER");

        signIn(admin);
        open("/tenants/" + tenant + "/members");

        String row = "tr[data-username='" + colleague + "']";
        new Select(find(row + " select")).selectByValue("MEMBER");
        submit(row + " .change-role");
        assertThat(role(tenant, colleague)).isEqualTo("MEMBER");

        find(row + " details summary").click();
        submit(row + " .remove-member");
        assertThat(find("#notice").getText()).isEqualTo("Removed " + colleague + " from the tenant.");
        assertThat(exists(row)).isFalse();
    }

    @Test
    void aBadUsernameIsShownNextToTheFieldAndAddsNobody() {
        String tenant = addAsTenantAdmin("no spaces allowed");
        assertThat(find("#username-error").getText()).startsWith("Use letters");
        assertThat(memberCount(tenant)).isEqualTo(1);
    }

    @Test
    void addingSomeoneWhoIsNotAUserIsRefusedNextToTheField() {
        String tenant = addAsTenantAdmin("nosuchuser");
        assertThat(find("#username-error").getText()).startsWith("No user is named nosuchuser.");
        assertThat(find("#username").getDomProperty("value")).isEqualTo("nosuchuser");
        assertThat(memberCount(tenant)).isEqualTo(1);
    }

    @Test
    void aTenantAdminCreatesAProjectAndAMemberOnlyReadsThem() {
        String tenant = newTenant();
        String admin = newUser();
        String member = newUser();
        addMember(tenant, admin, "TENANT_ADMIN");
        addMember(tenant, member, "MEMBER");
        signIn(admin);
        open("/tenants/" + tenant + "/projects");
        find("#slug").sendKeys("fine-tune");
        find("#displayName").sendKeys("Fine-tuning");
        submit("#create-project-submit");
        assertThat(find("#projects").getText()).contains("Fine-tuning", "fine-tune");

        signIn(member);
        open("/tenants/" + tenant + "/projects");
        assertThat(find("#projects").getText()).contains("fine-tune");
        assertThat(exists("#create-project")).isFalse();
        open("/tenants/" + tenant + "/members");
        assertThat(exists("#add-member")).isFalse();
        assertThat(exists(".change-role")).isFalse();
    }

    @Test
    void aTenantAdminCreatesAServiceAccountSeesItsSecretOnceAndRevokesIt() {
        String tenant = newTenant();
        String admin = newUser();
        addMember(tenant, admin, "TENANT_ADMIN");
        signIn(admin);
        open("/tenants/" + tenant + "/service-accounts");

        find("#name").sendKeys("nightly pipeline");
        submit("#create-service-account-submit");
        String clientId = find("#client-id").getAttribute("value");
        String secret = find("#client-secret").getAttribute("value");
        assertThat(secret).hasSizeGreaterThan(30);
        assertThat(find("#curl-example").getAttribute("value"))
                .contains(clientId + ":" + secret, api.baseUrl() + "/oauth2/token", api.baseUrl() + "/api/v1/me");
        screenshot("laptop-service-account-created");
        find("#copy-secret").click();
        String copied = waitFor((WebDriver d) -> find(".copy-status").getText().isEmpty()
                ? null
                : find(".copy-status").getText());
        assertThat(copied).as("the copy button reports what it did").isNotBlank();

        String token = api.token(clientId, secret);
        assertThat(api.get("/api/v1/me", token).json().get("subject").asString())
                .isEqualTo(clientId);

        open("/tenants/" + tenant + "/service-accounts");
        assertThat(exists("#client-secret")).isFalse();
        assertThat(browser.getPageSource()).doesNotContain(secret);
        String row = "tr[data-client-id='" + clientId + "']";
        assertThat(find(row).getText()).contains("nightly pipeline", "Active");

        find(row + " details summary").click();
        submit(row + " .revoke");
        assertThat(find(row + " .badge").getText()).isEqualTo("Revoked");
        assertThat(api.tokenResponse(clientId, secret).status()).isEqualTo(401);
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void aServiceAccountsExpiryDateIsTheEndOfThatDayInTheBrowsersZoneAndShownInIt(int width) {
        sized(width);
        ZoneId tokyo = ZoneId.of("Asia/Tokyo");
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", tokyo.getId()));
        String tenant = newTenant();
        String admin = newUser();
        addMember(tenant, admin, "TENANT_ADMIN");
        signIn(admin);
        open("/tenants/" + tenant + "/service-accounts");
        assertThat(find("#expiresOn-help").getText()).contains("Asia/Tokyo");
        LocalDate on = LocalDate.now(tokyo).plusDays(40);
        find("#name").sendKeys("expiring pipeline");
        browser.executeScript("document.getElementById('expiresOn').value = arguments[0]", on.toString());
        submit("#create-service-account-submit");
        String clientId = find("#client-id").getAttribute("value");

        Instant expires = jdbc.sql("SELECT expires_at FROM service_account WHERE client_id = ?")
                .param(clientId)
                .query(Timestamp.class)
                .single()
                .toInstant();
        assertThat(expires).isEqualTo(on.plusDays(1).atStartOfDay(tokyo).toInstant());
        open("/tenants/" + tenant + "/service-accounts");
        assertThat(find("tr[data-client-id='" + clientId + "']").getText())
                .contains("until " + on.plusDays(1) + " 00:00 GMT+9");
    }

    @Test
    void anEmptyServiceAccountNameIsRefusedNextToTheField() {
        String tenant = newTenant();
        String admin = newUser();
        addMember(tenant, admin, "TENANT_ADMIN");
        signIn(admin);
        open("/tenants/" + tenant + "/service-accounts");
        find("#expiresOn").sendKeys("01012020");
        submit("#create-service-account-submit");

        assertThat(find("#name-error").getText()).isEqualTo("Enter a name");
        assertThat(jdbc.sql("SELECT count(*) FROM service_account WHERE tenant_slug = ?")
                        .param(tenant)
                        .query(Long.class)
                        .single())
                .isZero();
    }

    private String role(String tenant, String username) {
        return jdbc.sql(
                        "SELECT m.role FROM member m JOIN tenant t ON t.id = m.tenant_id WHERE t.slug = ? AND m.subject = ?")
                .params(tenant, username)
                .query(String.class)
                .single();
    }

    /** A tenant admin of a new tenant types {@code username} into the Add member form and submits it. */
    private String addAsTenantAdmin(String username) {
        String tenant = newTenant();
        String admin = newUser();
        addMember(tenant, admin, "TENANT_ADMIN");
        signIn(admin);
        open("/tenants/" + tenant + "/members");
        find("#username").sendKeys(username);
        submit("#add-member-submit");
        return tenant;
    }

    private long memberCount(String tenant) {
        return jdbc.sql("SELECT count(*) FROM member m JOIN tenant t ON t.id = m.tenant_id WHERE t.slug = ?")
                .param(tenant)
                .query(Long.class)
                .single();
    }
}
