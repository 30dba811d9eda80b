package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The booking form's quote says what it knows: checking, fits, does not fit, out of date; and survives a lapsed session. */
@ExtendWith(OutputCaptureExtension.class)
class HonestQuoteBrowserTests extends ConsoleBrowserTest {

    @Test
    void theQuoteShowsItIsCheckingAndRefreshesWhenSomeoneElseBooksItsPool() {
        // the team borrows (no guarantee): a guaranteed team's quote would rightly fit by reclaiming the rival's node
        Team team = team(2, 0, 16, false);
        Team rival = teamOn(team.gpuType(), team.pool(), 16, 16, false);
        signIn(team.member());
        Instant start = day(5).plus(Duration.ofHours(9));
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(6)) + "&gpus=16");
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "fits"));
        assertThat(find("#quote-state").getText()).isEqualTo("Up to date: it fits.");

        find("#gpus").clear();
        find("#gpus").sendKeys("8");
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "fits"));
        @SuppressWarnings("unchecked")
        List<String> states = (List<String>) browser.executeScript("return window.allot.quoteStates.slice()");
        assertThat(states).containsSubsequence("stale", "checking", "fits");

        // Another team takes one of the two nodes for an overlapping window: the feed names the pool, the quote is
        // checked again without anyone touching the form.
        find("#gpus").clear();
        find("#gpus").sendKeys("16");
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "fits"));
        bookByApi(rival, 8, start.plus(Duration.ofHours(2)), start.plus(Duration.ofHours(3)));
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "no-fit"));
        assertThat(find("#quote-state").getText()).isEqualTo("Up to date: it does not fit.");
        assertThat(find("#verdict").getText()).contains("It does not fit");
        assertThat(find("#gpus").getDomProperty("value")).isEqualTo("16");
    }

    /** At a laptop's size with a click, and on a phone (390x844) with a finger's tap on Book. */
    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void aQuoteThatFitsOnlyByReclaimingSaysSoBeforeTheClickAndABorrowedOneSaysUnderWhichRuleItMayBePreempted(
            int width) {
        boolean phone = width < 500;
        Team owner = team(1, 8, 8, false);
        Team rival = teamOn(owner.gpuType(), owner.pool(), 0, 8, false);
        Instant start = day(3).plus(Duration.ofHours(9));
        Instant end = start.plus(Duration.ofHours(6));

        // the rival borrows the owner's idle guarantee: its quote says it may be preempted, by which rule
        signIn(rival.member());
        open("/book?pool=" + rival.pool() + "&start=" + start + "&end=" + end + "&gpus=8");
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "fits"));
        assertThat(find("#preemption-rule").getText())
                .contains("may be preempted")
                .contains("books within its guarantee")
                .contains("30 minutes' notice");
        bookByApi(rival, 8, start, end);

        // the owner's booking fits only by reclaiming the rival's: the quote says so, not a bare "It fits"
        signIn(owner.member());
        browser.manage().window().setSize(new Dimension(width, phone ? 844 : 900));
        open("/book?pool=" + owner.pool() + "&start=" + start + "&end=" + end + "&gpus=8");
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "fits"));
        screenshot("quote-fits-by-reclaiming-" + width);
        // the quote may be checked once more meanwhile (the live feed names the pool the rival booked in, and the
        // quote is swapped for a fresh one): each read looks up what is shown then
        waitFor(ExpectedConditions.textToBe(
                By.id("verdict"),
                "✔ It fits by reclaiming 1 preemptible reservation of another team; it gets 30 minutes' notice."));
        String quote = waitFor(driver -> find("#quote").getText());
        assertThat(quote).doesNotContain("Only 0 of");
        String rule = waitFor(driver -> find("#preemption-rule").getText());
        assertThat(rule).contains("other teams");
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "fits"));
        twoFramesDrawn();
        pageFits(width);

        if (phone) {
            // the verdict is read before the tap: Book is tapped where it is, and books
            WebElement html = find("html");
            tap(find("#book-submit"));
            waitFor(driver -> isGone(html));
        } else {
            submit("#book-submit");
        }
        assertThat(find("#notice").getText()).isEqualTo("Booked 8 GPUs of " + owner.pool() + ".");
        assertThat(count(
                        "SELECT count(*) FROM reservation WHERE tenant_slug = ? AND lifecycle_status = 'PREEMPTED'",
                        rival.tenant()))
                .isEqualTo(1);
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void aQuotaRefusalInTheQuoteGivesItsTimeInTheBrowsersZone(int width) {
        sized(width);
        ZoneId india = ZoneId.of("Asia/Kolkata");
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", india.getId()));
        Team team = team(2, 8, 8, false);
        signIn(team.member());
        Instant start = day(3).plus(Duration.ofHours(9));
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(4)) + "&gpus=16");
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "no-fit"));
        String local = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").format(start.atZone(india));
        assertThat(find("#reasons").getText())
                .contains("(from " + local + " GMT+5:30)")
                .doesNotContain("UTC");
        assertThat(find("#reasons time").getDomAttribute("title")).endsWith("UTC");
    }

    @Test
    void aLapsedSessionKeepsTheFormAndComesBackToItAfterSigningIn() {
        Team team = team(4, 32, 32, false);
        openFittingForm(team);
        find("#gpus").clear();
        find("#gpus").sendKeys("16");
        find("#sharedMemoryGi").sendKeys("32");
        find("#orchestrator-slurm").click();
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "fits"));

        // The session ends (as it does after its idle timeout): the next quote says so instead of going quiet.
        browser.manage().deleteCookieNamed("SESSION");
        find("#gpus").clear();
        find("#gpus").sendKeys("24");
        waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("session-ended")));
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("quote-state"), "session has ended"));
        assertThat(find("#quote-state").getAttribute("data-state")).isEqualTo("stale");

        // Book now does not lose the form to a refused post: it stays, with the way back.
        find("#book-submit").click();
        assertThat(browser.getCurrentUrl()).contains("/book");
        assertThat(find("#gpus").getDomProperty("value")).isEqualTo("24");
        assertThat(count("SELECT count(*) FROM reservation WHERE tenant_slug = ?", team.tenant()))
                .isZero();

        find("#sign-in-again").click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("username")));
        find("#username").sendKeys(team.member());
        find("#password").sendKeys("password-" + team.member());
        find("#sign-in").click();
        waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("form-restored")));
        assertThat(browser.getCurrentUrl()).doesNotContain("restore");
        assertThat(find("#gpus").getDomProperty("value")).isEqualTo("24");
        assertThat(find("#sharedMemoryGi").getDomProperty("value")).isEqualTo("32");
        assertThat(find("#orchestrator-slurm").isSelected()).isTrue();
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "fits"));

        submit("#book-submit");
        assertThat(find("#notice").getText()).isEqualTo("Booked 24 GPUs of " + team.pool() + ".");
    }

    @Test
    void aFormPostedAfterTheSessionEndedSignsInAgainInsteadOfSayingTheRoleIsWrong() {
        Team team = team(2, 16, 16, false);
        openFittingForm(team);
        browser.manage().deleteCookieNamed("SESSION");
        // posted as a page without scripts would: the lapsed session is a sign-in, not a 403
        browser.executeScript("HTMLFormElement.prototype.submit.call(document.getElementById('booking-form'))");
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("username")));
        assertThat(browser.getPageSource()).doesNotContain("does not allow");
    }

    @Test
    void aClosedCalendarTabIsNotAnError(CapturedOutput output) {
        Team team = team(1, 8, 8, false);
        signIn(team.member());
        // the booking form listens to the calendar's event stream, as the calendar does
        open("/book?pool=" + team.pool());
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("quote-state")));
        sleepy(1000);
        open("/reservations");
        // the stream of the page left behind finds its browser gone at the next change
        bookByApi(team, 8, day(2), day(3));
        bookByApi(team, 8, day(4), day(5));
        sleepy(3000);
        assertThat(output.getOut()).doesNotContain("Broken pipe").doesNotContain("Unexpected failure of a page");
    }

    /** Signed in as the team's member, the form for a 5-hour window four days ahead, its quote checked. */
    private void openFittingForm(Team team) {
        signIn(team.member());
        Instant start = day(4).plus(Duration.ofHours(8));
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(5)));
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "fits"));
    }

    private static boolean sleepy(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        return true;
    }
}
