package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.allot.billing.metering.Metering;
import dev.allot.support.Api;
import dev.allot.ui.ConsoleBrowserTest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.convention.TestBean;

/**
 * A tenant admin opens Usage and reads the charts: GPU-hours and cost stacked by project per day, reserved
 * versus used, and (through the htmx form) the month by rate class. The data is booked, metered and sampled
 * here, on billing's clock (see {@link BillingTest}, whose months this test shares).
 */
@TestPropertySource(properties = {"allot.billing.await-cluster-ready=false"})
class UsageChartsBrowserTests extends ConsoleBrowserTest {

    @TestBean(name = "clock", methodName = "testClock")
    Clock clock;

    static Clock testClock() {
        return BillingTest.CLOCK;
    }

    @Autowired
    Metering metering;

    @Test
    void aTenantAdminSeesGpuHoursCostAndReservedVersusUsedForWhatWasBooked() {
        Instant t0 = BillingTest.newMonth();
        Team team = team(2, 8, 8, false);
        newProject(team.tenant(), "inference");
        // day 1: training, 8 GPUs for 2 hours; day 2: inference, 8 GPUs for 4 hours (all RESERVED at 2.00 USD)
        String training = bookByApi(team, 8, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(3)));
        Map<String, Object> body = new HashMap<>(Map.of(
                "project",
                "inference",
                "pool",
                team.pool(),
                "gpus",
                8,
                "startsAt",
                t0.plus(Duration.ofHours(25)).toString(),
                "endsAt",
                t0.plus(Duration.ofHours(29)).toString(),
                "cluster",
                Map.of("orchestrator", "KUBERNETES")));
        assertThat(api.post("/api/v1/tenants/" + team.tenant() + "/reservations", team.token(), body)
                        .status())
                .isEqualTo(201);
        await().until(() ->
                count("SELECT count(*) FROM billable_reservation WHERE tenant_slug = ?", team.tenant()) == 2);
        // the training nodes ran at 50 % all along; inference reported nothing
        String node = api.get("/api/v1/tenants/" + team.tenant() + "/reservations/" + training, team.token())
                .json()
                .get("nodes")
                .get(0)
                .asString();
        List<Map<String, Object>> samples = new ArrayList<>();
        for (int minute = 60; minute < 180; minute += 10) {
            for (int gpu = 0; gpu < 8; gpu++) {
                samples.add(Map.of(
                        "node",
                        node,
                        "gpu",
                        gpu,
                        "utilisation",
                        50.0,
                        "time",
                        t0.plus(Duration.ofMinutes(minute)).toString()));
            }
        }
        BillingTest.CLOCK.set(t0.plus(Duration.ofHours(30)));
        Api.Response sampled = api.post("/api/v1/telemetry/gpu-utilisation", adminToken(), Map.of("samples", samples));
        assertThat(sampled.status()).isEqualTo(202);
        metering.meterDue(BillingTest.CLOCK.instant());

        String admin = newUser();
        addMember(team.tenant(), admin, "TENANT_ADMIN");
        signIn(admin);
        find("#nav-usage").click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("charts")));
        String day1 = LocalDate.ofInstant(t0, ZoneOffset.UTC).toString();
        String day2 = LocalDate.ofInstant(t0, ZoneOffset.UTC).plusDays(1).toString();
        fullScreenshot("usage-charts");

        assertThat(legend("#gpu-hours-chart")).containsExactly("inference", "training");
        assertThat(bars("#gpu-hours-chart"))
                .containsExactlyInAnyOrder(day1 + " training 16.0000", day2 + " inference 32.0000");
        assertThat(figures("#gpu-hours-chart")).containsExactly(day1 + " 0.00 16.00 16.00", day2 + " 32.00 0.00 32.00");
        assertThat(bars("#cost-chart-usd"))
                .containsExactlyInAnyOrder(day1 + " training 32.0000", day2 + " inference 64.0000");
        assertThat(figures("#cost-chart-usd")).containsExactly(day1 + " 0.00 32.00 32.00", day2 + " 64.00 0.00 64.00");
        assertThat(bars("#utilisation-chart"))
                .containsExactlyInAnyOrder(
                        day1 + " Reserved 16.0000", day1 + " Used 8.0000", day2 + " Reserved 32.0000");
        assertThat(figures("#utilisation-chart"))
                .containsExactly(day1 + " 16.00 16.00 8.00 50.0 %", day2 + " 32.00 0.00 0.00 no samples");
        assertThat(find("#utilisation-chart svg").getAttribute("aria-labelledby"))
                .isEqualTo("utilisation-chart-caption utilisation-chart-desc");

        // the whole month by rate class, swapped in by htmx
        WebElement charts = find("#charts");
        new Select(find("#chart-unit")).selectByValue("month");
        new Select(find("#chart-by")).selectByValue("rateClass");
        find("#show-charts").click();
        waitFor(ExpectedConditions.stalenessOf(charts));
        String month = YearMonth.from(t0.atOffset(ZoneOffset.UTC)).toString();
        assertThat(legend("#gpu-hours-chart")).containsExactly("Reserved");
        assertThat(figures("#gpu-hours-chart")).containsExactly(month + " 48.00 48.00");
        assertThat(figures("#cost-chart-usd")).containsExactly(month + " 96.00 96.00");
        assertThat(browser.getCurrentUrl()).contains("unit=month").contains("by=rateClass");
        assertThat(find("h1").getText()).endsWith(month);

        // a range that ends before it starts is refused on the page, with no chart
        charts = find("#charts");
        find("#chart-through").sendKeys("01012000");
        find("#show-charts").click();
        waitFor(ExpectedConditions.stalenessOf(charts));
        assertThat(find("#chart-through-error").getText()).contains("on or after the first day");
        assertThat(exists("#gpu-hours-chart")).isFalse();

        // in Los Angeles (UTC-8) the training hours fell on the evening before the month's first UTC day: the
        // charts' days are the viewer's
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "America/Los_Angeles"));
        try {
            open("/usage");
            String eve = LocalDate.ofInstant(t0, ZoneOffset.UTC).minusDays(1).toString();
            open("/tenants/" + team.tenant() + "/usage?from=" + eve + "&through=" + day2 + "&unit=day&by=project");
            assertThat(find("label[for='chart-from']").getText()).contains("America/Los_Angeles");
            assertThat(bars("#gpu-hours-chart"))
                    .containsExactlyInAnyOrder(eve + " training 16.0000", day1 + " inference 32.0000");
        } finally {
            browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "UTC"));
        }
    }

    private List<String> legend(String chart) {
        return findAll(chart + " .legend li").stream().map(WebElement::getText).toList();
    }

    /** Each drawn bar as "period series value". */
    private List<String> bars(String chart) {
        return findAll(chart + " svg rect").stream()
                .map(r -> r.getAttribute("data-period") + " " + r.getAttribute("data-series") + " "
                        + r.getAttribute("data-value"))
                .toList();
    }

    /** The table behind the chart, opened as a keyboard user would, one line per row. */
    private List<String> figures(String chart) {
        WebElement details =
                find(chart.equals("#utilisation-chart") ? "#utilisation-chart-figures" : chart + "-figures");
        details.click();
        String table = chart.equals("#utilisation-chart") ? "#utilisation-chart-table" : chart + "-table";
        return findAll(table + " tbody tr").stream().map(WebElement::getText).toList();
    }
}
