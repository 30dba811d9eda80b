package dev.allot.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.BrowserTest;
import dev.allot.support.IntegrationTest;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The screenshots of the README and docs/browser.md, taken from the real application with the quick start's demo
 * (seeded by the application at its start, in a database of its own): the homes of a team member and a platform admin, the calendar on a
 * laptop and a phone, the booking form, a running reservation, the notices, usage and the admin console's nodes,
 * a node's history and quotas. Each page is checked with axe-core as it is taken; {@code -Dallot.screenshots.write=true}
 * writes them to {@code docs/screenshots} (the 200-pool calendar comes from {@code CalendarFleetBrowserTests}).
 */
@IntegrationTest.OwnDatabase(
        value = "demo_shots",
        properties = {"allot.demo.enabled=true", "allot.demo.password=" + DemoScreenshotsBrowserTests.PASSWORD})
class DemoScreenshotsBrowserTests extends BrowserTest {

    static final String PASSWORD = "demo-password-4567";

    @AfterEach
    void laptopAgain() {
        browser.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
    }

    @Test
    void theDemosPagesAsTheReadmeShowsThem() {
        viewport(1440, 900);
        signIn("alice", PASSWORD);
        shoot("/", "#main", "demo-home-team");
        open("/calendar");
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-painted-at]")));
        assertThat(findAll("g[data-pool]")).isNotEmpty();
        checkAccessibility();
        screenshot("demo-calendar");
        // a running one, else the next: the demo's pre-training ends at 08:00 every third day, and the next begins a
        // minute after seeding, so at some hours none runs yet (this failed every run of a CI check after 08:00)
        String running = jdbc.sql("SELECT id::text FROM reservation WHERE tenant_slug = 'acme-ml' AND ends_at > ? "
                        + "AND lifecycle_status IS NULL ORDER BY starts_at > ?, starts_at LIMIT 1")
                .params(Timestamp.from(Instant.now()), Timestamp.from(Instant.now()))
                .query(String.class)
                .single();
        shoot("/tenants/acme-ml/reservations/" + running, "#main", "demo-reservation");
        shoot("/book?pool=h100-eu", "#booking-form", "demo-booking");
        shoot("/tenants/acme-ml/notices", "#main", "demo-notices");
        open("/usage");
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("charts")));
        checkAccessibility();
        screenshot("demo-usage");

        // a phone's calendar is the agenda: every pool grouped, each with its free windows or the words that it has
        // none
        viewport(390, 844);
        open("/calendar");
        waitFor(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#heatmap[data-view='agenda'][data-painted-at]")));
        long kinds = ((Number) browser.executeScript("return new Set(window.allotHeatmap.state.data.pools.map("
                        + "function (p) { return p.gpuType + ' ' + p.region; })).size"))
                .longValue();
        assertThat(findAll("#agenda .agenda-group")).isNotEmpty().hasSize((int) kinds);
        assertThat(findAll("#agenda article[data-pool]"))
                .allSatisfy(pool -> assertThat(pool.findElements(By.cssSelector("button[data-window], .agenda-none")))
                        .isNotEmpty());
        checkAccessibility();
        screenshot("demo-calendar-phone");

        viewport(1440, 900);
        signIn("admin", PASSWORD);
        shoot("/", "#main", "demo-home-fleet");
        shoot("/admin/nodes", "#main", "demo-admin-nodes");
        String incident = jdbc.sql("SELECT hostname FROM node_event ORDER BY at DESC LIMIT 1")
                .query(String.class)
                .single();
        shoot("/admin/nodes/" + incident, "#main", "demo-admin-node-history");
        assertThat(find("#main").getText()).contains(incident);
        shoot("/admin/quotas", "#main", "demo-admin-quotas");
    }

    private void shoot(String path, String waitFor, String name) {
        open(path);
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector(waitFor)));
        checkAccessibility();
        screenshot(name);
    }

    private void viewport(int width, int height) {
        browser.executeCdpCommand(
                "Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", width < 600));
    }
}
