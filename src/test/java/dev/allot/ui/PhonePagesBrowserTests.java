package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/** A team's pages on a phone (390x844): none wider than the screen, and every table's box is reachable by keyboard. */
class PhonePagesBrowserTests extends ConsoleBrowserTest {

    @Test
    void onAPhoneTheUsageAndQuotaPagesAreNoWiderThanTheScreenAndAxeFindsNothing() {
        Team team = onAPhone();
        for (String page : List.of("usage", "quota")) {
            // open() runs axe-core on the page as the phone shows it; then what it folds is opened too
            open("/tenants/" + team.tenant() + "/" + page);
            openEveryDetails();
            fullScreenshot("phone-" + page);
            Number width = (Number) browser.executeScript("return document.documentElement.scrollWidth");
            Number screen = (Number) browser.executeScript("return window.innerWidth");
            assertThat(width.intValue())
                    .as(page)
                    .isLessThanOrEqualTo(screen.intValue())
                    .isLessThanOrEqualTo(390);
            checkAccessibility();
        }
    }

    /** axe's scrollable-region-focusable: each table's box is a named region in the tab order, folded ones too. */
    @Test
    void everyTableBoxCanBeScrolledByKeyboardAndIsNamed() {
        Team team = onAPhone();
        for (String page : List.of("quota", "usage", "reservations")) {
            open("/tenants/" + team.tenant() + "/" + page);
            openEveryDetails();
            List<WebElement> boxes = findAll(".table-scroll");
            assertThat(boxes).as(page).isNotEmpty();
            for (WebElement box : boxes) {
                assertThat(box.getAttribute("tabindex")).as(page).isEqualTo("0");
                assertThat(box.getAttribute("role")).as(page).isEqualTo("region");
                assertThat(box.getAccessibleName()).as(page).isNotBlank();
            }
            checkAccessibility();
        }
    }

    /** A member of a team with a booking, signed in on a phone. */
    private Team onAPhone() {
        Team team = team(2, 8, 16, false);
        bookByApi(team, 8, day(1), day(2));
        signIn(team.member());
        browser.manage().window().setSize(new Dimension(390, 844));
        return team;
    }

    private void openEveryDetails() {
        for (WebElement details : findAll("main details")) {
            browser.executeScript("arguments[0].open = true", details);
        }
    }
}
