package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Every time a page shows is the browser's (issue 30): here India's, half an hour off UTC's hours, so that a time
 * shown in UTC, or computed as if zones were whole hours apart, is caught. Expected times come from java.time.
 */
class ViewerZoneBrowserTests extends ConsoleBrowserTest {

    private static final ZoneId INDIA = ZoneId.of("Asia/Kolkata");

    /** How allot.js names India's zone after a time. */
    private static final String ZONE = " GMT+5:30";

    private static final DateTimeFormatter MINUTES = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    @BeforeEach
    void inIndia() {
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", INDIA.getId()));
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void theApprovalsListShowsEachWindowInTheBrowsersZone(int width) {
        sized(width);
        Team team = team(1, 8, 8, false);
        requireApproval(team, 8, 8);
        // 19:00 UTC is 00:30 the next day in India
        Instant start = day(2).plus(Duration.ofHours(19));
        Instant end = start.plus(Duration.ofHours(4));
        String id = bookByApi(team, 8, start, end);

        signIn(team.member());
        open("/tenants/" + team.tenant() + "/approvals");
        List<WebElement> window = findAll("tr[data-id='" + id + "'] time");
        assertThat(window).hasSize(2);
        assertThat(window.get(0).getText()).isEqualTo(inIndia(start) + ZONE);
        assertThat(window.get(1).getText()).isEqualTo(inIndia(end) + ZONE);
        assertThat(window.get(0).getDomAttribute("title"))
                .isEqualTo(MINUTES.format(start.atZone(ZoneOffset.UTC)) + " UTC");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void theBookingFormsQuotaRefusalGivesItsTimeInTheBrowsersZone(int width) {
        sized(width);
        Team team = team(2, 8, 8, false);
        Instant start = day(3).plus(Duration.ofHours(9));
        signIn(team.member());
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofHours(4)) + "&gpus=16");
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "no-fit"));
        submit("#book-submit");
        assertThat(find("#gpus-error").getText())
                .startsWith("Your quota refuses this booking")
                .contains("(from " + inIndia(start) + ZONE + ")")
                .doesNotContain("UTC");
        assertThat(find("#gpus-error time").getDomAttribute("title")).endsWith(" UTC");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void theTeamQuotaTableHasTheBrowsersDays(int width) {
        sized(width);
        Team team = team(1, 8, 8, false);
        // the first two hours of the day after tomorrow in India: still the day before in UTC
        LocalDate today = LocalDate.now(INDIA);
        Instant start = today.plusDays(2).atStartOfDay(INDIA).toInstant();
        bookByApi(team, 8, start, start.plus(Duration.ofHours(2)));

        signIn(team.member());
        open("/tenants/" + team.tenant() + "/quota");
        String table = "#standing-" + team.gpuType();
        List<String> days =
                findAll(table + " tbody th").stream().map(WebElement::getText).toList();
        assertThat(days).hasSize(7);
        for (int i = 0; i < days.size(); i++) {
            assertThat(days.get(i)).isEqualTo(today.plusDays(i).toString());
        }
        assertThat(reserved(table, 1)).isEqualTo("0 of 8");
        assertThat(reserved(table, 2)).isEqualTo("8 of 8");
        assertThat(find(table + " caption").getText()).containsPattern("days in Asia/(Kolkata|Calcutta)");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void anInvitationExpiresAtATimeInTheBrowsersZone(int width) {
        sized(width);
        String tenant = newTenant();
        String invitee = newUser();
        Api.Response invited = api.post(
                "/api/v1/tenants/" + tenant + "/members",
                tenantToken(tenant, "TENANT_ADMIN"),
                Map.of("username", invitee, "role", "MEMBER"));
        assertThat(invited.status()).as(invited.toString()).isEqualTo(202);
        // 20:15 UTC is 01:45 the next day in India
        Instant expires =
                LocalDate.now(ZoneOffset.UTC).plusDays(5).atTime(20, 15).toInstant(ZoneOffset.UTC);
        jdbc.sql("UPDATE member_invitation SET expires_at = ? WHERE username = ?")
                .params(Timestamp.from(expires), invitee)
                .update();

        signIn(invitee);
        open("/invitations");
        WebElement time = find("#invitations tbody time");
        assertThat(time.getText()).isEqualTo(inIndia(expires) + ZONE);
        assertThat(time.getDomAttribute("title")).isEqualTo(MINUTES.format(expires.atZone(ZoneOffset.UTC)) + " UTC");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void theAuditLogShowsTheSecondInTheBrowsersZone(int width) {
        sized(width);
        String actor = unique("zone");
        Instant at = Instant.parse("2026-03-01T20:15:07Z");
        jdbc.sql("INSERT INTO audit_event (occurred_at, actor, action, object_type, object_id)"
                        + " VALUES (?, ?, 'test.zone', 'test', 'x')")
                .params(Timestamp.from(at), actor)
                .update();

        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/audit?actor=" + actor);
        WebElement time = find("#audit-events tbody time");
        // the time is the table's first column: on a phone too it is on the screen without scrolling the table sideways
        assertThat(time.isDisplayed()).isTrue();
        assertThat(((Number) browser.executeScript("return arguments[0].getBoundingClientRect().right", time))
                        .doubleValue())
                .isLessThanOrEqualTo(
                        ((Number) browser.executeScript("return document.documentElement.clientWidth")).doubleValue());
        assertThat(time.getText()).isEqualTo(SECONDS.format(at.atZone(INDIA)) + ZONE);
        assertThat(time.getDomAttribute("title")).isEqualTo("2026-03-01 20:15:07 UTC");
        assertThat(find("#audit-zone").getText()).matches("Asia/(Kolkata|Calcutta)");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void theCalendarsHoursAreLabelledWithTheLocalTimeTheyStartAt(int width) {
        boolean phone = sized(width);
        Team team = team(1, 8, 8, false);
        signIn(team.member());
        LocalDate from = LocalDate.now(INDIA).plusDays(1);
        open("/calendar?q=" + team.pool() + "&from=" + from + "&days=1&step=hour");
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-renders]")));
        @SuppressWarnings("unchecked")
        List<String> starts = (List<String>) browser.executeScript(
                "return window.allotHeatmap.state.data.columns.map(function (c) { return c.start; })");
        List<String> expected = starts.stream()
                .map(s -> DateTimeFormatter.ofPattern("HH:mm")
                        .format(Instant.parse(s).atZone(INDIA)))
                .toList();
        // the day's first hour starts half an hour past midnight: capacity is counted by UTC's hours
        assertThat(expected.getFirst()).isEqualTo("00:30");
        if (phone) {
            // the phone's agenda: the day's one free window, from its first hour to the next day's, in India's time
            waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-view='agenda']")));
            Instant first = Instant.parse(starts.getFirst());
            Instant end = Instant.parse((String) browser.executeScript("return window.allotHeatmap.state.data.end"));
            assertThat(findAll("#agenda article[data-pool='" + team.pool() + "'] button[data-window]").stream()
                            .map(WebElement::getText)
                            .toList())
                    .containsExactly(inIndia(first) + " GMT+5:30 – " + inIndia(end) + " GMT+5:30");
            assertThat(inIndia(first)).endsWith(" 00:30");
            return;
        }
        List<String> drawn = findAll("#heatmap-svg text.axis:not(.group)").stream()
                .map(WebElement::getText)
                .toList();
        assertThat(drawn).isNotEmpty().isSubsetOf(expected).startsWith("00:30");
        assertThat(drawn).isSortedAccordingTo(Comparator.comparingInt(expected::indexOf));
    }

    private static String inIndia(Instant instant) {
        return MINUTES.format(instant.atZone(INDIA));
    }

    /** The day's "Reserved" cell of a quota standing table. */
    private String reserved(String table, int day) {
        return findAll(table + " tbody tr")
                .get(day)
                .findElements(By.cssSelector("td"))
                .getFirst()
                .getText();
    }
}
