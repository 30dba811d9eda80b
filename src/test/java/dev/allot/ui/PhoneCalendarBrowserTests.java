package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The capacity calendar on a phone (390x844, touch): below 600 px it is an agenda, not the heatmap. The pools are
 * grouped as the heatmap groups them, each with its next free windows (in the browser's zone) and a bar per day; a
 * tap on a window shows its numbers, and booking it is a second, separate control. On a wider touch screen (a
 * tablet) the heatmap stays, with its own first tap that shows a cell's numbers.
 */
class PhoneCalendarBrowserTests extends ConsoleBrowserTest {

    private static final ZoneId INDIA = ZoneId.of("Asia/Kolkata");

    private static final DateTimeFormatter MINUTES = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    @Test
    void onAPhoneTheAgendaGroupsThePoolsAndListsEachPoolsNextFreeWindowsInTheBrowsersZoneAndFollowsBookings() {
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", INDIA.getId()));
        Team team = team(1, 8, 8, false);
        String second = newPool(team.gpuType(), 8);
        addNodes(second, 1);
        Instant busy = day(2).plus(Duration.ofHours(10));
        bookByApi(team, 8, busy, busy.plus(Duration.ofHours(6)));
        onAPhone(team);
        openAgenda("days=3&step=hour&from=" + LocalDate.now(INDIA) + "&q=" + team.gpuType());

        // one group, as the heatmap groups them (GPU type and region), with both pools in the heatmap's order
        List<WebElement> groups = findAll("#agenda .agenda-group");
        assertThat(groups).hasSize(1);
        assertThat(groups.getFirst().getDomAttribute("data-group")).isEqualTo(team.gpuType() + " eu-test-1");
        assertThat(groups.getFirst().findElement(By.cssSelector("h2")).getText())
                .contains(team.gpuType(), "eu-test-1", "(2 pools)");
        List<String> pools = List.of(team.pool(), second).stream().sorted().toList();
        assertThat(groups.getFirst().findElements(By.cssSelector("article[data-pool]")).stream()
                        .map(a -> a.getDomAttribute("data-pool"))
                        .toList())
                .isEqualTo(pools);

        // the windows the fixture leaves free, from the next whole hour (capacity is counted by UTC's hours, so in
        // India they start at half past) to the view's end; shown in the browser's zone, half an hour included
        Instant next = nextHour();
        Instant end = Instant.parse((String) browser.executeScript("return window.allotHeatmap.state.data.end"));
        assertThat(windows(team.pool()))
                .containsExactly(window(next, busy), window(busy.plus(Duration.ofHours(6)), end));
        assertThat(windows(second)).containsExactly(window(next, end));
        assertThat(windows(second).getFirst().get("text")).contains(":30 GMT+5:30");

        // a bar per day: the share of its hours with a node free, said in words
        String busyDay =
                DateTimeFormatter.ofPattern("EEE d MMM", Locale.ENGLISH).format(busy.atZone(INDIA));
        assertThat(bars(team.pool())).contains(busyDay + ": a node free in 18 of its 24 hours");
        assertThat(bars(second)).contains(busyDay + ": a node free in 24 of its 24 hours");
        fullScreenshot("phone-agenda-india");

        // a booking made elsewhere reaches the open agenda
        Instant early = day(2).plus(Duration.ofHours(4));
        bookByApi(
                new Team(team.tenant(), team.gpuType(), second, team.member(), team.token()),
                8,
                early,
                early.plus(Duration.ofHours(4)));
        waitFor(driver -> windows(second).size() == 2);
        assertThat(windows(second)).containsExactly(window(next, early), window(early.plus(Duration.ofHours(4)), end));
        assertThat(bars(second)).contains(busyDay + ": a node free in 20 of its 24 hours");
        checkAccessibility();
    }

    @Test
    void onAPhoneATapOnAWindowShowsItsNumbersAndOnlyTheSeparateBookControlOpensTheFormWhichBooksIt() {
        Team team = team(1, 8, 8, false);
        bookByApi(team, 8, day(1).plus(Duration.ofHours(6)), day(2).plus(Duration.ofHours(12)));
        onAPhone(team);
        openAgenda("days=3&step=hour&from=" + day(0).toString().substring(0, 10) + "&q=" + team.pool());
        Instant start = day(2).plus(Duration.ofHours(12));
        assertThat(windows(team.pool())).last().isEqualTo(window(start, day(3)));

        WebElement chosen = find("#agenda button[data-window='" + team.pool() + "@" + start + "']");
        touchScreen();
        browser.executeScript("arguments[0].scrollIntoView({ block: 'center' })", chosen);
        Map<String, Number> before = place(chosen);
        tap(chosen);
        WebElement numbers = waitFor(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#agenda article[data-pool='" + team.pool() + "'] .agenda-numbers")));
        assertThat(browser.getCurrentUrl())
                .as("the first tap does not leave the calendar")
                .contains("/calendar");
        assertThat(numbers.getText())
                .contains(team.pool() + ": 8 of 8 GPUs free (1 whole node of 8 GPUs) throughout, from "
                        + MINUTES.format(start.atZone(ZoneOffset.UTC)) + " UTC to at least "
                        + MINUTES.format(day(3).atZone(ZoneOffset.UTC)) + " UTC (where this view ends), 12 hours.");
        assertThat(find("#agenda button[data-window='" + team.pool() + "@" + start + "']")
                        .getDomAttribute("aria-expanded"))
                .isEqualTo("true");
        assertThat(find("#cell-info").getDomProperty("textContent"))
                .contains("8 of 8 GPUs free", "Book this window is the next step.");
        // the window tapped stays where the finger is: its numbers open below it
        assertThat(place(find("#agenda button[data-window='" + team.pool() + "@" + start + "']")))
                .isEqualTo(before);
        screenshot("phone-agenda-first-tap");

        tap(numbers.findElement(By.linkText("Book this window")));
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("booking-form")));
        assertThat(find("#pool").getDomProperty("value")).isEqualTo(team.pool());
        assertThat(find("#start").getDomProperty("value"))
                .isEqualTo(start.toString().substring(0, 16));
        assertThat(find("#end").getDomProperty("value"))
                .isEqualTo(day(3).toString().substring(0, 16));
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("verdict"), "It fits"));
        WebElement html = find("html");
        tap(find("#book-submit"));
        waitFor(driver -> isGone(html));
        assertThat(find("#notice").getText()).isEqualTo("Booked 8 GPUs of " + team.pool() + ".");
    }

    @Test
    void onAPhoneEveryControlOfTheAgendaIsAFingersTargetItsTextIsReadableAndNothingIsWiderThanTheScreen() {
        Team team = team(2, 16, 16, false);
        String second = newPool(team.gpuType(), 8);
        addNodes(second, 1);
        bookByApi(team, 8, day(1).plus(Duration.ofHours(2)), day(1).plus(Duration.ofHours(9)));
        onAPhone(team);
        for (String view : List.of("days=7&step=hour", "days=14&step=day", "days=30&step=day")) {
            openAgenda(view + "&q=" + team.gpuType());
            // with a window's numbers and its Book control shown
            tap(findAll("#agenda button[data-window]").getFirst());
            waitFor(ExpectedConditions.visibilityOfElementLocated(By.linkText("Book this window")));
            @SuppressWarnings("unchecked")
            Map<String, Object> measured = (Map<String, Object>) browser.executeScript("""
					var small = [], tiny = [];
					document.querySelectorAll('#main a, #main button, #main input, #main select, #main summary')
					  .forEach(function (e) {
					    var b = e.getBoundingClientRect();
					    if (b.width === 0 && b.height === 0) { return; }
					    if (b.width < 24 || b.height < 24) { small.push((e.id || e.textContent.trim()) + ' ' + b.width + 'x' + b.height); }
					  });
					document.querySelectorAll('#agenda h2, #agenda h3, #agenda p, #agenda button, #agenda a, #agenda li')
					  .forEach(function (e) {
					    var size = parseFloat(getComputedStyle(e).fontSize);
					    if (size < 12) { tiny.push(e.textContent.trim().substring(0, 30) + ' ' + size); }
					  });
					return { small: small, tiny: tiny, windows: document.querySelectorAll('#agenda button[data-window]').length,
					  heatmapShown: document.getElementById('heatmap').offsetParent !== null,
					  pageWidth: document.documentElement.scrollWidth };""");
            assertThat((List<?>) measured.get("small"))
                    .as(view + ": controls smaller than 24x24 px")
                    .isEmpty();
            assertThat((List<?>) measured.get("tiny"))
                    .as(view + ": agenda text smaller than 12 px")
                    .isEmpty();
            assertThat(((Number) measured.get("windows")).intValue())
                    .as(view + ": windows")
                    .isGreaterThanOrEqualTo(2);
            assertThat(measured.get("heatmapShown")).as(view + ": the heatmap").isEqualTo(false);
            assertThat(((Number) measured.get("pageWidth")).intValue())
                    .as(view + ": the page's width")
                    .isLessThanOrEqualTo(390);
            checkAccessibility();
            screenshot("phone-agenda-" + view.replace('&', '-').replace('=', '-'));
        }
    }

    @Test
    void atALaptopsWidthTheHeatmapShowsAndNarrowingTheWindowBelow600PxSwitchesToTheAgenda() {
        Team team = team(1, 8, 8, false);
        signIn(team.member());
        sized(1440);
        open("/calendar?days=7&step=day&q=" + team.pool());
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-view='heatmap']")));
        assertThat(find("#heatmap-svg").isDisplayed()).isTrue();
        assertThat(find("#agenda").isDisplayed()).isFalse();
        assertThat(findAll("g[data-pool='" + team.pool() + "'] rect.c")).hasSize(7);

        // no reload: the width alone switches
        browser.manage().window().setSize(new Dimension(390, 844));
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-view='agenda']")));
        waitFor(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#agenda article[data-pool='" + team.pool() + "']")));
        assertThat(find("#heatmap").isDisplayed()).isFalse();
        checkAccessibility();

        browser.manage().window().setSize(new Dimension(1440, 900));
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-view='heatmap']")));
        waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("heatmap-svg")));
        assertThat(find("#agenda").isDisplayed()).isFalse();
    }

    /**
     * The heatmap's own touch path, on a touch screen wide enough for it (a tablet, 768 px): the first tap on a cell
     * shows its numbers, a second tap on it opens the booking form. (Below 600 px the agenda replaces the heatmap.)
     */
    @Test
    void onATabletTheFirstTapOnACellShowsItsNumbersAndOnlyASecondTapOpensTheBookingForm() {
        Team team = team(4, 32, 32, false);
        signIn(team.member());
        browser.manage().window().setSize(new Dimension(768, 1024));
        open("/calendar?days=14&step=day&q=" + team.pool());
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-view='heatmap']")));
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("live-status"), "Live updates: on"));

        tapCell(team.pool(), day(3));
        waitFor(ExpectedConditions.visibilityOfElementLocated(By.id("heatmap-tip")));
        assertThat(exists("#booking-form"))
                .as("the first tap does not leave the calendar")
                .isFalse();
        assertThat(find("#heatmap-tip").getText())
                .contains(team.pool(), "32 of 32 GPUs free", "Tap the cell again to book it.");
        assertThat(find("#cell-info").getText()).contains(team.pool(), "Tap the cell again to book it.");
        screenshot("tablet-calendar-first-tap");

        tapCell(team.pool(), day(3));
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("booking-form")));
        assertThat(find("#pool").getDomProperty("value")).isEqualTo(team.pool());
        assertThat(find("#start").getDomProperty("value"))
                .isEqualTo(day(3).toString().substring(0, 16));
    }

    // ---- helpers ---------------------------------------------------------------------------------------------------

    /** The team's member, signed in, on a phone's screen. */
    private void onAPhone(Team team) {
        signIn(team.member());
        browser.manage().window().setSize(new Dimension(390, 844));
    }

    /** Drawn as the agenda (from the data the page carries, or read in the browser's zone), and live. */
    private void openAgenda(String query) {
        open("/calendar?" + query);
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-view='agenda']")));
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("live-status"), "Live updates: on"));
    }

    /** The start of the next whole hour after the page's now: the first an agenda window can start at. */
    private Instant nextHour() {
        Instant now = Instant.parse((String) browser.executeScript("return window.allotHeatmap.state.data.now"));
        Instant hour = now.truncatedTo(ChronoUnit.HOURS);
        return hour.equals(now) ? hour : hour.plus(Duration.ofHours(1));
    }

    /** A window as {@link #windows} answers it: its bounds, and their text in the browser's zone. */
    private Map<String, String> window(Instant start, Instant end) {
        // the test's zone: India where it says so (Chromium may name it Asia/Calcutta), else the base class's UTC
        String asked = (String) browser.executeScript("return Intl.DateTimeFormat().resolvedOptions().timeZone");
        ZoneId zone = "UTC".equals(asked) ? ZoneOffset.UTC : INDIA;
        String name = zone.equals(INDIA) ? "GMT+5:30" : "UTC";
        return Map.of(
                "start",
                start.toString(),
                "end",
                end.toString(),
                "text",
                MINUTES.format(start.atZone(zone)) + " " + name + " – " + MINUTES.format(end.atZone(zone)) + " "
                        + name);
    }

    /** The pool's windows in the agenda: each one's bounds and its text (read in one script: a live update may redraw). */
    @SuppressWarnings("unchecked")
    private List<Map<String, String>> windows(String pool) {
        return (List<Map<String, String>>) browser.executeScript("""
				var article = document.querySelector("#agenda article[data-pool='" + arguments[0] + "']");
				return Array.from(article.querySelectorAll('button[data-window]')).map(function (b) {
				  var t = b.querySelectorAll('time');
				  return { start: new Date(t[0].getAttribute('datetime')).toISOString().replace('.000Z', 'Z'),
				    end: new Date(t[1].getAttribute('datetime')).toISOString().replace('.000Z', 'Z'),
				    text: b.textContent.trim() };
				});""", pool);
    }

    /** The words of the pool's day bars. */
    @SuppressWarnings("unchecked")
    private List<String> bars(String pool) {
        return (List<String>) browser.executeScript("""
				return Array.from(document.querySelectorAll(
				  "#agenda article[data-pool='" + arguments[0] + "'] svg.agenda-bar")).map(function (s) {
				  return s.getAttribute('aria-label'); });""", pool);
    }

    private Map<String, Number> place(WebElement element) {
        @SuppressWarnings("unchecked")
        Map<String, Number> at = (Map<String, Number>) browser.executeScript(
                "var r = arguments[0].getBoundingClientRect(); return { x: r.left, y: r.top };", element);
        return at;
    }

    private void tapCell(String pool, Instant start) {
        Map<String, Long> at = centre(pool, start);
        tap(at.get("x"), at.get("y"));
    }
}
