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
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The capacity calendar: an SVG heatmap drawn from one read of its data, live, zoomable, by keyboard. */
class CalendarBrowserTests extends ConsoleBrowserTest {

    @Test
    void ownReservationsAreMarkedAndEachCellTellsItsFreeGpusOnHoverAndFocus() {
        Team team = team(4, 32, 32, false);
        Team other = teamOn(team.gpuType(), team.pool(), 32, 32, false);
        bookByApi(team, 16, day(2).plus(Duration.ofHours(10)), day(2).plus(Duration.ofHours(14)));
        bookByApi(other, 8, day(3).plus(Duration.ofHours(10)), day(3).plus(Duration.ofHours(14)));
        signIn(team.member());
        openCalendar("days=14&step=day&q=" + team.pool());

        assertThat(h1()).isEqualTo("Capacity calendar");
        assertThat(findAll("g[data-pool='" + team.pool() + "'] rect.mine"))
                .as("one own reservation, marked once")
                .hasSize(1);
        assertThat(find("g[data-pool='" + team.pool() + "'] rect.mine").getAttribute("x"))
                .isEqualTo(cells(team.pool()).get(2).getAttribute("x"));
        assertThat(cells(team.pool()).get(2).getAttribute("class")).isEqualTo("c l4");
        assertThat(cells(team.pool()).get(4).getAttribute("class"))
                .as("all free: the darkest step")
                .isEqualTo("c l8");
        assertThat(cells(team.pool()).get(3).getAttribute("class"))
                .as("24 of 32 free")
                .isEqualTo("c l6");
        assertThat(focused(team.pool(), day(2)))
                .contains("at least 16 of 32 GPUs free all day, 16 allocated", "your reservations hold 16");
        assertThat(focused(team.pool(), day(3)))
                .contains("at least 24 of 32 GPUs free all day")
                .doesNotContain("your")
                .doesNotContain(other.tenant());
        assertThat(hover(team.pool(), day(2))).contains(team.pool(), "16 of 32 GPUs free", "UTC");
        screenshot("laptop-calendar_own");

        hover(team.pool(), day(3));
        new Actions(browser).click().perform();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("booking-form")));
        assertThat(find("#pool").getAttribute("value")).isEqualTo(team.pool());
        assertThat(find("#start").getAttribute("value"))
                .isEqualTo(day(3).toString().substring(0, 16));
        assertThat(find("#end").getAttribute("value"))
                .isEqualTo(day(4).toString().substring(0, 16));
    }

    @Test
    void anOpenCalendarUpdatesWithoutReloadAndShowsNodesOutOfServiceWithTheirReason() {
        Team team = team(4, 32, 32, false);
        Team colleague = teamOn(team.gpuType(), team.pool(), 32, 32, false);
        signIn(team.member());
        openCalendar("days=7&step=hour&q=" + team.pool());
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(5));
        assertThat(free(team.pool(), hour)).isEqualTo(32);
        browser.executeScript("document.body.dataset.marker = 'not reloaded'");

        String id = bookByApi(colleague, 16, hour, hour.plus(Duration.ofHours(2)));
        long committed = System.currentTimeMillis();
        waitUntilFree(team.pool(), hour, 16);
        System.out.println("Live calendar: the open page showed the booking " + (System.currentTimeMillis() - committed)
                + " ms after the API answered (polled every 100 ms)");
        assertThat(free(team.pool(), hour.plus(Duration.ofHours(1)))).isEqualTo(16);
        assertThat(free(team.pool(), hour.plus(Duration.ofHours(2)))).isEqualTo(32);
        assertThat(browser.executeScript("return document.body.dataset.marker")).isEqualTo("not reloaded");
        assertThat(find("#heatmap").getAttribute("data-reads"))
                .as("all rows read once; then only the changed pool")
                .isEqualTo("1");

        cancelByApi(colleague, id);
        waitUntilFree(team.pool(), hour, 32);

        api.post("/api/v1/nodes/" + team.pool() + "-n0/quarantine", adminToken(), Map.of("reason", "ECC errors"));
        waitUntilFree(team.pool(), hour, 24);
        assertThat(focused(team.pool(), hour))
                .contains("24 of 32 GPUs free", "8 GPUs out of service: 1 node in quarantine (ECC errors)");
        assertThat(exists("g[data-pool='" + team.pool() + "'] rect.out"))
                .as("hatched as unavailable")
                .isTrue();
        assertThat(find("g[data-pool='" + team.pool() + "'] .warn title").getAttribute("textContent"))
                .contains("1 node in quarantine (ECC errors)");
        assertThat(exists("#now-line")).isTrue();
        screenshot("laptop-calendar_hourly");
    }

    @Test
    void arrowKeysMoveInTheGridAndShiftEnterBooksARange() {
        Team team = team(2, 16, 16, false);
        signIn(team.member());
        openCalendar("days=14&step=day&q=" + team.pool());
        focused(team.pool(), day(0));
        WebElement grid = find("#heatmap-svg");
        grid.sendKeys(Keys.ARROW_RIGHT);
        assertThat(browser.switchTo().activeElement()).isEqualTo(grid);
        assertThat(find("#cell-info").getText()).contains(team.pool(), "at least 16 of 16 GPUs free all day");
        assertThat(find("#cell-info").getText())
                .contains(LocalDate.ofInstant(day(1), ZoneId.of("UTC"))
                        .format(DateTimeFormatter.ofPattern("EEE d MMM yyyy", Locale.ENGLISH)));

        grid.sendKeys(Keys.SHIFT, Keys.ENTER);
        grid.sendKeys(Keys.ARROW_RIGHT);
        grid.sendKeys(Keys.ARROW_RIGHT);
        WebElement html = find("html");
        grid.sendKeys(Keys.SHIFT, Keys.ENTER);
        waitFor(ExpectedConditions.stalenessOf(html));
        assertThat(find("#start").getAttribute("value"))
                .isEqualTo(day(1).toString().substring(0, 16));
        assertThat(find("#end").getAttribute("value"))
                .isEqualTo(day(4).toString().substring(0, 16));
    }

    @Test
    void groupsCollapseAndZoomingByButtonOrDragKeepsTheViewInTheUrl() {
        Team team = team(2, 16, 16, false);
        String second = newPool(team.gpuType(), 8);
        addNodes(second, 1);
        signIn(team.member());
        openCalendar("days=30&q=" + team.gpuType().toLowerCase());
        assertThat(findAll("g[data-group]")).hasSize(1);
        assertThat(findAll("g[data-pool]")).hasSize(2);
        assertThat(focused(team.pool(), day(1))).contains("16 of 16");

        // The group's summary row: both pools together.
        WebElement grid = find("#heatmap-svg");
        grid.sendKeys(Keys.PAGE_UP);
        assertThat(find("#cell-info").getText())
                .contains(team.gpuType() + " in eu-test-1, 2 pools", "24 of 24 GPUs free");
        grid.sendKeys(Keys.ENTER);
        assertThat(findAll("g[data-pool]")).as("collapsed").isEmpty();
        assertThat(browser.getCurrentUrl()).contains("collapsed=");
        browser.navigate().refresh();
        waitForHeatmap();
        assertThat(findAll("g[data-pool]")).as("still collapsed after a reload").isEmpty();
        find("#expand-all").click();
        assertThat(findAll("g[data-pool]")).hasSize(2);

        WebElement html = find("html");
        find("#zoom-in").click();
        waitFor(ExpectedConditions.stalenessOf(html));
        waitForHeatmap();
        assertThat(browser.getCurrentUrl()).contains("days=14");

        // Dragging across three days zooms to them, by hour.
        Map<String, Long> a = centre(team.pool(), day(2));
        Map<String, Long> b = centre(team.pool(), day(4));
        html = find("html");
        new Actions(browser)
                .moveToLocation(a.get("x").intValue(), a.get("y").intValue())
                .clickAndHold()
                .moveToLocation(b.get("x").intValue() - 3, b.get("y").intValue())
                .moveToLocation(b.get("x").intValue(), b.get("y").intValue())
                .release()
                .perform();
        waitFor(ExpectedConditions.stalenessOf(html));
        waitForHeatmap();
        assertThat(browser.getCurrentUrl())
                .contains("from=" + day(2).toString().substring(0, 10), "days=3", "step=hour");
        assertThat(findAll("g[data-pool='" + team.pool() + "'] rect.c")).hasSize(72);
    }

    @Test
    void theFirstCalendarAfterSignInIsInTheBrowsersZoneWithUtcOnHover() {
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "America/Los_Angeles"));
        Team team = team(2, 16, 16, false);
        signIn(team.member());
        assertThat(browser.getCurrentUrl()).endsWith("/calendar");
        assertThat(browser.manage().getCookieNamed("allot_tz").getValue()).isEqualTo("America%2FLos_Angeles");
        browser.get(url("/calendar?q=" + team.pool()));
        waitForHeatmap();
        assertThat(find("#calendar-zone").getText()).matches("America/Los_Angeles \\(P[SD]T\\)");
        ZoneId la = ZoneId.of("America/Los_Angeles");
        Instant midnight = LocalDate.now(la).atStartOfDay(la).toInstant();
        assertThat(browser.executeScript("return window.allotHeatmap.state.data.columns[0].start"))
                .isEqualTo(midnight.toString());
        assertThat(focused(team.pool(), midnight))
                .contains(
                        "(America/Los_Angeles)", "Starts " + midnight.toString().substring(0, 10) + " 0");
        assertThat(hover(team.pool(), midnight)).contains("UTC");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void inHalfAndQuarterHourZonesEveryColumnIsLabelledWithTheLocalTimeAndDayItCovers(int width) {
        // the columns are the data both views draw; on a phone the agenda shows them as its days
        boolean phone = sized(width);
        Team team = team(1, 8, 8, false);
        for (String name : new String[] {"Asia/Kolkata", "Asia/Kathmandu"}) {
            ZoneId zone = ZoneId.of(name);
            browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", name));
            signIn(team.member());
            LocalDate from = LocalDate.now(zone).plusDays(1);
            openCalendar("q=" + team.pool() + "&from=" + from + "&days=1&step=hour");
            List<Map<String, Object>> hours = columns();
            assertThat(hours).hasSizeBetween(23, 24);
            for (Map<String, Object> column : hours) {
                var local = Instant.parse((String) column.get("start")).atZone(zone);
                // the column's hour as the browser's clock shows it, minutes included, and never the day before
                assertThat(column.get("label"))
                        .as(name)
                        .isEqualTo(DateTimeFormatter.ofPattern("HH:mm").format(local));
                assertThat(local.toLocalDate()).as(name).isEqualTo(from);
            }
            if (phone) {
                // one day in the agenda, the one asked for, with all its hours
                assertThat(agendaDays(team.pool()))
                        .as(name)
                        .containsExactly(DAY_GROUP.format(from) + ": a node free in " + hours.size() + " of its "
                                + hours.size() + " hours");
            }
            screenshot("calendar-hours-" + name.replace('/', '-') + "-" + width);

            openCalendar("q=" + team.pool() + "&from=" + from + "&days=3&step=day");
            List<Map<String, Object>> days = columns();
            for (int i = 0; i < days.size(); i++) {
                assertThat(days.get(i).get("label"))
                        .as(name)
                        .isEqualTo(String.valueOf(from.plusDays(i).getDayOfMonth()));
            }
            if (phone) {
                assertThat(agendaDays(team.pool()))
                        .as(name)
                        .hasSize(3)
                        .allSatisfy(day -> assertThat(day).endsWith(" hours"))
                        .satisfies(
                                list -> assertThat(list.get(2)).startsWith(DAY_GROUP.format(from.plusDays(2)) + " "));
            }
        }
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void theLegendGivesTheShareOfGpusFreeForEachShadeAndSaysWhichWayItGoes(int width) {
        boolean phone = sized(width);
        Team team = team(1, 8, 8, false);
        signIn(team.member());
        openCalendar("q=" + team.pool());
        if (phone) {
            // the phone's agenda has no shades: its legend says what a day's bar is, and only that
            assertThat(find("#legend").getText())
                    .contains("a day's bar: the share of its hours with a node free")
                    .doesNotContain("darker: more free");
            assertThat(find("#legend .scale").isDisplayed()).isFalse();
            return;
        }
        assertThat(find("#legend").getText())
                .contains("0 %", "100 % free", "darker: more free")
                .doesNotContain("a day's bar");
        assertThat(findAll("#legend .scale i").stream()
                        .map(i -> i.getDomAttribute("title"))
                        .toList())
                .containsExactly(
                        "none free (0 %)",
                        "1-14 % free",
                        "14-29 % free",
                        "29-43 % free",
                        "43-57 % free",
                        "57-71 % free",
                        "71-86 % free",
                        "86-99 % free",
                        "all free (100 %)");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void aDayWithNoNodeFreeAllDayStillShowsInHowManyOfItsHoursOneIs(int width) {
        boolean phone = sized(width);
        Team team = team(1, 8, 8, false);
        bookByApi(team, 8, day(2).plus(Duration.ofHours(10)), day(2).plus(Duration.ofHours(16)));
        signIn(team.member());
        openCalendar("days=7&step=day&q=" + team.pool());
        if (phone) {
            String partDay = DAY_LONG.format(day(2).atZone(ZoneOffset.UTC));
            // the agenda: day 2's bar is 18/24 long and says so, day 3's is whole; the free days leave day 2 out, and
            // by the hour the bar is the same (the agenda's bar is a day's, whatever the step)
            assertThat(agendaDays(team.pool())).contains(partDay + ": a node free in 18 of its 24 hours");
            assertThat(agendaBarShare(team.pool(), 2)).isCloseTo(18.0 / 24, Offset.offset(0.002));
            assertThat(agendaBarShare(team.pool(), 3)).isEqualTo(1.0);
            assertThat(find("#agenda article[data-pool='" + team.pool() + "']").getText())
                    .contains("Next free days (a node free all day):");
            assertThat(findAll("#agenda article[data-pool='" + team.pool() + "'] button[data-window]").stream()
                            .map(b -> b.getDomAttribute("data-window"))
                            .toList())
                    .containsExactly(team.pool() + "@" + day(1), team.pool() + "@" + day(3));
            openCalendar("days=3&step=hour&from=" + day(2).toString().substring(0, 10) + "&q=" + team.pool());
            assertThat(agendaDays(team.pool()).getFirst()).endsWith(": a node free in 18 of its 24 hours");
            assertThat(agendaBarShare(team.pool(), 0)).isCloseTo(18.0 / 24, Offset.offset(0.002));
            return;
        }

        // the fewest free on day 2 is none, but its node is free in 18 of its 24 hours: a bar of 18/24 of the cell
        // (read in one script: a live update may redraw the grid between two reads)
        @SuppressWarnings("unchecked")
        Map<String, Object> drawn = (Map<String, Object>) browser.executeScript("""
				var g = document.querySelector("g[data-pool='" + arguments[0] + "']");
				var cell = g.querySelectorAll('rect.c')[2], bars = g.querySelectorAll('rect.fh');
				return { cls: cell.getAttribute('class'), x: cell.getAttribute('x'), width: cell.getAttribute('width'),
				  bars: bars.length, barX: bars.length ? bars[0].getAttribute('x') : null,
				  barWidth: bars.length ? bars[0].getAttribute('width') : null };""", team.pool());
        assertThat(drawn.get("cls")).isEqualTo("c l0");
        assertThat(((Number) drawn.get("bars")).intValue())
                .as("only the day that is partly booked")
                .isEqualTo(1);
        assertThat(drawn.get("barX")).isEqualTo(drawn.get("x"));
        double cell = Double.parseDouble((String) drawn.get("width"));
        assertThat(Double.parseDouble((String) drawn.get("barWidth"))).isCloseTo(cell * 18 / 24, Offset.offset(0.02));
        assertThat(focused(team.pool(), day(2)))
                .contains("at least 0 of 8 GPUs free all day", "a node free in 18 of its 24 hours");
        assertThat(focused(team.pool(), day(3))).contains("a node free in 24 of its 24 hours");
        assertThat(find("#legend").getText()).contains("a node free for part of the day");

        // by the hour there is no such bar: each hour is either free or not
        openCalendar("days=3&step=hour&from=" + day(2).toString().substring(0, 10) + "&q=" + team.pool());
        assertThat(findAll("g[data-pool='" + team.pool() + "'] rect.fh")).isEmpty();
        assertThat(find("#legend").getText()).doesNotContain("a node free for part of the day");
    }

    private static final DateTimeFormatter DAY_GROUP = DateTimeFormatter.ofPattern("EEE d MMM", Locale.ENGLISH);

    private static final DateTimeFormatter DAY_LONG = DateTimeFormatter.ofPattern("EEE d MMM yyyy", Locale.ENGLISH);

    /** The words of a pool's day bars in the phone's agenda. */
    @SuppressWarnings("unchecked")
    private List<String> agendaDays(String pool) {
        return (List<String>) browser.executeScript("""
				return Array.from(document.querySelectorAll(
				  "#agenda article[data-pool='" + arguments[0] + "'] svg.agenda-bar")).map(function (s) {
				  return s.getAttribute('aria-label'); });""", pool);
    }

    /** How much of its length a day's bar in the agenda fills (0 to 1). */
    private double agendaBarShare(String pool, int day) {
        return ((Number) browser.executeScript("""
				var bar = document.querySelectorAll("#agenda article[data-pool='" + arguments[0] + "'] svg.agenda-bar")[arguments[1]];
				return bar.querySelector('.agenda-bar-free').getBBox().width / bar.querySelector('.agenda-bar-all').getBBox().width;""", pool, day)).doubleValue();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> columns() {
        return (List<Map<String, Object>>) browser.executeScript("return window.allotHeatmap.state.data.columns");
    }

    // ---- helpers ---------------------------------------------------------------------------------------------------

    private void openCalendar(String query) {
        open("/calendar?" + query);
        waitForHeatmap();
    }

    /** Drawn (from the data the page carries), and connected to the event stream. */
    private void waitForHeatmap() {
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-renders]")));
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("live-status"), "Live updates: on"));
        checkAccessibility();
    }

    private List<WebElement> cells(String pool) {
        return findAll("g[data-pool='" + pool + "'] rect.c");
    }

    private long free(String pool, Instant start) {
        return ((Number) browser.executeScript("""
				var h = window.allotHeatmap, c = h.column(arguments[1]), name = arguments[0];
				var p = h.state.data.pools.find(function (p) { return p.name === name; });
				return c < 0 || !p ? -1 : p.free[c];""", pool, start.toString())).longValue();
    }

    private void waitUntilFree(String pool, Instant start, long value) {
        new WebDriverWait(browser, Duration.ofSeconds(60))
                .pollingEvery(Duration.ofMillis(100))
                .until(driver -> free(pool, start) == value);
    }

    /** What the page says about a cell when the grid has the focus on it (shown above the grid, announced). */
    private String focused(String pool, Instant start) {
        String text = (String) browser.executeScript(
                "return window.allotHeatmap.focusCell(arguments[0], arguments[1])", pool, start.toString());
        assertThat(text).as("a cell of " + pool + " at " + start).isNotNull();
        assertThat(find("#cell-info").getText()).isEqualTo(text);
        return text;
    }

    /** Points at the cell with the mouse; answers the hover text. */
    private String hover(String pool, Instant start) {
        Map<String, Long> at = centre(pool, start);
        new Actions(browser)
                .moveToLocation(at.get("x").intValue(), at.get("y").intValue())
                .perform();
        WebElement tip = find("#heatmap-tip");
        waitFor(ExpectedConditions.visibilityOf(tip));
        return tip.getText();
    }
}
