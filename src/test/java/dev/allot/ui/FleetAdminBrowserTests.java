package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

class FleetAdminBrowserTests extends ConsoleBrowserTest {

    @Test
    void anAdminAddsAGpuTypeAPoolAndSixteenNodesByHostnameRange() {
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin");
        find("#tab-pools").click();
        assertThat(h1()).isEqualTo("Pools and nodes");

        String code =
                "X" + Long.toString(System.nanoTime() % 1_000_000_000L, 36).toUpperCase();
        find("#gpu-code").sendKeys(code);
        find("#gpu-memory").clear();
        find("#gpu-memory").sendKeys("141");
        submit("#create-gpu-type-submit");
        assertThat(find("#notice").getText()).isEqualTo("Added GPU type " + code + ".");

        String pool = unique("pool");
        find("#pool-name").sendKeys(pool);
        new Select(find("#pool-gpu-type")).selectByValue(code);
        find("#pool-region").sendKeys("eu-west-1");
        submit("#create-pool-submit");
        assertThat(h1()).isEqualTo("Pool " + pool);

        String prefix = unique("gpu");
        find("#hostnames").sendKeys(prefix + "-[001-016]");
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("hostnames-preview"), "16 nodes"));
        assertThat(find("#hostnames-preview").getText()).contains(prefix + "-001", prefix + "-016");
        find("#rack").sendKeys("r1");
        find("#ibBlock").sendKeys("ib-a");
        find("#cudaDrivers").sendKeys("550.54, 560.35");
        submit("#add-nodes-submit");

        assertThat(find("#notice").getText()).startsWith("Added 16 nodes");
        assertThat(findAll("#nodes tbody tr")).hasSize(16);
        assertThat(find("tr[data-hostname='" + prefix + "-007']").getText())
                .contains("Available", "r1", "550.54, 560.35");
        assertThat(count("SELECT count(*) FROM node WHERE hostname LIKE ?", prefix + "-%"))
                .isEqualTo(16);
        fullScreenshot("laptop-admin_pool");
    }

    @Test
    void aRangeOverlappingExistingNodesAddsNoneAndSaysWhich() {
        String pool = newPool(newGpuType(), 8);
        String prefix = unique("gpu");
        api.post(
                "/api/v1/pools/" + pool + "/nodes",
                adminToken(),
                Map.of("hostname", prefix + "-003", "rack", "r", "ibBlock", "b"));
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/pools/" + pool);

        find("#hostnames").sendKeys(prefix + "-[001-004]");
        // the live preview lands before the click, so the button is where the click aims
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("hostnames-preview"), "4 nodes"));
        find("#rack").sendKeys("r1");
        find("#ibBlock").sendKeys("ib-a");
        submit("#add-nodes-submit");
        assertThat(find("#hostnames-error").getText()).contains(prefix + "-003", "exists", "No nodes were added");
        assertThat(find("#hostnames").getAttribute("value")).isEqualTo(prefix + "-[001-004]");
        assertThat(count("SELECT count(*) FROM node WHERE hostname LIKE ?", prefix + "-%"))
                .isEqualTo(1);

        find("#hostnames").clear();
        find("#hostnames").sendKeys(prefix + "-[009-001]");
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("hostnames-preview"), "runs backwards"));
        submit("#add-nodes-submit");
        assertThat(find("#hostnames-error").getText()).isEqualTo("The range 009-001 runs backwards");
        assertThat(find("#hostnames").getAttribute("aria-invalid")).isEqualTo("true");
    }

    @Test
    void anAdminQuarantinesANodeWithAReasonAndReleasesIt() {
        String pool = newPool(newGpuType(), 8);
        String node = addNodes(pool, 2).getFirst();
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/pools/" + pool);
        String row = "tr[data-hostname='" + node + "']";

        find(row + " summary").click();
        find(row + " button[type=submit]").click();
        // An empty reason: the browser refuses to send it, and the page stays as it was.
        assertThat(find(row + " input[name=reason]").getAttribute("validationMessage"))
                .isNotBlank();
        assertThat(find(row + " .state").getText()).isEqualTo("Available");

        find(row + " input[name=reason]").sendKeys("<script>alert(1)</script> ECC errors");
        submit(row + " button[type=submit]");
        assertThat(find("#notice").getText()).isEqualTo("Quarantined " + node + ".");
        assertThat(find(row + " .state").getText()).isEqualTo("Quarantined");
        assertThat(find(row + " .reason").getText()).as("escaped").isEqualTo("<script>alert(1)</script> ECC errors");
        assertThat(find("#pool-counts").getText()).contains("2 nodes: 1 bookable, 1 unhealthy");

        find(row + " summary").click();
        find(row + " input[name=reason]").sendKeys("Replaced the DIMM");
        submit(row + " button[type=submit]");
        assertThat(find(row + " .state").getText()).isEqualTo("Available");
        assertThat(jdbc.sql("SELECT action FROM audit_event WHERE object_id = ? ORDER BY id")
                        .param(node)
                        .query(String.class)
                        .list())
                .containsExactly("node.created", "node.quarantined", "node.available");
    }

    @Test
    void quarantiningANodeNamesTheReservationsThatHoldIt() {
        Team team = team(1, 8, 8, false);
        String id = bookByApi(team, 8, day(2), day(2).plus(Duration.ofHours(3)));
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/pools/" + team.pool());
        String row = "tr[data-hostname='" + team.pool() + "-n0']";
        find(row + " summary").click();
        find(row + " input[name=reason]").sendKeys("GPU fell off the bus");
        submit(row + " button[type=submit]");

        assertThat(find("#affected h2").getText()).isEqualTo("1 reservation holds this node from now on");
        assertThat(find("#affected a").getText()).isEqualTo(team.tenant() + ": reservation " + id.substring(0, 8));
        assertThat(find("#affected a").getAttribute("href"))
                .endsWith("/tenants/" + team.tenant() + "/reservations/" + id);
    }

    @Test
    void anAuditorReadsTheFleetButCannotChangeIt() {
        String pool = newPool(newGpuType(), 8);
        addNodes(pool, 1);
        signIn(newUser(PlatformRole.AUDITOR));
        // the list is paged (50 a page) and other tests' pools come first: search for this one
        open("/admin/pools?q=" + pool);
        assertThat(find("#read-only").getText()).contains("only platform admins");
        assertThat(exists("#create-pool")).isFalse();
        assertThat(exists("#create-gpu-type")).isFalse();
        find("tr[data-pool='" + pool + "'] a").click();
        assertThat(h1()).isEqualTo("Pool " + pool);
        assertThat(exists("#add-nodes")).isFalse();
        assertThat(exists("#nodes td.actions")).isFalse();
    }
}
