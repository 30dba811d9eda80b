package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import dev.allot.support.BrowserTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.support.ui.Select;

class ShellBrowserTests extends BrowserTest {

    @Test
    void aSignedInUserSeesTheNavigationTheirNameAndCanSignOut() {
        String user = newUser();
        signIn(user);

        assertThat(browser.getCurrentUrl()).endsWith("/calendar");
        assertThat(h1()).isEqualTo("Capacity calendar");
        assertThat(browser.getTitle()).isEqualTo("Capacity calendar · Allot");
        assertThat(find("#user-name").getText()).isEqualTo("User " + user);
        assertThat(exists("#nav-reservations")).isTrue();
        assertThat(exists("#nav-usage")).isTrue();
        assertThat(exists("#nav-admin")).isFalse();

        submit("#sign-out");
        assertThat(browser.getCurrentUrl()).contains("/login?logout");
        open("/reservations");
        assertThat(exists("#username"))
                .as("signed out: back to the sign-in form")
                .isTrue();
    }

    @Test
    void theTenantSwitcherChangesTheCurrentTenantAndStaysOnTheSamePage() {
        String first = newTenant();
        String second = newTenant();
        newProject(second, "only-in-second");
        String user = newUser();
        addMember(first, user, "TENANT_ADMIN");
        addMember(second, user, "VIEWER");
        signIn(user);

        open("/tenants/" + first + "/members");
        Select switcher = new Select(find("#tenant-switcher"));
        assertThat(switcher.getFirstSelectedOption().getAttribute("value")).isEqualTo(first);
        switcher.selectByValue(second);
        submit("#switch-tenant");

        assertThat(browser.getCurrentUrl()).endsWith("/tenants/" + second + "/members");
        assertThat(new Select(find("#tenant-switcher")).getFirstSelectedOption().getAttribute("value"))
                .isEqualTo(second);
        assertThat(exists("#add-member")).as("a viewer gets no add form").isFalse();

        open("/calendar");
        assertThat(new Select(find("#tenant-switcher")).getFirstSelectedOption().getAttribute("value"))
                .as("the session remembers the chosen tenant")
                .isEqualTo(second);
        find("#nav-team").click();
        assertThat(find("#projects").getText()).contains("only-in-second");
    }

    @Test
    void aUserOfOneTenantSeesItsNameAndNoSwitcher() {
        String tenant = newTenant();
        String user = newUser();
        addMember(tenant, user, "MEMBER");
        signIn(user);

        assertThat(exists("#tenant-switcher")).isFalse();
        assertThat(find("#current-tenant").getText()).isEqualTo("Tenant " + tenant);
    }

    @Test
    void aMemberOfAnotherTenantGetsTheNotFoundPageForTheFirstTenantsPages() {
        String first = newTenant();
        String other = newTenant();
        String stranger = newUser();
        addMember(other, stranger, "TENANT_ADMIN");
        signIn(stranger);

        for (String page : new String[] {"projects", "members", "service-accounts"}) {
            open("/tenants/" + first + "/" + page);
            assertThat(h1()).as(page).isEqualTo("Page not found");
            assertThat(find("#error-status").getText()).isEqualTo("404");
        }
        open("/tenants/no-such-tenant/projects");
        assertThat(h1()).isEqualTo("Page not found");
        open("/admin/tenants");
        assertThat(h1()).isEqualTo("Not allowed");
    }

    @Test
    void anUnknownPageGetsTheFriendlyNotFoundPage() {
        signIn(newUser(PlatformRole.AUDITOR));
        open("/no/such/page");
        assertThat(h1()).isEqualTo("Page not found");
        assertThat(browser.getTitle()).isEqualTo("Page not found · Allot");
    }
}
