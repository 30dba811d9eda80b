package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Smaller problems of issue 30's finding 10: codes shown as codes, a refusal naming no field, an unnamed table header
 * and sections shown twice (a phone's, in {@link PhonePagesBrowserTests}).
 */
class SmallThingsBrowserTests extends ConsoleBrowserTest {

    /** An API code as written: any with an underscore (NOT_CHECKED, ON_DEMAND), and one-word codes of these pages. */
    private static final Pattern CODE = Pattern.compile("\\b[A-Z]+_[A-Z_]+\\b|\\b(CONFIRMED|PENDING|TRAINING|RESERVED"
            + "|BORROWED|KUBERNETES|SLURM|MEMBER|VIEWER|ACTIVE|QUEUED)\\b");

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void teamPagesNameEveryStateRoleAndClassInWords(int width) {
        sized(width);
        Team team = team(2, 16, 16, false);
        String id = bookedAndSignedIn(team);
        for (String page : List.of("/reservations/" + id, "/reservations", "/quota", "/members")) {
            open("/tenants/" + team.tenant() + page);
            waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("h1")));
            assertThat(codes(find("main").getText())).as(page).isEmpty();
        }
        open("/tenants/" + team.tenant() + "/reservations/" + id);
        assertThat(find("#configuration").getText()).contains("Kubernetes");
        assertThat(find("#status").getText()).isEqualTo("Confirmed");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void aValueTheQuotaRefusesIsNamedByItsFieldNeverAsTheValuesAbove(int width) {
        sized(width);
        String gpuType = newGpuType();
        addNodes(newPool(gpuType, 8), 2);
        String tenant = "aa" + unique("q");
        api.post("/api/v1/tenants", adminToken(), Map.of("slug", tenant, "displayName", "First " + tenant));
        setQuota(tenant, policy(gpuType, 8, 16, false));
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/quotas/" + tenant);
        // a window below the guarantee: the quota itself refuses it, for its windows[0].maxGpus
        find("#windows-" + gpuType).clear();
        find("#windows-" + gpuType).sendKeys("sat 00:00-24:00 4");
        submit("#save-" + gpuType);
        assertThat(find("#windows-" + gpuType + "-error").getText()).contains("at least");
        String impact = find("#impact-" + gpuType).getText();
        assertThat(impact)
                .startsWith("Fix Time windows (")
                .doesNotContain("values above")
                .doesNotContain("null");
        assertThat(exists("#form-error")).isFalse();

        // a bad value of the form itself, saved: the page names it too, as the preview did while typing
        find("#windows-" + gpuType).clear();
        find("#maxGpus-" + gpuType).clear();
        find("#maxGpus-" + gpuType).sendKeys("4");
        submit("#save-" + gpuType);
        assertThat(find("#impact-" + gpuType).getText()).startsWith("Fix Maximum GPUs (must be at least");
    }

    /**
     * Each header, brought into its table's box as a reader scrolling it would (on a phone the nine columns scroll
     * sideways in a box reached by keyboard), shows a name and has one.
     */
    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void everyHeaderOfTheQuotasOverviewIsNamed(int width) {
        boolean phone = sized(width);
        String first = newGpuType();
        String second = newGpuType();
        String tenant = "aa" + unique("q");
        api.post("/api/v1/tenants", adminToken(), Map.of("slug", tenant, "displayName", "First " + tenant));
        setQuota(tenant, policy(first, 0, 16, false), policy(second, 0, 16, false));
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/quotas");
        WebElement box = find("#quotas-list .table-scroll");
        if (phone) {
            // that it fits at 1440 px is ListsBrowserTests' check
            assertThat(((Number) browser.executeScript(
                                    "return arguments[0].scrollWidth - arguments[0].clientWidth", box))
                            .longValue())
                    .as("the table scrolls sideways in its box")
                    .isPositive();
            assertThat(box.getDomAttribute("tabindex")).isEqualTo("0");
            assertThat(box.getAccessibleName()).startsWith("Quotas by tenant and GPU type");
        }
        List<WebElement> headers = findAll("#quotas th");
        // nine column headers, and a row header for each of the tenant's two GPU types at least
        assertThat(headers).hasSizeGreaterThanOrEqualTo(11);
        for (WebElement header : headers) {
            browser.executeScript(
                    "arguments[0].scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' })",
                    header);
            @SuppressWarnings("unchecked")
            Map<String, Number> seen = (Map<String, Number>) browser.executeScript("""
					var cell = arguments[0].getBoundingClientRect(), box = arguments[1].getBoundingClientRect();
					return { left: cell.left - Math.max(box.left, 0),
					  right: Math.min(box.right, document.documentElement.clientWidth) - cell.right };""", header, box);
            assertThat(seen.get("left").doubleValue())
                    .as("%s is in view", header.getText())
                    .isGreaterThanOrEqualTo(-1);
            assertThat(seen.get("right").doubleValue())
                    .as("%s is in view", header.getText())
                    .isGreaterThanOrEqualTo(-1);
            assertThat(header.getText()).isNotBlank();
            assertThat(header.getAccessibleName()).isNotBlank();
        }
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void aReservationPageHasOneTimelineAndOneNodesSection(int width) {
        sized(width);
        Team team = team(2, 16, 16, false);
        String id = bookedAndSignedIn(team);
        open("/tenants/" + team.tenant() + "/reservations/" + id);
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("cluster-nodes")));
        List<String> headings =
                findAll("main h2, main h3").stream().map(WebElement::getText).toList();
        assertThat(headings.stream().filter(h -> h.startsWith("Timeline")))
                .as(headings.toString())
                .hasSize(1);
        assertThat(headings.stream().filter(h -> h.startsWith("Nodes")))
                .as(headings.toString())
                .hasSize(1);
    }

    /** The team's reservation of all its 16 GPUs, for three hours the day after tomorrow; its member signed in. */
    private String bookedAndSignedIn(Team team) {
        Instant start = day(2).plus(Duration.ofHours(9));
        String id = bookByApi(team, 16, start, start.plus(Duration.ofHours(3)));
        signIn(team.member());
        return id;
    }

    private static List<String> codes(String text) {
        return CODE.matcher(text).results().map(MatchResult::group).toList();
    }
}
