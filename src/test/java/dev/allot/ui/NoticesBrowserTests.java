package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/** Notices that need action are shown where people look, with their times in the browser's zone. */
class NoticesBrowserTests extends ConsoleBrowserTest {

    private static final ZoneId INDIA = ZoneId.of("Asia/Kolkata");

    @Test
    void aPreemptedReservationWarnsOnItsOwnPageAndNoticesShowTheirTimesInTheBrowsersZone() {
        Team owner = team(1, 8, 8, false);
        Team rival = teamOn(owner.gpuType(), owner.pool(), 0, 8, false);
        String victim = preempted(owner, rival);
        Instant nodesHeldUntil = Instant.parse(jdbc.sql("SELECT n.details ->> 'nodesHeldUntil' FROM notification n"
                        + " JOIN tenant t ON t.id = n.tenant_id WHERE t.slug = ?")
                .param(rival.tenant())
                .query(String.class)
                .single());
        String inIndia = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").format(nodesHeldUntil.atZone(INDIA));

        // a browser in India, a half-hour zone
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", INDIA.getId()));
        signIn(rival.member());
        // at a laptop's size, then on a phone: the same reservation's warning and the same notices
        for (int width : new int[] {1440, 390}) {
            sized(width);
            open("/tenants/" + rival.tenant() + "/reservations/" + victim);
            waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#reservation-notices section")));
            String warning = find("#reservation-notices").getText();
            screenshot("reservation-preempted-notice-" + width);
            assertThat(warning)
                    .as(width + " px")
                    .contains("Needs your attention")
                    .contains("Preempted")
                    .contains("Its nodes stay yours until " + inIndia + " GMT+5:30")
                    .doesNotContainPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:");
            checkAccessibility();

            open("/tenants/" + rival.tenant() + "/usage");
            String notices = find("#alerts").getText();
            fullScreenshot("usage-notices-" + width);
            assertThat(find("#alerts-heading").getText()).isEqualTo("Notices");
            assertThat(notices)
                    .as(width + " px")
                    .contains("Preempted")
                    .contains("Its nodes stay yours until " + inIndia + " GMT+5:30")
                    .doesNotContainPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:");
        }
    }

    @Test
    void theReservationsListSaysWhichReservationNeedsAttentionAndLinksToIt() {
        Team owner = team(1, 8, 8, false);
        Team rival = teamOn(owner.gpuType(), owner.pool(), 0, 8, false);
        String victim = preempted(owner, rival);
        signIn(rival.member());
        // at a laptop's size with a click, then on a phone with a finger's tap
        for (int width : new int[] {1440, 390}) {
            boolean phone = sized(width);
            open("/tenants/" + rival.tenant() + "/reservations");
            waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#recent-notices section")));
            assertThat(find("#recent-notices").getText())
                    .as(width + " px")
                    .contains("Needs your attention", "Preempted");
            screenshot("reservations-needs-attention-" + width);
            checkAccessibility();
            WebElement link = find("#recent-notices a[href$='/reservations/" + victim + "']");
            if (phone) {
                tap(link);
            } else {
                link.click();
            }
            waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#reservation-notices section")));
            assertThat(browser.getCurrentUrl()).as(width + " px").endsWith("/reservations/" + victim);
        }
    }
}
