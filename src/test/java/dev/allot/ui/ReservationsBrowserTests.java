package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

class ReservationsBrowserTests extends ConsoleBrowserTest {

    @Test
    void theListFiltersByStatusProjectAndTime() {
        Team team = team(4, 32, 32, false);
        newProject(team.tenant(), "inference");
        String training = bookByApi(team, 8, day(2), day(2).plus(Duration.ofHours(4)));
        String later = bookByApi(team, 16, day(9), day(9).plus(Duration.ofHours(4)));
        String cancelled = bookByApi(team, 8, day(3), day(3).plus(Duration.ofHours(4)));
        cancelByApi(team, cancelled);
        jdbc.sql("UPDATE reservation SET project_slug = 'inference' WHERE id = ?::uuid")
                .param(later)
                .update();
        signIn(team.member());

        find("#nav-reservations").click();
        assertThat(h1()).isEqualTo("Reservations of Tenant " + team.tenant());
        assertThat(findAll("#reservations tbody tr")).hasSize(3);
        assertThat(find("tr[data-id='" + cancelled + "'] .status").getText()).isEqualTo("Cancelled");

        filter(() -> new Select(find("#filter-status")).selectByValue("CONFIRMED"));
        assertThat(ids()).containsExactlyInAnyOrder(training, later);
        assertThat(browser.getCurrentUrl()).contains("status=CONFIRMED");

        filter(() -> new Select(find("#filter-project")).selectByValue("inference"));
        assertThat(ids()).containsExactly(later);

        filter(() -> {
            new Select(find("#filter-project")).selectByValue("");
            new Select(find("#filter-status")).selectByValue("");
            setValue("#filter-to", day(3).toString().substring(0, 10));
        });
        assertThat(ids()).containsExactlyInAnyOrder(training, cancelled);

        filter(() -> setValue("#filter-from", day(5).toString().substring(0, 10)));
        assertThat(find("#to-error").getText()).isEqualTo("Choose a day on or after the first day");
    }

    @Test
    void theDetailPageExtendsAndCancelsWithConfirmation() {
        Team team = team(2, 16, 16, false);
        Instant start = day(2).plus(Duration.ofHours(9));
        String id = bookByApi(team, 8, start, start.plus(Duration.ofHours(3)));
        signIn(team.member());
        open("/tenants/" + team.tenant() + "/reservations/" + id);
        assertThat(find("#status").getText()).isEqualTo("Confirmed");
        assertThat(find("#what").getText())
                .isEqualTo("8 " + team.gpuType() + " GPUs of " + team.pool() + " for project training");
        assertThat(find("#total").getText()).isEqualTo("48.00");

        find("#extend summary").click();
        setDateTime("#extend-end", start.plus(Duration.ofHours(5)));
        submit("#extend-submit");
        assertThat(find("#notice").getText())
                .startsWith("Extended the reservation to "
                        + start.plus(Duration.ofHours(5))
                                .toString()
                                .substring(0, 16)
                                .replace('T', ' '));
        assertThat(find("#ends-at").getText())
                .isEqualTo(start.plus(Duration.ofHours(5))
                                .toString()
                                .substring(0, 16)
                                .replace('T', ' ') + " UTC");
        assertThat(find("#total").getText()).isEqualTo("80.00");

        find("#extend summary").click();
        setDateTime("#extend-end", start.plus(Duration.ofHours(1)));
        submit("#extend-submit");
        assertThat(find("#end-error").getText()).startsWith("Must be later than the current end");

        find("#cancel summary").click();
        submit("#cancel-submit");
        assertThat(find("#notice").getText()).startsWith("Cancelled the reservation");
        assertThat(find("#status").getText()).isEqualTo("Cancelled");
        assertThat(exists("#cancel")).isFalse();
        assertThat(count("SELECT count(*) FROM reservation WHERE id = ?::uuid AND cancelled_at IS NOT NULL", id))
                .isEqualTo(1);
    }

    @Test
    void timesAreShownInTheViewersTimeZoneWithUtcOnHover() {
        Team team = team(2, 16, 16, false);
        Instant start = day(2).plus(Duration.ofHours(9));
        String id = bookByApi(team, 8, start, start.plus(Duration.ofHours(3)));
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "Asia/Kolkata"));
        try {
            signIn(team.member());
            open("/tenants/" + team.tenant() + "/reservations/" + id);
            var startTime = find("#timeline li:nth-child(2) time");
            // the zone is named next to the time (Chromium names India's as an offset)
            assertThat(startTime.getText()).isEqualTo(start.toString().substring(0, 10) + " 14:30 GMT+5:30");
            assertThat(startTime.getAttribute("title"))
                    .isEqualTo(start.toString().substring(0, 10) + " 09:00 UTC");

            open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(1)));
            assertThat(find("#window-help").getText()).containsPattern("Times in Asia/(Kolkata|Calcutta)");
            assertThat(find("#start").getAttribute("value"))
                    .isEqualTo(start.toString().substring(0, 10) + "T14:30");
            waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("verdict"), "fits"));
            submit("#book-submit");
            assertThat(find("#status").getText()).isEqualTo("Confirmed");
            assertThat(count(
                            "SELECT count(*) FROM reservation WHERE tenant_slug = ? AND starts_at = ?::timestamptz",
                            team.tenant(),
                            start.toString()))
                    .as("booked at 09:00 UTC, not 14:30 UTC")
                    .isEqualTo(2);
        } finally {
            browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "UTC"));
        }
    }

    private void filter(Runnable change) {
        var results = find("#reservations-results");
        change.run();
        find("#apply-filters").click();
        waitFor(ExpectedConditions.stalenessOf(results));
    }

    private List<String> ids() {
        return findAll("#reservations tbody tr").stream()
                .map(row -> row.getAttribute("data-id"))
                .toList();
    }

    private void setDateTime(String css, Instant instant) {
        setValue(css, instant.toString().substring(0, 16));
    }

    /** Date inputs take typed keys in the browser's locale; their value is ISO whatever the locale. */
    private void setValue(String css, String value) {
        browser.executeScript("arguments[0].value = arguments[1]", find(css), value);
    }
}
