package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Governance in the browser (issue 31): the approvals list, a dedicated pool that other teams never see, and a booking
 * that waits in the queue with its place.
 */
class GovernanceBrowserTests extends ConsoleBrowserTest {

    @Test
    void aTeamAdminApprovesOneWaitingBookingAndDeniesAnotherWithAReason() {
        Team team = team(2, 16, 16, false);
        requireApproval(team, 16, 16);
        String approve = bookByApi(team, 8, day(2), day(2).plus(Duration.ofHours(4)));
        String deny = bookByApi(team, 8, day(3), day(3).plus(Duration.ofHours(4)));
        String admin = newUser();
        addMember(team.tenant(), admin, "TENANT_ADMIN");

        // the member who booked sees what waits, and cannot decide
        signIn(team.member());
        open("/tenants/" + team.tenant() + "/approvals");
        assertThat(findAll("#approvals tbody tr")).hasSize(2);
        assertThat(exists(".approve-booking")).isFalse();

        signIn(admin);
        open("/tenants/" + team.tenant() + "/reservations");
        find("#approvals-link").click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("approvals")));
        submit("tr[data-id='" + approve + "'] .approve-booking");
        assertThat(find("#notice").getText()).startsWith("Approved the booking of 8 GPUs of " + team.pool());

        find("#reason-" + deny).sendKeys("Not before the review");
        submit("tr[data-id='" + deny + "'] .deny-booking");
        assertThat(find("#notice").getText()).startsWith("Denied the booking of 8 GPUs");
        assertThat(find("#no-approvals").getText()).isEqualTo("No booking waits for approval.");
        assertThat(count("SELECT count(*) FROM reservation WHERE id = ?::uuid AND lifecycle_status IS NULL", approve))
                .isEqualTo(1);
        assertThat(count(
                        "SELECT count(*) FROM reservation WHERE id = ?::uuid AND lifecycle_status = 'DENIED' "
                                + "AND decision_reason = 'Not before the review'",
                        deny))
                .isEqualTo(1);
    }

    @Test
    void aPoolDedicatedToOneTeamIsLeftOutOfAnotherTeamsCalendarAndBookingForm() {
        Team owner = team(2, 16, 16, false);
        Team other = teamOn(owner.gpuType(), owner.pool(), 0, 16, false);
        assertThat(api.patch(
                                "/api/v1/pools/" + owner.pool(),
                                adminToken(),
                                Map.of("dedicatedTo", List.of(owner.tenant())))
                        .status())
                .isEqualTo(200);

        signIn(other.member());
        open("/calendar?days=7&step=day&q=" + owner.pool());
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-renders]")));
        assertThat(exists("g[data-pool='" + owner.pool() + "']")).isFalse();
        open("/book");
        assertThat(findAll("#pool option").stream()
                        .map(o -> o.getAttribute("value"))
                        .toList())
                .doesNotContain(owner.pool());

        signIn(owner.member());
        open("/calendar?days=7&step=day&q=" + owner.pool());
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("g[data-pool='" + owner.pool() + "']")));
        open("/book");
        assertThat(findAll("#pool option").stream()
                        .map(o -> o.getAttribute("value"))
                        .toList())
                .contains(owner.pool());
    }

    @Test
    void aBookingThatDoesNotFitWaitsInTheQueueWithItsPlaceAndIsBookedWhenTheNodeFrees() {
        Team team = team(1, 0, 16, true);
        Team other = teamOn(team.gpuType(), team.pool(), 0, 16, true);
        Instant start = day(2).plus(Duration.ofHours(9));
        String held = bookByApi(other, 8, start, start.plus(Duration.ofHours(4)));

        signIn(team.member());
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(4)));
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("verdict")));
        // a datetime-local takes its value as the browser's locale types it; the value itself is the same everywhere
        ((JavascriptExecutor) browser)
                .executeScript(
                        "arguments[0].value = arguments[1]",
                        find("#queueUntil"),
                        start.plus(Duration.ofHours(1)).toString().substring(0, 16));
        submit("#book-submit");

        assertThat(find("#notice").getText())
                .isEqualTo("Nothing was free for the whole window, so the booking waits " + "in the queue of "
                        + team.pool() + ".");
        assertThat(find("#status").getText()).isEqualTo("Queued");
        assertThat(find("#queued").getText()).startsWith("Queued: number 1 in the queue of " + team.pool() + ".");
        assertThat(exists("#extend")).isFalse();
        String id = browser.getCurrentUrl().substring(browser.getCurrentUrl().lastIndexOf('/') + 1);

        cancelByApi(other, held);
        new WebDriverWait(browser, Duration.ofSeconds(30))
                .pollingEvery(Duration.ofSeconds(1))
                .until(driver -> {
                    driver.navigate().refresh();
                    return "Confirmed".equals(find("#status").getText());
                });
        assertThat(exists("#queued")).isFalse();
        assertThat(count("SELECT count(*) FROM allocation WHERE reservation_id = ?::uuid", id))
                .isEqualTo(1);
    }
}
