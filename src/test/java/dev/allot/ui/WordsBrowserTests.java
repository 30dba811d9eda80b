package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.shared.security.PlatformRole;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/** What pages say is in plain words: durations, field labels, times with their zone; never the API's names. */
class WordsBrowserTests extends ConsoleBrowserTest {

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void aQuotaRefusalSpeaksInDaysNotInIsoDurations(int width) {
        sized(width);
        Team team = team(2, 16, 16, false);
        Map<String, Object> week = policy(team.gpuType(), 16, 16, false);
        week.put("maxWindow", "P7D");
        setQuota(team.tenant(), week);
        signIn(team.member());
        Instant start = day(2).plus(Duration.ofHours(9));
        open("/book?pool=" + team.pool() + "&start=" + start + "&end=" + start.plus(Duration.ofDays(15)) + "&gpus=8");
        waitFor(ExpectedConditions.attributeToBe(By.id("quote-state"), "data-state", "no-fit"));
        String reasons = find("#reasons").getText();
        assertThat(reasons)
                .contains("Your quota refuses it: The reservation would last 15 days; the quota allows at "
                        + "most 7 days (8 days too long).");
        assertThat(find("#quote").getText()).doesNotContainPattern("P(T)?\\d").doesNotContain("maxWindow");
        assertThat(find("#window-help").getText()).contains("up to 7 days long");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void anExtensionIntoAnotherBookingSaysWhyOnceWithTheZone(int width) {
        sized(width);
        Team team = team(1, 8, 8, false);
        Team rival = teamOn(team.gpuType(), team.pool(), 8, 8, false);
        Instant start = day(2).plus(Duration.ofHours(9));
        String id = bookByApi(team, 8, start, start.plus(Duration.ofHours(3)));
        bookByApi(rival, 8, start.plus(Duration.ofHours(4)), start.plus(Duration.ofHours(6)));
        signIn(team.member());
        open("/tenants/" + team.tenant() + "/reservations/" + id);
        find("#extend summary").click();
        browser.executeScript(
                "arguments[0].value = arguments[1]",
                find("#extend-end"),
                start.plus(Duration.ofHours(5)).toString().substring(0, 16));
        submit("#extend-submit");
        String error = find("#end-error").getText();
        assertThat(error)
                .startsWith("Its nodes are not all free until "
                        + start.plus(Duration.ofHours(5))
                                .toString()
                                .substring(0, 16)
                                .replace('T', ' ') + " UTC;");
        assertThat(error.split("not all free", -1)).hasSize(2);
        assertThat(find("#ends-at").getText()).endsWith(" UTC");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void platformAdminsAndAuditorsAreShownWhereTeamsAreNotToldToAskForOne(int width) {
        sized(width);
        for (PlatformRole role : List.of(PlatformRole.PLATFORM_ADMIN, PlatformRole.AUDITOR)) {
            signIn(newUser(role));
            for (String page : List.of("/reservations", "/usage", "/book")) {
                open(page);
                String text = find("#no-tenant").getText();
                assertThat(text)
                        .as(role + " " + page)
                        .contains("whole platform")
                        .doesNotContain("Ask a team's admin");
                assertThat(find("#no-tenant-admin-link").getAttribute("href")).endsWith("/admin/tenants");
            }
        }
        signIn(newUser());
        open("/reservations");
        assertThat(find("#no-tenant").getText()).contains("Ask a team's admin to add you");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void theClusterPageListsTheReservedNodesAndItsStepsInWords(int width) {
        sized(width);
        Team team = team(2, 16, 16, false);
        Instant start = day(3).plus(Duration.ofHours(9));
        String id = bookByApi(team, 16, start, start.plus(Duration.ofHours(2)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> count("SELECT count(*) FROM cluster WHERE reservation_id = ?::uuid", id) == 1);
        signIn(team.member());
        open("/tenants/" + team.tenant() + "/reservations/" + id + "/cluster");
        assertThat(findAll("#cluster-nodes tbody tr")).hasSize(2);
        String timeline = find("#cluster-timeline").getText();
        assertThat(timeline).contains("Provisioning scheduled").doesNotContain("schedule scheduled");
        for (WebElement time : findAll("#cluster time")) {
            assertThat(time.getText()).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC");
            assertThat(time.getAttribute("title")).endsWith(" UTC");
        }
        assertThat(find("#cluster").getText()).doesNotContainPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:");
    }
}
