package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The calendar at fleet scale: 50 pools of 4 GPU types in 2 regions (8 groups) and 2,000 reservations, 90 days
 * on one 1440x900 screen with no scrolling. The render time is measured and printed, never asserted.
 */
class CalendarFleetBrowserTests extends ConsoleBrowserTest {

    private static final int POOLS = 50;

    private static final int RESERVATIONS = 2_000;

    @Test
    void ninetyDaysOfFiftyPoolsFitOneLaptopScreen() throws Exception {
        String tag = "f" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);
        List<String> types = List.of(newGpuType(), newGpuType(), newGpuType(), newGpuType());
        List<String> pools = new ArrayList<>();
        long seeding = System.nanoTime();
        for (int i = 0; i < POOLS; i++) {
            String pool = tag + "-p" + i;
            Api.Response created = api.post(
                    "/api/v1/pools",
                    adminToken(),
                    Map.of(
                            "name",
                            pool,
                            "gpuType",
                            types.get(i % 4),
                            "gpusPerNode",
                            8,
                            "region",
                            tag + (i % 8 < 4 ? "-eu" : "-us")));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            addNodes(pool, 2);
            pools.add(pool);
        }
        String tenant = newTenant();
        newProject(tenant, "training");
        List<Map<String, Object>> policies = new ArrayList<>();
        for (String type : types) {
            setRateCard(type);
            Map<String, Object> policy = policy(type, 0, 1_000, true);
            policy.put("maxAdvance", "P100D");
            policies.add(policy);
        }
        ok(api.put("/api/v1/tenants/" + tenant + "/quota", adminToken(), Map.of("policies", policies)));
        String member = newUser();
        addMember(tenant, member, "MEMBER");
        String token = tenantToken(tenant, "MEMBER");
        int booked = seed(tenant, token, pools);
        System.out.printf(
                "Fleet calendar: seeded %d pools and %d reservations in %.1f s%n",
                POOLS, booked, (System.nanoTime() - seeding) / 1e9);
        assertThat(booked).isEqualTo(RESERVATIONS);

        signIn(member);
        viewport(1440, 900);
        for (int run = 0; run < 2; run++) {
            measureFirstDraw(tag, "days=90&step=day", run == 0 ? "first" : "again");
        }
        // 14 days by the hour: 336 columns, where a run of equal hours is drawn as one rectangle
        for (int run = 0; run < 2; run++) {
            Map<?, ?> hourly = measureFirstDraw(
                    tag, "days=14&step=hour", run == 0 ? "first, 14 days by hour" : "again, 14 days by hour");
            assertThat(((Number) hourly.get("cellRects")).longValue())
                    .as("cells drawn as runs")
                    .isLessThan(POOLS * 14 * 24 / 2);
        }
        measureFirstDraw(tag, "days=90&step=day", "again");
        accessible();

        assertThat(findAll("g[data-pool]")).hasSize(POOLS);
        assertThat(findAll("g[data-group]")).hasSize(8);
        assertThat(findAll("#heatmap-svg g[data-pool] rect.c")).hasSize(POOLS * 90);
        assertThat(exists("#heatmap-svg rect.mine")).isTrue();
        Map<?, ?> fits = (Map<?, ?>) browser.executeScript("""
				var svg = document.getElementById('heatmap-svg').getBoundingClientRect();
				return { scrollHeight: document.documentElement.scrollHeight, scrollWidth: document.documentElement.scrollWidth,
				  innerHeight: window.innerHeight, innerWidth: window.innerWidth, svgBottom: Math.ceil(svg.bottom),
				  svgRight: Math.ceil(svg.right) };""");
        System.out.println("Fleet calendar at 1440x900: " + fits);
        assertThat(((Number) fits.get("scrollHeight")).longValue())
                .as("no vertical scrolling")
                .isLessThanOrEqualTo(((Number) fits.get("innerHeight")).longValue());
        assertThat(((Number) fits.get("scrollWidth")).longValue())
                .as("no horizontal scrolling")
                .isLessThanOrEqualTo(((Number) fits.get("innerWidth")).longValue());
        checkAccessibility();
        screenshot("laptop-calendar_fleet-90-days");

        // a phone shows the agenda: its 8 groups (GPU type and region), as wide as the screen
        viewport(390, 844);
        open("/calendar?days=90&step=day&q=" + tag);
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-view='agenda']")));
        assertThat(findAll("#agenda .agenda-group")).hasSize(8);
        assertThat(find("#collapsed-note").getText())
                .contains("50 pools do not fit the screen", "8 groups")
                .doesNotContain("each row sums its pools");
        assertThat(((Number) browser.executeScript("return document.documentElement.scrollWidth")).longValue())
                .as("no horizontal scrolling on a phone")
                .isLessThanOrEqualTo(390);
        checkAccessibility();
        screenshot("phone-calendar_fleet-90-days");
    }

    /**
     * 200 pools of 4 GPU types in 4 regions (16 groups) on a 1440x900 screen: past a screenful the groups start
     * closed, each row summing its pools, and a note says so; a group opens on demand, and the view keeps it.
     */
    @Test
    void twoHundredPoolsFitTheLaptopScreenAsClosedGroupsThatSaySoAndOpenOnDemand() {
        String tag = "g" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 30, 1L << 35), 36);
        List<String> types = List.of(newGpuType(), newGpuType(), newGpuType(), newGpuType());
        for (int i = 0; i < 200; i++) {
            String pool = tag + "-p" + i;
            Api.Response created = api.post(
                    "/api/v1/pools",
                    adminToken(),
                    Map.of(
                            "name",
                            pool,
                            "gpuType",
                            types.get(i % 4),
                            "gpusPerNode",
                            8,
                            "region",
                            tag + "-r" + (i / 4) % 4));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            addNodes(pool, 1);
        }
        String tenant = newTenant();
        String member = newUser();
        addMember(tenant, member, "MEMBER");
        signIn(member);
        viewport(1440, 900);
        open("/calendar?days=90&step=day&q=" + tag);
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-painted-at]")));

        assertThat(findAll("g[data-group]")).hasSize(16);
        assertThat(findAll("g[data-pool]")).as("every group closed").isEmpty();
        assertThat(find("#collapsed-note").isDisplayed()).isTrue();
        assertThat(find("#collapsed-note").getText()).contains("200 pools do not fit the screen", "16 groups");
        assertThat(((Number) browser.executeScript("return document.documentElement.scrollHeight")).longValue())
                .as("no vertical scrolling")
                .isLessThanOrEqualTo(900);
        assertThat(((Number) browser.executeScript("return document.documentElement.scrollWidth")).longValue())
                .as("no horizontal scrolling")
                .isLessThanOrEqualTo(1440);
        checkAccessibility();
        screenshot("laptop-calendar_200-pools");

        // the first group opens (Enter on the grid's first row): its pools appear, and the URL keeps the others closed
        find("#heatmap-svg").sendKeys(Keys.ENTER);
        int opened = findAll("g[data-pool]").size();
        assertThat(opened).as("one group's pools (200 in 16 groups)").isIn(12, 13);
        assertThat(find("#collapsed-note").isDisplayed()).isFalse();
        assertThat(browser.getCurrentUrl()).contains("collapsed=");
        browser.navigate().refresh();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-painted-at]")));
        assertThat(findAll("g[data-pool]")).as("the view kept after a reload").hasSize(opened);
        checkAccessibility();
    }

    /**
     * Opens the 90-day view and prints how long the viewer waited: from the navigation's start (the browser's own
     * clock, so neither WebDriver's polling nor the accessibility check counts) to the first frame painted with the
     * heatmap in it, and where that time went (the page, the JSON read if one was made, the drawing).
     */
    private Map<?, ?> measureFirstDraw(String tag, String view, String which) {
        long started = System.nanoTime();
        browser.get(url("/calendar?" + view + "&q=" + tag));
        new WebDriverWait(browser, Duration.ofSeconds(30), Duration.ofMillis(20))
                .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#heatmap[data-painted-at]")));
        long waited = (System.nanoTime() - started) / 1_000_000;
        Map<?, ?> t = (Map<?, ?>) browser.executeScript("""
				var nav = performance.getEntriesByType('navigation')[0], root = document.getElementById('heatmap');
				var data = performance.getEntriesByType('resource').filter(function (e) {
				  return e.name.indexOf('/calendar/data') >= 0; })[0];
				var r = function (x) { return Math.round(x); };
				return { painted: Number(root.dataset.paintedAt), drawnAt: Number(root.dataset.drawnAt),
				  draw: Number(root.dataset.renderMs), pageServer: r(nav.responseStart - nav.requestStart),
				  pageEnd: r(nav.responseEnd), pageBytes: nav.encodedBodySize, pageHtmlBytes: nav.decodedBodySize,
				  domReady: r(nav.domContentLoadedEventEnd),
				  dataRead: data ? r(data.responseEnd - data.startTime) + ' ms from ' + r(data.startTime) + ' (server '
				    + r(data.responseStart - data.requestStart) + ' ms, ' + data.encodedBodySize + ' bytes)' : 'none',
				  cells: document.querySelectorAll('#heatmap-svg rect.c').length,
				  cellRects: Number(root.dataset.cellRects) };""");
        System.out.printf(
                "Fleet calendar (%s render): heatmap painted %s ms after navigating to %s x %d pools "
                        + "(WebDriver saw it after %d ms); page served in %s ms, %s bytes (%s unpacked), received by %s ms, "
                        + "DOM ready %s ms; JSON read: %s; drawn by %s ms (drawing %s ms, %s cell rectangles); load average %s%n",
                which,
                t.get("painted"),
                view,
                POOLS,
                waited,
                t.get("pageServer"),
                t.get("pageBytes"),
                t.get("pageHtmlBytes"),
                t.get("pageEnd"),
                t.get("domReady"),
                t.get("dataRead"),
                t.get("drawnAt"),
                t.get("draw"),
                t.get("cells"),
                loadAverage());
        return t;
    }

    /** 40 one-node reservations per pool over the next 88 days, booked through the API by 4 clients at once. */
    private int seed(String tenant, String token, List<String> pools) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                int client = c;
                done.add(clients.submit(() -> {
                    Random random = new Random(client);
                    int count = 0;
                    for (int i = client; i < RESERVATIONS; i += 4) {
                        String pool = pools.get(i % pools.size());
                        for (int attempt = 0; attempt < 20; attempt++) {
                            Instant start = day(1 + random.nextInt(88)).plus(Duration.ofHours(random.nextInt(24)));
                            Map<String, Object> body = new HashMap<>(Map.of(
                                    "project",
                                    "training",
                                    "pool",
                                    pool,
                                    "gpus",
                                    8,
                                    "startsAt",
                                    start.toString(),
                                    "endsAt",
                                    start.plus(Duration.ofHours(2 + random.nextInt(30)))
                                            .toString()));
                            body.put("cluster", Map.of("orchestrator", "KUBERNETES"));
                            Api.Response response =
                                    api.post("/api/v1/tenants/" + tenant + "/reservations", token, body);
                            if (response.status() == 201) {
                                count++;
                                break;
                            }
                            if (response.status() != 409) {
                                throw new AssertionError("Not booked: " + response);
                            }
                        }
                    }
                    return count;
                }));
            }
            int total = 0;
            for (Future<Integer> future : done) {
                total += future.get();
            }
            return total;
        } finally {
            clients.shutdownNow();
        }
    }

    /**
     * The page's viewport (without the browser's own bars) exactly width x height, as a laptop's or phone's screen;
     * emulated, since a Chromium window is at least 500 px wide.
     */
    private void viewport(int width, int height) {
        browser.executeCdpCommand(
                "Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", width < 600));
        assertThat(browser.executeScript("return window.innerWidth + 'x' + window.innerHeight"))
                .isEqualTo(width + "x" + height);
    }

    @AfterEach
    void realViewport() {
        browser.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException ex) {
            return "unknown";
        }
    }

    private static void ok(Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
    }
}
