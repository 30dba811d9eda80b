package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import dev.allot.support.BrowserTest;
import java.time.YearMonth;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class UsageBrowserTests extends BrowserTest {

    @Test
    void aTenantAdminSeesThisMonthsUsageAndDownloadsTheStatementAsCsv() {
        String tenant = newTenant();
        String admin = newUser();
        addMember(tenant, admin, "TENANT_ADMIN");
        signIn(admin);

        find("#nav-usage").click();
        String month = YearMonth.now(ZoneOffset.UTC).toString();
        assertThat(h1()).startsWith("Usage of").endsWith(month);
        assertThat(exists("#no-usage")).isTrue();
        assertThat(exists("#next-month")).isFalse();
        screenshot("usage");

        String csvLink = find("#statement-csv").getAttribute("href");
        String session = browser.manage().getCookieNamed("SESSION").getValue();
        Api.Response csv = api.get(
                csvLink.substring(api.baseUrl().length()), null, "Cookie", "SESSION=" + session, "Accept", "text/html");
        assertThat(csv.status()).isEqualTo(200);
        assertThat(csv.contentType()).startsWith("text/csv");
        assertThat(csv.body()).startsWith("line,month,reference,project,gpuType,rateClass");

        find("#previous-month").click();
        assertThat(h1()).endsWith(YearMonth.now(ZoneOffset.UTC).minusMonths(1).toString());
        assertThat(exists("#next-month")).isTrue();
    }

    @Test
    void aStrangerGetsTheNotFoundPageAndAFutureMonthIsRefusedOnThePage() {
        String tenant = newTenant();
        String member = newUser();
        addMember(tenant, member, "VIEWER");
        String stranger = newUser();
        addMember(newTenant(), stranger, "TENANT_ADMIN");

        signIn(member);
        open("/tenants/" + tenant + "/usage?month=2999-01");
        assertThat(find("#month-error").getText()).contains("YYYY-MM");

        signIn(stranger);
        open("/tenants/" + tenant + "/usage");
        assertThat(h1()).doesNotStartWith("Usage of");
    }
}
