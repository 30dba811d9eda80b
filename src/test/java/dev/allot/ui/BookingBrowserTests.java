package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

class BookingBrowserTests extends ConsoleBrowserTest {

    static final String KEY =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAdRjhFO53nw+UOnYkvgF7wfzPqAZ+reJO59jC3++IBt ada@laptop";

    @Test
    void aMemberSeesALiveQuoteAndBooksASlurmCluster() {
        Team team = team(4, 16, 32, false);
        Map<String, Object> budgeted = policy(team.gpuType(), 16, 32, false);
        budgeted.put("monthlyBudget", 10000);
        setQuota(team.tenant(), budgeted);
        signIn(team.member());
        // Inside one calendar month, so the budget has one line.
        Instant start = YearMonth.now(ZoneOffset.UTC)
                .plusMonths(1)
                .atDay(1)
                .atTime(9, 0)
                .toInstant(ZoneOffset.UTC);
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(10)));
        assertThat(h1()).isEqualTo("Book GPUs");
        assertThat(find("#gpus-help").getText()).contains("multiple of 8", "up to 32", "16 of them guaranteed");
        assertThat(find("#window-help").getText()).contains("Times in UTC", "up to 30 days long", "within 60 days");
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("verdict"), "It fits"));

        WebElement quote = find("#quote");
        find("#gpus").clear();
        find("#gpus").sendKeys("24");
        waitFor(ExpectedConditions.stalenessOf(quote));
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("quote-total"), "440.00"));
        assertThat(find("#split tr[data-rate-class='RESERVED']").getText()).contains("160.00", "2.00", "320.00");
        assertThat(find("#split tr[data-rate-class='BORROWED']").getText()).contains("80.00", "1.50", "120.00");
        assertThat(find("#budget").getText()).contains("9,560.00 of 10,000.00 USD left after this booking");

        find("#orchestrator-slurm").click();
        new Select(find("#cudaDriver")).selectByValue("560.35");
        find("#sharedMemoryGi").sendKeys("64");
        find("#volumes").sendKeys("datasets 500\ncheckpoints: 200");
        find("#sshPublicKeys").sendKeys(KEY);
        fullScreenshot("laptop-book");
        submit("#book-submit");

        assertThat(find("#notice").getText()).isEqualTo("Booked 24 GPUs of " + team.pool() + ".");
        assertThat(find("#status").getText()).isEqualTo("Confirmed");
        // one Nodes section and one Timeline: the cluster section's, once loaded, lists the nodes with their health
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("cluster-nodes")));
        assertThat(findAll("#cluster-nodes tbody tr")).hasSize(3);
        assertThat(findAll("main h2, main h3").stream().map(WebElement::getText).filter(h -> h.startsWith("Nodes")))
                .hasSize(1);
        assertThat(findAll("main h2, main h3").stream().map(WebElement::getText).filter(h -> h.startsWith("Timeline")))
                .hasSize(1);
        assertThat(find("#configuration").getText())
                .contains(
                        "Slurm",
                        "560.35",
                        "64 GiB",
                        "datasets (500 GiB)",
                        "checkpoints (200 GiB)",
                        "ssh-ed25519 ada@laptop");
        assertThat(find("#total").getText()).isEqualTo("440.00");
        var stored = jdbc.sql("SELECT cluster ->> 'orchestrator' AS o, gpus FROM reservation WHERE tenant_slug = ?")
                .param(team.tenant())
                .query()
                .singleRow();
        assertThat(stored).containsEntry("o", "SLURM").containsEntry("gpus", 24);
        fullScreenshot("laptop-reservation");
    }

    @Test
    void aDoubleSubmittedFormBooksOnce() {
        Team team = team(4, 32, 32, false);
        signIn(team.member());
        Instant start = day(3);
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(4)));

        // Two identical posts of the form at once, as a double click on a slow network sends them.
        @SuppressWarnings("unchecked")
        List<Object> landed = (List<Object>) browser.executeAsyncScript("""
				var done = arguments[arguments.length - 1];
				var form = document.getElementById('booking-form');
				var post = function () { return fetch(form.action, { method: 'POST', body: new FormData(form) }); };
				Promise.all([post(), post()]).then(function (r) { done([r[0].url, r[1].url, r[0].status, r[1].status]); });""");
        assertThat(landed.subList(2, 4)).containsExactly(200L, 200L);
        assertThat((String) landed.get(0))
                .contains("/tenants/" + team.tenant() + "/reservations/")
                .isEqualTo(landed.get(1));

        // And the button itself, double-clicked.
        new Actions(browser).doubleClick(find("#book-submit")).perform();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("status")));
        assertThat(browser.getCurrentUrl()).isEqualTo(landed.get(0));
        assertThat(count("SELECT count(*) FROM reservation WHERE tenant_slug = ?", team.tenant()))
                .isEqualTo(1);
    }

    @Test
    void whenItDoesNotFitTheQuoteSaysWhyAndOneClickTakesTheEarliestWindow() {
        // The team borrows (no guarantee) and the other team books within its guarantee: nothing can be reclaimed.
        Team team = team(2, 0, 16, false);
        Team other = teamOn(team.gpuType(), team.pool(), 16, 16, false);
        Instant start = day(2).plus(Duration.ofHours(8));
        bookByApi(other, 16, start, start.plus(Duration.ofHours(6)));
        signIn(team.member());
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(2)));

        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("verdict"), "It does not fit"));
        assertThat(find("#reasons").getText()).contains("Only 0 of the 1 nodes needed are free");
        List<WebElement> windows = findAll("#suggestions button");
        assertThat(windows).isNotEmpty();
        assertThat(windows.getFirst().getText()).contains(times(start.plus(Duration.ofHours(6))), "24.00 USD");

        // Enter in a field books (here: is refused) rather than taking the first suggestion above the Book button.
        WebElement page = find("html");
        find("#gpus").sendKeys(Keys.ENTER);
        waitFor(ExpectedConditions.stalenessOf(page));
        assertThat(find("#form-error").getText()).startsWith("Not enough nodes are free for the whole window");
        assertThat(find("#start").getAttribute("value")).isEqualTo(local(start));

        submit("#suggestions button");
        assertThat(find("#start").getAttribute("value")).isEqualTo(local(start.plus(Duration.ofHours(6))));
        assertThat(find("#end").getAttribute("value")).isEqualTo(local(start.plus(Duration.ofHours(8))));
        assertThat(find("#verdict").getText()).contains("It fits");
        submit("#book-submit");
        assertThat(find("#status").getText()).isEqualTo("Confirmed");
    }

    @Test
    void losingARaceShowsAClearMessageAndFreshSuggestionsNotAnErrorPage() {
        // no guarantee: a guaranteed booking would reclaim the other team's borrowed node instead of losing the race
        Team team = team(1, 0, 8, false);
        Team other = teamOn(team.gpuType(), team.pool(), 8, 8, false);
        Instant start = day(2);
        signIn(team.member());
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(3)));
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("verdict"), "It fits"));

        bookByApi(other, 8, start.plus(Duration.ofHours(1)), start.plus(Duration.ofHours(2)));
        submit("#book-submit");

        assertThat(h1()).isEqualTo("Book GPUs");
        assertThat(find("#form-error").getText())
                .startsWith("Not enough nodes are free for the whole window (someone may "
                        + "have booked them a moment ago), so nothing was booked");
        assertThat(find("#verdict").getText()).contains("It does not fit");
        assertThat(find("#suggestions button").getText()).contains(times(start.plus(Duration.ofHours(2))));
        assertThat(count("SELECT count(*) FROM reservation WHERE tenant_slug = ?", team.tenant()))
                .isZero();
    }

    @Test
    void anAdminLowersAQuotaSeeingTheReservationsAboveItAndAnOverQuotaBookingIsRefusedNamingTheLimit() {
        Team team = team(4, 16, 32, false);
        String booked = bookByApi(team, 24, day(2), day(2).plus(Duration.ofHours(4)));
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/quotas/" + team.tenant());
        assertThat(find("#peak-" + team.gpuType()).getText()).startsWith("24 GPUs");
        WebElement impact = find("#impact-" + team.gpuType());
        find("#maxGpus-" + team.gpuType()).clear();
        find("#maxGpus-" + team.gpuType()).sendKeys("16");
        waitFor(ExpectedConditions.stalenessOf(impact));
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#impact-" + team.gpuType() + " .finding")));
        assertThat(find("#impact-" + team.gpuType()).getText())
                .contains("maxGpus", "24 GPUs, 8 more than the maximum of 16");
        assertThat(exists("#impact-" + team.gpuType() + " li[data-reservation='" + booked + "']"))
                .isTrue();

        submit("#save-" + team.gpuType());
        assertThat(find("#confirm-" + team.gpuType() + "-note").getText())
                .contains("leave the reservations listed above");
        assertThat(api.get("/api/v1/tenants/" + team.tenant() + "/quota", adminToken())
                        .json()
                        .get("policies")
                        .get(0)
                        .get("maxGpus")
                        .asInt())
                .as("not saved before confirming")
                .isEqualTo(32);
        fullScreenshot("laptop-admin_quota_impact");
        submit("#save-" + team.gpuType());
        assertThat(find("#notice").getText()).startsWith("Saved the " + team.gpuType() + " quota");

        signIn(team.member());
        open("/book?pool=" + team.pool() + "&gpus=8&start=" + day(2).plus(Duration.ofHours(1)) + "&end="
                + day(2).plus(Duration.ofHours(2)));
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("verdict"), "It does not fit"));
        assertThat(find("#reasons").getText())
                .contains("Your quota refuses it:", "more than the 16 its quota allows")
                .doesNotContain("maxGpus");
        submit("#book-submit");
        assertThat(find("#gpus-error").getText())
                .contains("would hold 32", "16 more than the 16 its quota allows")
                .doesNotContain("maxGpus");
        assertThat(count("SELECT count(*) FROM reservation WHERE tenant_slug = ?", team.tenant()))
                .isEqualTo(1);
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void badInputIsShownNextToEachFieldAndBooksNothing(int width) {
        sized(width);
        Team team = team(2, 16, 16, false);
        signIn(team.member());
        open("/book?pool=" + team.pool() + "&start=" + day(2) + "&end=" + day(2).plus(Duration.ofHours(1)));
        find("#gpus").clear();
        find("#gpus").sendKeys("12");
        find("#sshPublicKeys")
                .sendKeys("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAdRjh ada@laptop\n-----BEGIN OPENSSH PRIVATE KEY-----");
        find("#volumes").sendKeys("Bad Name!");
        submit("#book-submit");

        assertThat(find("#sshPublicKeys-error").getText())
                .contains("Line 1: the key does not match its type", "Line 2: this is a private key");
        assertThat(find("#volumes-error").getText()).startsWith("Line 1: write a name and a size");
        assertThat(find("#sshPublicKeys").getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(find("#sshPublicKeys").getAttribute("value"))
                .as("what was typed stays")
                .contains("ada@laptop");

        find("#sshPublicKeys").clear();
        find("#volumes").clear();
        submit("#book-submit");
        assertThat(find("#gpus-error").getText()).isEqualTo("Must be a multiple of the pool's 8 GPUs per node");
        assertThat(count("SELECT count(*) FROM reservation WHERE tenant_slug = ?", team.tenant()))
                .isZero();
    }

    private static String local(Instant instant) {
        return instant.toString().substring(0, 16);
    }

    private static String times(Instant instant) {
        return local(instant).replace('T', ' ');
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void theFormListsTheTeamsPoolsFirstAndMarksThoseItHasNoQuotaFor(int width) {
        browser.manage().window().setSize(new Dimension(width, width < 500 ? 844 : 900));
        Team team = team(1, 8, 8, false);
        String elsewhere = newPool(newGpuType(), 8);
        addNodes(elsewhere, 1);
        signIn(team.member());
        open("/book");
        var groups = findAll("#pool optgroup");
        assertThat(groups).hasSize(2);
        assertThat(groups.get(0).getDomAttribute("label")).isEqualTo("Your team's pools");
        assertThat(groups.get(1).getDomAttribute("label")).isEqualTo("Other pools: your team has no quota for them");
        assertThat(find("#pool optgroup:first-child option[value='" + team.pool() + "']")
                        .isSelected())
                .isTrue();
        assertThat(find("#pool optgroup:last-child option[value='" + elsewhere + "']")
                        .getText())
                .endsWith("· no quota");
        assertThat(findAll("#pool optgroup:first-child option[value='" + elsewhere + "']"))
                .isEmpty();
    }
}
