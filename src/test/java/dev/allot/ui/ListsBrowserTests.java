package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/** The reservations list sorts and filters with its state in the URL; no table is cut off at any width. */
class ListsBrowserTests extends ConsoleBrowserTest {

    @Test
    void reservationsComeUpcomingFirstSortOnAnyColumnAndFilterByPoolWithTheStateInTheUrl() {
        Team team = team(4, 32, 32, false);
        String later = bookByApi(team, 16, day(9), day(9).plus(Duration.ofHours(4)));
        String soon = bookByApi(team, 8, day(2), day(2).plus(Duration.ofHours(4)));
        String cancelled = bookByApi(team, 24, day(5), day(5).plus(Duration.ofHours(4)));
        cancelByApi(team, cancelled);
        String past = bookByApi(team, 32, day(3), day(3).plus(Duration.ofHours(4)));
        jdbc.sql("UPDATE reservation SET starts_at = now() - interval '3 days', ends_at = now() - interval '2 days' "
                        + "WHERE id = ?::uuid")
                .param(past)
                .update();
        String otherPool = newPool(team.gpuType(), 8);
        addNodes(otherPool, 1);
        Team elsewhere = new Team(team.tenant(), team.gpuType(), otherPool, team.member(), team.token());
        String there = bookByApi(elsewhere, 8, day(4), day(4).plus(Duration.ofHours(2)));
        signIn(team.member());

        open("/tenants/" + team.tenant() + "/reservations");
        assertThat(ids()).containsExactly(soon, there, later, cancelled, past);
        assertThat(find("#sorted-by").getText()).startsWith("Upcoming first");

        sortBy("gpus");
        assertThat(browser.getCurrentUrl()).contains("sort=gpus").contains("dir=asc");
        assertThat(find("#reservations th:nth-child(5)").getAttribute("aria-sort"))
                .isEqualTo("ascending");
        assertThat(ids()).containsExactly(soon, there, later, cancelled, past);
        sortBy("gpus");
        assertThat(browser.getCurrentUrl()).contains("dir=desc");
        assertThat(ids()).containsExactly(past, cancelled, later, there, soon);
        sortBy("starts");
        assertThat(ids()).containsExactly(past, soon, there, cancelled, later);

        WebElement results = find("#reservations-results");
        new Select(find("#filter-pool")).selectByValue(otherPool);
        find("#apply-filters").click();
        waitFor(driver -> isGone(results));
        assertThat(ids()).containsExactly(there);
        assertThat(browser.getCurrentUrl()).contains("pool=" + otherPool).contains("sort=starts");

        // the URL is the state: a reload, or a link sent to a colleague, shows the same list
        browser.navigate().refresh();
        assertThat(new Select(find("#filter-pool")).getFirstSelectedOption().getAttribute("value"))
                .isEqualTo(otherPool);
        assertThat(find("#reservations th:nth-child(6)").getAttribute("aria-sort"))
                .isEqualTo("ascending");
        assertThat(ids()).containsExactly(there);
        open("/tenants/" + team.tenant() + "/reservations?status=CANCELLED&sort=price&dir=desc");
        assertThat(ids()).containsExactly(cancelled);
    }

    /**
     * The list reads a reservation's status as the API does ({@code ReservationStages}); it showed {@code Active},
     * from the clock alone, for a reservation in its window whose provisioning had failed.
     */
    @Test
    void aReservationThatFailedInItsWindowIsFailedOnTheListAsInTheApi() {
        Team team = team(2, 16, 16, false);
        String failed = bookByApi(team, 8, day(2), day(2).plus(Duration.ofHours(4)));
        // its window runs now, and provisioning gave up on it (as ReservationLifecycle.markFailed stores it)
        jdbc.sql("""
				UPDATE reservation SET starts_at = now() - interval '1 hour', ends_at = now() + interval '3 hours',
				    lifecycle_status = 'FAILED', status_reason = 'nodes never came', status_changed_at = now()
				WHERE id = ?::uuid""").param(failed).update();
        assertThat(api.get("/api/v1/tenants/" + team.tenant() + "/reservations/" + failed, team.token())
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("FAILED");
        signIn(team.member());

        open("/tenants/" + team.tenant() + "/reservations");

        assertThat(find("#reservations tbody tr[data-id='" + failed + "'] .badge.status")
                        .getText())
                .isEqualTo("Failed");
        open("/tenants/" + team.tenant() + "/reservations?status=FAILED");
        assertThat(ids()).containsExactly(failed);
    }

    @Test
    void noTableIsCutOffAtDesktopOrPhoneWidths() {
        Team team = team(3, 32, 32, false);
        for (int i = 0; i < 3; i++) {
            bookByApi(team, 8, day(2 + i), day(2 + i).plus(Duration.ofHours(30)));
        }
        String pool = team.pool();
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        List<String> pages = List.of(
                "/tenants/" + team.tenant() + "/reservations",
                "/admin/pools/" + pool,
                "/admin/audit?tenant=" + team.tenant(),
                "/admin/tenants",
                "/admin/quotas");
        for (Dimension size : List.of(new Dimension(1440, 900), new Dimension(390, 844))) {
            browser.manage().window().setSize(size);
            for (String page : pages) {
                open(page);
                waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("h1")));
                screenshot("lists-" + page.replaceAll("[^a-z]+", "-") + size.getWidth());
                long pageWidth = (Long) browser.executeScript("return document.documentElement.scrollWidth");
                long viewport = (Long) browser.executeScript("return document.documentElement.clientWidth");
                assertThat(pageWidth)
                        .as("the page itself never scrolls sideways: %s at %s", page, size)
                        .isLessThanOrEqualTo(viewport);
                if (size.getWidth() == 1440) {
                    for (WebElement box : findAll(".table-scroll")) {
                        long inner =
                                ((Number) browser.executeScript("return arguments[0].scrollWidth", box)).longValue();
                        long outer =
                                ((Number) browser.executeScript("return arguments[0].clientWidth", box)).longValue();
                        assertThat(inner)
                                .as(
                                        "a table of %s fits its box at 1440 px: %s",
                                        page,
                                        browser.executeScript(
                                                "return Array.from(arguments[0].querySelectorAll('tr:first-child > *')).map(c => c.offsetWidth + ':' + c.textContent.trim().slice(0, 30)).join(' | ')",
                                                box))
                                .isLessThanOrEqualTo(outer + 1);
                    }
                }
            }
        }
    }

    private void sortBy(String column) {
        WebElement results = find("#reservations-results");
        find("#sort-" + column).click();
        waitFor(driver -> isGone(results));
    }

    private List<String> ids() {
        return findAll("#reservations tbody tr").stream()
                .map(row -> row.getAttribute("data-id"))
                .toList();
    }
}
