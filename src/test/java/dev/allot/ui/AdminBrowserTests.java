package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import dev.allot.support.BrowserTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.support.ui.ExpectedConditions;

class AdminBrowserTests extends BrowserTest {

    @Test
    void aPlatformAdminSeesAdminAndCreatesRenamesAndSuspendsATenant() {
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        find("#nav-admin").click();
        assertThat(h1()).isEqualTo("Tenants");

        String slug = unique("a0ui"); // sorts first, so the row is on the first page however many tenants exist
        find("#slug").sendKeys(slug);
        find("#displayName").sendKeys("<b>Bold</b> Research");
        submit("#create-tenant-submit");

        assertThat(find("#notice").getText()).isEqualTo("Created tenant <b>Bold</b> Research.");
        String row = "tr[data-slug='" + slug + "']";
        assertThat(find(row + " td").getText()).as("display names are escaped").isEqualTo("<b>Bold</b> Research");
        assertThat(jdbc.sql("SELECT status FROM tenant WHERE slug = ?")
                        .param(slug)
                        .query(String.class)
                        .single())
                .isEqualTo("ACTIVE");

        find(row + " summary").click();
        find("#rename-" + slug).clear();
        find("#rename-" + slug).sendKeys("Renamed Research");
        submit(row + " details button");
        assertThat(find(row + " td").getText()).isEqualTo("Renamed Research");

        submit(row + " form[action$='/status'] button");
        assertThat(find(row + " .badge").getText()).isEqualTo("Suspended");
        assertThat(jdbc.sql("SELECT action FROM audit_event WHERE tenant_slug = ? ORDER BY id")
                        .param(slug)
                        .query(String.class)
                        .list())
                .containsExactly("tenant.created", "tenant.updated", "tenant.suspended");
    }

    @Test
    void aBadSlugShowsAMessageNextToTheFieldAndCreatesNothing() {
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/tenants");
        long tenants = count("tenant");
        long events = count("audit_event");

        find("#slug").sendKeys("Bad Slug!");
        find("#displayName").sendKeys("Bad");
        submit("#create-tenant-submit");

        assertThat(find("#slug-error").getText()).startsWith("The slug must be 3-40 lower-case letters");
        assertThat(find("#slug").getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(find("#slug").getAttribute("value"))
                .as("what was typed stays")
                .isEqualTo("Bad Slug!");
        assertThat(exists("#displayName-error")).isFalse();
        assertThat(count("tenant")).isEqualTo(tenants);
        assertThat(count("audit_event")).isEqualTo(events);
    }

    @Test
    void aTakenSlugIsRefusedNextToTheField() {
        String taken = newTenant();
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/tenants");
        find("#slug").sendKeys(taken);
        find("#displayName").sendKeys("Again");
        submit("#create-tenant-submit");

        assertThat(find("#slug-error").getText()).contains("exists");
    }

    @Test
    void anAuditorReadsTenantsAndTheAuditLogButGetsNoCreateButton() {
        String tenant = newTenant("a0");
        newProject(tenant, "audited");
        signIn(newUser(PlatformRole.AUDITOR));

        find("#nav-admin").click();
        assertThat(exists("#create-tenant")).isFalse();
        assertThat(exists("tr[data-slug='" + tenant + "'] form")).isFalse();
        assertThat(find("tr[data-slug='" + tenant + "']").getText()).contains(tenant);

        find("#tab-audit").click();
        assertThat(h1()).isEqualTo("Audit log");
        find("#filter-tenant").sendKeys(tenant);
        var results = find("#audit-results");
        find("#apply-filters").click();
        waitFor(ExpectedConditions.stalenessOf(results));

        assertThat(browser.getCurrentUrl())
                .as("htmx pushes the filters into the address")
                .contains("tenant=" + tenant);
        assertThat(findAll("#audit-events tbody tr")).hasSize(2);
        assertThat(find("#audit-events").getText()).contains("project.created", "tenant.created");
        // to the second, in the browser's zone and in UTC on hover
        for (var time : findAll("#audit-events tbody time")) {
            assertThat(time.getText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} \\S+");
            assertThat(time.getDomAttribute("title")).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC");
        }
    }

    @Test
    void creationDatesAreTheBrowsersDays() {
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "Asia/Tokyo"));
        String tenant = newTenant("a0");
        newProject(tenant, "late");
        // 20:00 UTC is the next morning in Tokyo
        jdbc.sql("UPDATE tenant SET created_at = '2026-01-01T20:00:00Z' WHERE slug = ?")
                .param(tenant)
                .update();
        jdbc.sql("UPDATE project SET created_at = '2026-01-01T20:00:00Z' WHERE slug = 'late'"
                        + " AND tenant_id = (SELECT id FROM tenant WHERE slug = ?)")
                .param(tenant)
                .update();
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin");
        assertThat(find("tr[data-slug='" + tenant + "']").getText())
                .contains("2026-01-02")
                .doesNotContain("2026-01-01");
        open("/tenants/" + tenant + "/projects");
        assertThat(find("main table").getText()).contains("2026-01-02").doesNotContain("2026-01-01");
    }

    @Test
    void theAuditLogPagesAndRefusesAnEmptyWindow() {
        String tenant = newTenant();
        for (int i = 0; i < 26; i++) {
            newProject(tenant, "p-" + i);
        }
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/audit?tenant=" + tenant);
        assertThat(findAll("#audit-events tbody tr")).hasSize(25);
        var results = find("#audit-results");
        find("#next-page").click();
        waitFor(ExpectedConditions.stalenessOf(results));
        assertThat(findAll("#audit-events tbody tr")).hasSize(2);
        assertThat(find("#audit-events").getText()).contains("tenant.created");

        open("/admin/audit?from=2027-01-02T00:00&to=2027-01-01T00:00");
        assertThat(find("#to-error").getText()).isEqualTo("must be after from");
        assertThat(exists("#audit-events")).isFalse();
    }

    private long count(String table) {
        return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }
}
