package dev.allot.ui;

import dev.allot.support.Api;
import dev.allot.support.BrowserTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.PointerInput;
import org.openqa.selenium.interactions.PointerInput.Kind;
import org.openqa.selenium.interactions.PointerInput.MouseButton;
import org.openqa.selenium.interactions.PointerInput.Origin;
import org.openqa.selenium.interactions.Sequence;

/** A browser test that builds its own fleet through the API (unique names: the database is shared). */
public abstract class ConsoleBrowserTest extends BrowserTest {

    /**
     * Pages follow the browser's time zone: pin it, so that days start where the tests expect. The last test's page is
     * left first: changing the zone under an open calendar (its live updates connected) held the next page's load for
     * some 55 seconds.
     */
    @BeforeEach
    void inUtc() {
        browser.get("about:blank");
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "UTC"));
    }

    protected String newGpuType() {
        String code = "T"
                + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 45), 36)
                        .toUpperCase();
        created(api.post("/api/v1/gpu-types", adminToken(), Map.of("code", code, "memoryGb", 80)));
        return code;
    }

    protected String newPool(String gpuType, int gpusPerNode) {
        String name = unique("p");
        created(api.post(
                "/api/v1/pools",
                adminToken(),
                Map.of("name", name, "gpuType", gpuType, "gpusPerNode", gpusPerNode, "region", "eu-test-1")));
        return name;
    }

    protected List<String> addNodes(String pool, int count) {
        List<String> hostnames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String hostname = pool + "-n" + i;
            created(api.post(
                    "/api/v1/pools/" + pool + "/nodes",
                    adminToken(),
                    Map.of(
                            "hostname",
                            hostname,
                            "rack",
                            "rack-" + i / 4,
                            "ibBlock",
                            "ib-" + i / 8,
                            "cudaDrivers",
                            List.of("550.54", "560.35"))));
            hostnames.add(hostname);
        }
        return hostnames;
    }

    /** RESERVED 2.00, BORROWED 1.50, ON_DEMAND 4.00 USD per GPU-hour since 2020. */
    protected void setRateCard(String gpuType) {
        ok(api.put(
                "/api/v1/rate-cards/" + gpuType,
                adminToken(),
                Map.of(
                        "effectiveFrom",
                        "2020-01-01",
                        "currency",
                        "USD",
                        "prices",
                        Map.of("RESERVED", 2.00, "BORROWED", 1.50, "ON_DEMAND", 4.00))));
    }

    protected Map<String, Object> policy(String gpuType, int guaranteed, int max, boolean burst) {
        return new HashMap<>(Map.of(
                "gpuType",
                gpuType,
                "guaranteedGpus",
                guaranteed,
                "maxGpus",
                max,
                "burst",
                burst,
                "maxWindow",
                "P30D",
                "maxAdvance",
                "P60D",
                "priority",
                "TRAINING"));
    }

    @SafeVarargs
    protected final void setQuota(String tenant, Map<String, Object>... policies) {
        ok(api.put("/api/v1/tenants/" + tenant + "/quota", adminToken(), Map.of("policies", List.of(policies))));
    }

    /** The team's quota then asks a team admin to approve every booking of more than 10 GPU-hours. */
    protected void requireApproval(Team team, int guaranteed, int max) {
        Map<String, Object> policy = policy(team.gpuType(), guaranteed, max, false);
        policy.put("approval", Map.of("aboveGpuHours", 10));
        setQuota(team.tenant(), policy);
    }

    /** A tenant with a project "training", a quota on the pool's GPU type, and a signed-up member. */
    protected record Team(String tenant, String gpuType, String pool, String member, String token) {}

    /** A pool of {@code nodes} 8-GPU nodes and a team that may book it. */
    protected Team team(int nodes, int guaranteed, int max, boolean burst) {
        String gpuType = newGpuType();
        setRateCard(gpuType);
        String pool = newPool(gpuType, 8);
        addNodes(pool, nodes);
        return teamOn(gpuType, pool, guaranteed, max, burst);
    }

    protected Team teamOn(String gpuType, String pool, int guaranteed, int max, boolean burst) {
        String tenant = newTenant();
        newProject(tenant, "training");
        setQuota(tenant, policy(gpuType, guaranteeLeft(tenant, gpuType, guaranteed), max, burst));
        String member = newUser();
        addMember(tenant, member, "MEMBER");
        return new Team(tenant, gpuType, pool, member, tenantToken(tenant, "MEMBER"));
    }

    /** Books through the API, as a team's CI would; answers the reservation's id. */
    protected String bookByApi(Team team, int gpus, Instant start, Instant end) {
        Map<String, Object> body = new HashMap<>(Map.of(
                "project",
                "training",
                "pool",
                team.pool(),
                "gpus",
                gpus,
                "startsAt",
                start.toString(),
                "endsAt",
                end.toString()));
        body.put("cluster", Map.of("orchestrator", "KUBERNETES"));
        Api.Response booked = api.post("/api/v1/tenants/" + team.tenant() + "/reservations", team.token(), body);
        if (booked.status() != 201) {
            throw new AssertionError("Not booked: " + booked);
        }
        return booked.json().get("id").asString();
    }

    /**
     * The rival borrows the owner's node from in two minutes on, the owner books within its guarantee after the
     * notice: the rival's reservation is preempted, and its notice raised. Answers the rival's reservation's id.
     */
    protected String preempted(Team owner, Team rival) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        String victim = bookByApi(rival, 8, now.plus(Duration.ofMinutes(2)), now.plus(Duration.ofHours(8)));
        bookByApi(owner, 8, now.plus(Duration.ofHours(2)), now.plus(Duration.ofHours(4)));
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> count(
                                "SELECT count(*) FROM"
                                        + " notification n JOIN tenant t ON t.id = n.tenant_id WHERE t.slug = ? AND n.kind = 'RESERVATION_PREEMPTED'",
                                rival.tenant())
                        == 1);
        return victim;
    }

    protected void cancelByApi(Team team, String id) {
        Api.Response cancelled = api.post(
                "/api/v1/tenants/" + team.tenant() + "/reservations/" + id + "/cancel", team.token(), Map.of());
        if (cancelled.status() != 200) {
            throw new AssertionError("Not cancelled: " + cancelled);
        }
    }

    /** The start of the UTC day {@code days} from today (the browser runs in UTC unless a test says otherwise). */
    protected static Instant day(int days) {
        return Instant.now().truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(days));
    }

    /** A screenshot of the whole page, not only the window. */
    protected void fullScreenshot(String name) {
        Dimension before = browser.manage().window().getSize();
        Number height = (Number) browser.executeScript("return document.documentElement.scrollHeight");
        browser.manage()
                .window()
                .setSize(new Dimension(
                        before.getWidth(), Math.min(6000, Math.max(before.getHeight(), height.intValue() + 120))));
        screenshot(name);
        browser.manage().window().setSize(before);
    }

    /** Where a calendar cell's centre is in the window, the grid scrolled into view. */
    @SuppressWarnings("unchecked")
    protected Map<String, Long> centre(String pool, Instant start) {
        return (Map<String, Long>) browser.executeScript("""
				var c = window.allotHeatmap.cellCentre(arguments[0], arguments[1]);
				var svg = document.getElementById('heatmap-svg');
				svg.scrollIntoView({ block: 'nearest' });
				var box = svg.getBoundingClientRect();
				return { x: Math.round(box.left + c.x), y: Math.round(box.top + c.y) };""", pool, start.toString());
    }

    /**
     * A finger's tap at a point of the window (a touch pointer, as on a phone). The page is told the screen takes
     * touch first: without it, Chromium 156 delivers the tap as a mouse click (pointerType "mouse").
     */
    protected void tap(Number x, Number y) {
        touchScreen();
        PointerInput finger = new PointerInput(Kind.TOUCH, "finger");
        Sequence tap = new Sequence(finger, 0)
                .addAction(finger.createPointerMove(Duration.ZERO, Origin.viewport(), x.intValue(), y.intValue()))
                .addAction(finger.createPointerDown(MouseButton.LEFT.asArg()))
                .addAction(finger.createPointerUp(MouseButton.LEFT.asArg()));
        browser.perform(List.of(tap));
    }

    /**
     * Makes the screen a touch screen, and lets the page lay itself out again before anything on it is measured for
     * a {@link #tap}: turning touch on may change the layout (scrollbars), which moved a measured link away from
     * under the finger.
     */
    protected void touchScreen() {
        browser.executeCdpCommand("Emulation.setTouchEmulationEnabled", Map.of("enabled", true, "maxTouchPoints", 1));
        twoFramesDrawn();
    }

    /**
     * Taps the middle of the element, on a touch screen: scrolled to the middle of the screen and measured after touch
     * is on, and found to be what is under the finger there before it taps. A link that wraps onto two lines is tapped
     * in the middle of its first line: the middle of the box around both lines can lie on the text beside it.
     */
    protected void tap(WebElement element) {
        touchScreen();
        @SuppressWarnings("unchecked")
        Map<String, Object> at = (Map<String, Object>) browser.executeScript("""
				arguments[0].scrollIntoView({ block: 'center' });
				var lines = Array.prototype.filter.call(arguments[0].getClientRects(), function (r) { return r.width > 0; });
				var b = lines.length ? lines[0] : arguments[0].getBoundingClientRect();
				var x = Math.round(b.left + b.width / 2), y = Math.round(b.top + b.height / 2);
				var hit = document.elementFromPoint(x, y);
				return { x: x, y: y, hit: hit === arguments[0] || arguments[0].contains(hit),
				  there: hit ? hit.tagName.toLowerCase() + (hit.id ? '#' + hit.id : '')
				    + ' "' + (hit.textContent || '').trim().slice(0, 60) + '"' : 'nothing' };""", element);
        if (!Boolean.TRUE.equals(at.get("hit"))) {
            throw new AssertionError("Something else lies over " + element + " at " + at);
        }
        tap((Number) at.get("x"), (Number) at.get("y"));
    }

    @AfterEach
    void noTouchScreen() {
        browser.executeCdpCommand("Emulation.setTouchEmulationEnabled", Map.of("enabled", false));
    }

    protected long count(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(Long.class).single();
    }

    private static void created(Api.Response response) {
        if (response.status() != 201) {
            throw new AssertionError("Not created: " + response);
        }
    }

    private static void ok(Api.Response response) {
        if (response.status() != 200) {
            throw new AssertionError("Not saved: " + response);
        }
    }
}
