package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/** The calendar, booking, reservations and admin console pages: a title, one h1, labels; laptop and phone. */
class ConsolePageQualityBrowserTests extends ConsoleBrowserTest {

    @Test
    void bookingAndConsolePagesHaveATitleOneHeadingAndLabelledControlsAtLaptopAndPhoneWidths() {
        Team team = team(4, 16, 32, false);
        String id = bookByApi(team, 16, day(1).plus(Duration.ofHours(10)), day(2).plus(Duration.ofHours(10)));
        String admin = newUser(PlatformRole.PLATFORM_ADMIN);
        addMember(team.tenant(), admin, "TENANT_ADMIN");
        signIn(admin);

        List<String> pages = List.of(
                "/calendar",
                "/calendar?days=14&step=hour",
                "/calendar?days=90",
                "/book?pool=" + team.pool() + "&start=" + day(3) + "&end=" + day(4),
                "/tenants/" + team.tenant() + "/reservations",
                "/tenants/" + team.tenant() + "/reservations/" + id,
                "/admin/quotas",
                "/admin/quotas/" + team.tenant(),
                "/admin/pools",
                "/admin/pools/" + team.pool(),
                "/admin/rate-cards");
        for (var width : List.of(new Dimension(1280, 1000), new Dimension(390, 900))) {
            browser.manage().window().setSize(width);
            for (String path : pages) {
                open(path);
                assertThat(browser.getTitle()).as(path).endsWith(" · Allot");
                assertThat(findAll("h1")).as(path).hasSize(1);
                for (WebElement control : findAll("input:not([type=hidden]), select, textarea")) {
                    String controlId = control.getAttribute("id");
                    assertThat(controlId)
                            .as("a control on " + path + " has an id")
                            .isNotBlank();
                    assertThat(exists("label[for='" + controlId + "']"))
                            .as("label for #" + controlId + " on " + path)
                            .isTrue();
                }
                assertThat((Long) browser.executeScript(
                                "return document.documentElement.scrollWidth - window.innerWidth"))
                        .as("no sideways scrolling of the page on " + path)
                        .isLessThanOrEqualTo(0L);
                String name = path.replaceAll("^/", "")
                        .replaceAll("[/?&=]", "_")
                        .replace(team.tenant(), "tenant")
                        .replace(team.pool(), "pool")
                        .replace(id, "id")
                        .replaceAll("_start.*", "");
                fullScreenshot((width.getWidth() > 600 ? "laptop-" : "phone-") + name);
            }
        }
    }
}
