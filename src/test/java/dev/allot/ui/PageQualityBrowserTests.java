package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import dev.allot.support.BrowserTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/** Every main page has a title, one h1 and a label on every control; screenshots at laptop and phone widths. */
class PageQualityBrowserTests extends BrowserTest {

    @Test
    void mainPagesHaveATitleOneHeadingAndLabelledControlsAtLaptopAndPhoneWidths() {
        String tenant = newTenant();
        String other = newTenant();
        newProject(tenant, "llm-pretrain");
        String admin = newUser(PlatformRole.PLATFORM_ADMIN);
        addMember(tenant, admin, "TENANT_ADMIN");
        addMember(other, admin, "VIEWER");
        serviceAccount(tenant, "MEMBER");
        signIn(admin);

        List<String> pages = List.of(
                "/calendar",
                "/tenants/" + tenant + "/projects",
                "/tenants/" + tenant + "/members",
                "/tenants/" + tenant + "/service-accounts",
                "/admin/tenants",
                "/admin/audit",
                "/no-such-page");
        for (var width : List.of(new Dimension(1280, 1400), new Dimension(390, 1600))) {
            browser.manage().window().setSize(width);
            for (String path : pages) {
                open(path);
                assertThat(browser.getTitle()).as(path).endsWith(" · Allot");
                assertThat(findAll("h1")).as(path).hasSize(1);
                for (WebElement control : findAll("input:not([type=hidden]), select, textarea")) {
                    String id = control.getAttribute("id");
                    assertThat(id).as("a control on " + path + " has an id").isNotBlank();
                    assertThat(exists("label[for='" + id + "']"))
                            .as("label for #" + id + " on " + path)
                            .isTrue();
                }
                String name = path.replaceAll("^/", "").replace('/', '_').replace(tenant, "tenant");
                screenshot((width.getWidth() > 600 ? "laptop-" : "phone-") + name);
            }
        }
    }

    @Test
    void theSkipLinkIsTheFirstStopOfTheKeyboardAndLeadsToTheMainContent() {
        signIn(newUser());
        open("/usage");
        find("body").sendKeys(Keys.TAB);
        WebElement focused = browser.switchTo().activeElement();
        assertThat(focused.getText()).isEqualTo("Skip to main content");
        focused.sendKeys(Keys.ENTER);
        assertThat(browser.getCurrentUrl()).endsWith("#main");
    }
}
