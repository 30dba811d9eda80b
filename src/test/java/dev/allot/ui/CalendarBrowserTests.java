package dev.allot.ui;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.assertj.core.api.Assertions.assertThat;

class CalendarBrowserTests extends ConsoleBrowserTest {

	@Test
	void eachCellShowsTheFreeGpusAndMarksOnlyTheTeamsOwnReservations() {
		Team team = team(4, 32, 32, false);
		Team other = teamOn(team.gpuType(), team.pool(), 32, 32, false);
		bookByApi(team, 16, day(2).plus(Duration.ofHours(10)), day(2).plus(Duration.ofHours(14)));
		bookByApi(other, 8, day(3).plus(Duration.ofHours(10)), day(3).plus(Duration.ofHours(14)));
		signIn(team.member());
		open("/calendar?type=" + team.gpuType());
		calendarCaughtUp();

		assertThat(h1()).isEqualTo("Capacity calendar");
		WebElement mine = cell(team.pool(), day(2));
		assertThat(free(mine)).isEqualTo("16");
		assertThat(mine.getAttribute("class")).contains("m", "l2");
		assertThat(described(mine)).contains("at least 16 of 32 GPUs available all day, 16 allocated, 0 unhealthy",
				"your reservations hold 16");
		WebElement theirs = cell(team.pool(), day(3));
		assertThat(free(theirs)).isEqualTo("24");
		assertThat(theirs.getAttribute("class")).isEqualTo("cell l3");
		assertThat(described(theirs)).doesNotContain("your").doesNotContain(other.tenant());
		assertThat(free(cell(team.pool(), day(4)))).isEqualTo("32");
		assertThat(cell(team.pool(), day(4)).getAttribute("class")).isEqualTo("cell l4");

		theirs.click();
		waitFor(ExpectedConditions.presenceOfElementLocated(By.id("booking-form")));
		assertThat(find("#pool").getAttribute("value")).isEqualTo(team.pool());
		assertThat(find("#start").getAttribute("value")).isEqualTo(day(3).toString().substring(0, 16));
		assertThat(find("#end").getAttribute("value")).isEqualTo(day(4).toString().substring(0, 16));
	}

	@Test
	void anOpenCalendarUpdatesWithoutReloadWhenSomeoneBooksCancelsOrANodeIsQuarantined() {
		Team team = team(4, 32, 32, false);
		Team colleague = teamOn(team.gpuType(), team.pool(), 32, 32, false);
		signIn(team.member());
		open("/calendar?days=14&step=hour&type=" + team.gpuType());
		calendarCaughtUp();
		Instant hour = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS).plus(Duration.ofHours(5));
		WebElement before = cell(team.pool(), hour);
		assertThat(free(before)).isEqualTo("32");
		browser.executeScript("document.body.dataset.marker = 'not reloaded'");

		// The page notes when the row changes, to measure the delay from the booking's commit to the screen.
		browser.executeScript("""
				var table = document.getElementById('calendar'), pool = arguments[0], start = arguments[1];
				var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
				var index = Array.prototype.findIndex.call(heads, function (h) { return h.dataset.start === start; });
				new MutationObserver(function () {
				  var row = document.getElementById('row-' + pool);
				  var cell = row && row.cells[index] && row.cells[index].querySelector('.cell');
				  if (cell && cell.textContent === '16' && !window.changedAt) { window.changedAt = Date.now(); }
				}).observe(table, { childList: true, subtree: true });""", team.pool(), hour.toString());
		String id = bookByApi(colleague, 16, hour, hour.plus(Duration.ofHours(2)));
		long committed = System.currentTimeMillis();
		waitUntilFree(team.pool(), hour, "16");
		long delay = ((Number) browser.executeScript("return window.changedAt")).longValue() - committed;
		System.out.println("Live calendar: the open page showed the booking " + delay + " ms after the API answered");
		assertThat(free(cell(team.pool(), hour.plus(Duration.ofHours(1))))).isEqualTo("16");
		assertThat(free(cell(team.pool(), hour.plus(Duration.ofHours(2))))).isEqualTo("32");
		assertThat(browser.executeScript("return document.body.dataset.marker")).isEqualTo("not reloaded");

		cancelByApi(colleague, id);
		waitUntilFree(team.pool(), hour, "32");

		String node = team.pool() + "-n0";
		api.post("/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", "ECC errors"));
		waitUntilFree(team.pool(), hour, "24");
		assertThat(described(cell(team.pool(), hour))).contains("24 of 32 GPUs available, 0 allocated, 8 unhealthy");
		fullScreenshot("laptop-calendar_hourly");
	}

	@Test
	void aReconnectingCalendarCatchesUpWithWhatItMissed() {
		Team team = team(2, 16, 16, false);
		signIn(team.member());
		open("/calendar?type=" + team.gpuType());
		calendarCaughtUp();
		// Drop the page's event stream as a network failure would, and book while it is down.
		browser.executeScript("window.droppedSource = document.getElementById('calendar-live')"
				+ "['htmx-internal-data'].sseEventSource; window.droppedSource.close();");
		bookByApi(team, 8, day(2).plus(Duration.ofHours(1)), day(2).plus(Duration.ofHours(3)));
		assertThat(browser.executeScript("return window.droppedSource.readyState")).as("closed: no event can arrive")
			.isEqualTo(2L);
		assertThat(free(cell(team.pool(), day(2)))).isEqualTo("16");

		// The failure is noticed; the page reconnects by itself and catches up.
		browser.executeScript("window.droppedSource.onerror(new Event('error'));");
		waitUntilFree(team.pool(), day(2), "8");
	}

	@Test
	void arrowKeysMoveBetweenCellsAndTheGridIsOneTabStop() {
		Team team = team(2, 16, 16, false);
		signIn(team.member());
		open("/calendar?type=" + team.gpuType());
		calendarCaughtUp();
		WebElement first = cell(team.pool(), day(0));
		first.sendKeys(Keys.ARROW_RIGHT);
		WebElement focused = browser.switchTo().activeElement();
		assertThat(focused).isEqualTo(cell(team.pool(), day(1)));
		assertThat(focused.getAttribute("tabindex")).isEqualTo("0");
		assertThat(findAll("#calendar .cell[tabindex='0']")).hasSize(1);
		assertThat(find("#cell-info").getText()).contains(team.pool(), "at least 16 of 16 GPUs available all day");

		focused.sendKeys(Keys.SHIFT, Keys.ENTER);
		WebElement later = browser.switchTo().activeElement();
		later.sendKeys(Keys.ARROW_RIGHT);
		later = browser.switchTo().activeElement();
		later.sendKeys(Keys.ARROW_RIGHT);
		later = browser.switchTo().activeElement();
		WebElement html = find("html");
		later.sendKeys(Keys.SHIFT, Keys.ENTER);
		waitFor(ExpectedConditions.stalenessOf(html));
		assertThat(find("#start").getAttribute("value")).isEqualTo(day(1).toString().substring(0, 16));
		assertThat(find("#end").getAttribute("value")).isEqualTo(day(4).toString().substring(0, 16));
	}

	@Test
	void aViewerSeesTheCalendarButNoBookingActions() {
		Team team = team(2, 16, 16, false);
		String viewer = newUser();
		addMember(team.tenant(), viewer, "VIEWER");
		String id = bookByApi(team, 8, day(2), day(2).plus(Duration.ofHours(2)));
		signIn(viewer);
		open("/calendar?type=" + team.gpuType());
		calendarCaughtUp();
		WebElement cell = cell(team.pool(), day(2));
		assertThat(cell.getAttribute("href")).isNull();
		assertThat(free(cell)).isEqualTo("8");
		assertThat(cell.getAttribute("class")).isEqualTo("cell l2 m");
		assertThat(cell.getTagName()).isEqualTo("span");
		assertThat(find(".calendar-help").getText()).contains("does not book");

		open("/book?pool=" + team.pool());
		assertThat(find("#cannot-book").getText()).contains("not book");
		assertThat(exists("#booking-form")).isFalse();
		open("/tenants/" + team.tenant() + "/reservations/" + id);
		assertThat(find("#status").getText()).isEqualTo("Confirmed");
		assertThat(exists("#extend")).isFalse();
		assertThat(exists("#cancel")).isFalse();
	}

	/** Connected, and the rows reloaded once to catch up with changes made while the page was on its way. */
	private void calendarCaughtUp() {
		waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("live-status"), "last change"));
	}

	/**
	 * Waits for a cell to show a count; rows are swapped meanwhile, so a found cell may go stale. The bound is
	 * generous: when the event stream drops (seen on a loaded 2-core machine) the page catches up only after
	 * htmx reconnects and resyncs, which is what this then checks.
	 */
	private void waitUntilFree(String pool, Instant start, String value) {
		new WebDriverWait(browser, Duration.ofSeconds(60)).ignoring(StaleElementReferenceException.class)
			.until(driver -> free(cell(pool, start)).equals(value));
	}

	private static String free(WebElement cell) {
		return cell.getText();
	}

	/** What the page says about a cell when it has the focus (its accessible name, also shown above the grid). */
	private String described(WebElement cell) {
		browser.executeScript("arguments[0].focus()", cell);
		assertThat(find("#cell-info").getText()).isEqualTo(cell.getAttribute("aria-label"));
		return cell.getAttribute("aria-label");
	}

	/** The cell of the pool's row under the column that starts at the instant. */
	private WebElement cell(String pool, Instant start) {
		List<WebElement> columns = findAll("#calendar thead tr:last-child th");
		int index = columns.stream().map(c -> c.getAttribute("data-start")).toList().indexOf(start.toString());
		assertThat(index).as("a column starts at " + start).isPositive();
		return find("tr[data-pool='" + pool + "'] > :nth-child(" + (index + 1) + ") .cell");
	}

}
