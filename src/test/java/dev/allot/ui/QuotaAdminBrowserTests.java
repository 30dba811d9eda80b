package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.security.PlatformRole;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

class QuotaAdminBrowserTests extends ConsoleBrowserTest {

    @Test
    void anAdminSetsAQuotaAndSeesEachBadValueNextToItsField() {
        String gpuType = newGpuType();
        addNodes(newPool(gpuType, 8), 2); // guarantees need healthy capacity
        setRateCard(gpuType);
        // A slug that sorts first, so the tenant is on the overview's first page however many tests made tenants.
        String tenant = "aa" + unique("q");
        api.post("/api/v1/tenants", adminToken(), Map.of("slug", tenant, "displayName", "First " + tenant));
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin");
        find("#tab-quotas").click();
        find("#quotas-q").sendKeys(tenant);
        WebElement list = find("#quotas-list");
        find("#quotas-search").click();
        waitFor(driver -> isGone(list));
        assertThat(find("tr[data-tenant='" + tenant + "']").getText()).contains("No quota");
        find("tr[data-tenant='" + tenant + "'] a").click();
        assertThat(find("#no-quota").getText()).contains("cannot book");

        new Select(find("#add-gpu-type")).selectByValue(gpuType);
        submit("#add-quota-submit");
        field("guaranteedGpus", gpuType).clear();
        field("guaranteedGpus", gpuType).sendKeys("16");
        field("maxGpus", gpuType).clear();
        field("maxGpus", gpuType).sendKeys("8");
        field("maxWindow", gpuType).clear();
        field("maxWindow", gpuType).sendKeys("a week");
        field("windows", gpuType).sendKeys("weekends all day 64");
        submit("#save-" + gpuType);

        assertThat(find("#maxGpus-" + gpuType + "-error").getText())
                .isEqualTo("Must be at least the guaranteed GPUs (16)");
        assertThat(find("#maxWindow-" + gpuType + "-error").getText()).startsWith("Enter a duration such as 7d");
        assertThat(field("maxWindow", gpuType).getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(find("#windows-" + gpuType + "-error").getText())
                .isEqualTo(
                        "Line \"weekends all day 64\": is not in the form DAYS HH:MM-HH:MM GPUS. Write days, hours and "
                                + "GPUs, such as SAT,SUN 00:00-24:00 64");
        assertThat(exists("#guaranteedGpus-" + gpuType + "-error")).isFalse();
        assertThat(count(
                        "SELECT count(*) FROM quota_policy p JOIN tenant t ON t.id = p.tenant_id WHERE t.slug = ?",
                        tenant))
                .isZero();

        field("maxGpus", gpuType).clear();
        field("maxGpus", gpuType).sendKeys("32");
        field("maxWindow", gpuType).clear();
        field("maxWindow", gpuType).sendKeys("72h");
        field("monthlyBudget", gpuType).sendKeys("25000");
        field("windows", gpuType).clear();
        field("windows", gpuType).sendKeys("sat,sun 00:00-24:00 64");
        field("zone", gpuType).clear();
        field("zone", gpuType).sendKeys("Europe/Berlin");
        submit("#save-" + gpuType);

        assertThat(find("#notice").getText()).startsWith("Saved the " + gpuType + " quota");
        assertThat(find("#held-now-" + gpuType).getText()).isEqualTo("0 of 32 GPUs (16 guaranteed)");
        assertThat(find("#spent-" + gpuType).getText()).isEqualTo("0.00 of 25,000.00 USD");
        assertThat(field("maxWindow", gpuType).getAttribute("value")).isEqualTo("3d");
        var saved = api.get("/api/v1/tenants/" + tenant + "/quota", adminToken())
                .json()
                .get("policies")
                .get(0);
        assertThat(saved.get("maxGpus").asInt()).isEqualTo(32);
        assertThat(saved.get("maxWindow").asString()).isEqualTo("PT72H");
        assertThat(saved.get("zone").asString()).isEqualTo("Europe/Berlin");
        assertThat(saved.get("lendableGpus").asInt()).isEqualTo(16);
        assertThat(saved.get("windows").get(0).get("days").valueStream().map(d -> d.asString()))
                .containsExactly("SAT", "SUN");
        assertThat(saved.get("windows").get(0).get("maxGpus").asInt()).isEqualTo(64);
        assertThat(field("windows", gpuType).getAttribute("value")).isEqualTo("SAT,SUN 00:00-24:00 64");
        // the team's own Quota page says the same in words, with the week ahead
        open("/tenants/" + tenant + "/quota");
        assertThat(find("#windows-" + gpuType).getText())
                .isEqualTo("SAT, SUN 00:00-24:00: up to 64 GPUs (Europe/Berlin)");
        assertThat(find("main").getText()).contains("Training").doesNotContain("TRAINING");
        assertThat(findAll("#standing-" + gpuType + " tbody tr")).hasSize(7);
        assertThat(find("#standing-" + gpuType + " tbody tr").getText()).contains("0 of 16", "Reserved GPUs");
        fullScreenshot("laptop-admin_quota");
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {1440, 390})
    void whileEditingTheImpactNamesTheFieldToFixAndTheOverviewHasNoEmptyRowHeader(int width) {
        sized(width);
        String gpuType = newGpuType();
        addNodes(newPool(gpuType, 8), 2); // guarantees need healthy capacity
        String other = newGpuType();
        addNodes(newPool(other, 8), 2);
        String tenant = "aa" + unique("q");
        api.post("/api/v1/tenants", adminToken(), Map.of("slug", tenant, "displayName", "First " + tenant));
        setQuota(tenant, policy(gpuType, 8, 16, false), policy(other, 8, 16, false));
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));

        // the second row of a tenant with two GPU types is still named, for a screen reader (no empty header)
        open("/admin/quotas?q=" + tenant);
        assertThat(findAll("tr[data-tenant='" + tenant + "'] th[scope=row]")).hasSize(2);
        for (var header : findAll("tr[data-tenant='" + tenant + "'] th[scope=row]")) {
            assertThat(header.getDomProperty("textContent").strip()).isEqualTo("First " + tenant);
        }

        open("/admin/quotas/" + tenant);
        field("maxGpus", gpuType).clear();
        field("maxGpus", gpuType).sendKeys("4");
        waitFor(ExpectedConditions.textToBePresentInElementLocated(By.id("impact-" + gpuType), "must be at least"));
        assertThat(find("#impact-" + gpuType).getText())
                .isEqualTo("Fix Maximum GPUs (must be at least the guaranteed "
                        + "GPUs (8)) to see which reservations these limits would affect.");
    }

    @Test
    void savingOverSomeoneElsesChangeIsRefusedWithoutLosingIt() {
        String gpuType = newGpuType();
        addNodes(newPool(gpuType, 8), 2); // guarantees need healthy capacity
        String tenant = newTenant();
        setQuota(tenant, policy(gpuType, 8, 16, false));
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/quotas/" + tenant);

        setQuota(tenant, policy(gpuType, 8, 64, false));
        field("maxGpus", gpuType).clear();
        field("maxGpus", gpuType).sendKeys("24");
        submit("#save-" + gpuType);

        assertThat(find("#form-error").getText()).startsWith("Someone changed this tenant's quota");
        assertThat(api.get("/api/v1/tenants/" + tenant + "/quota", adminToken())
                        .json()
                        .get("policies")
                        .get(0)
                        .get("maxGpus")
                        .asInt())
                .isEqualTo(64);
    }

    @Test
    void anAuditorReadsQuotasButGetsNoForm() {
        String gpuType = newGpuType();
        addNodes(newPool(gpuType, 8), 2); // guarantees need healthy capacity
        String tenant = newTenant();
        setQuota(tenant, policy(gpuType, 8, 16, true));
        signIn(newUser(PlatformRole.AUDITOR));
        open("/admin/quotas/" + tenant);
        assertThat(find("section[data-gpu-type='" + gpuType + "']").getText()).contains("Maximum GPUs", "16");
        assertThat(exists("form.quota-form")).isFalse();
        assertThat(exists("#add-quota")).isFalse();
    }

    @Test
    void anAdminAddsARateCardAndABadPriceIsShownNextToItsField() {
        String gpuType = newGpuType();
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/rate-cards");
        assertThat(find("section[data-gpu-type='" + gpuType + "']").getText()).contains("cannot be booked");

        new Select(find("#card-gpu-type")).selectByValue(gpuType);
        find("#card-reserved").sendKeys("2.50");
        find("#card-borrowed").sendKeys("-1");
        find("#card-on-demand").sendKeys("5.00");
        submit("#put-rate-card-submit");
        assertThat(find("#card-borrowed-error").getText()).startsWith("Enter a price of 0 or more");
        assertThat(find("#card-reserved").getAttribute("value")).isEqualTo("2.50");

        find("#card-borrowed").clear();
        find("#card-borrowed").sendKeys("1.75");
        submit("#put-rate-card-submit");
        assertThat(find("#notice").getText()).startsWith("Saved the " + gpuType + " rate card");
        assertThat(find("#rate-cards-" + gpuType).getText()).contains("2.50", "1.75", "5.00", "USD", "In effect");
    }

    private WebElement field(String name, String gpuType) {
        return find("#" + name + "-" + gpuType);
    }

    @Test
    void anAdminSetsTheStorageQuotaAndABadValueIsShownNextToItsField() {
        String tenant = newTenant();
        signIn(newUser(PlatformRole.PLATFORM_ADMIN));
        open("/admin/quotas/" + tenant);
        assertThat(find("#storage-quota-now").getText()).startsWith("No limit");

        find("#storageGi").sendKeys("-5");
        submit("#storage-quota-submit");
        assertThat(find("#storageGi-error").getText()).startsWith("Enter whole GiB");
        assertThat(find("#storageGi").getAttribute("aria-invalid")).isEqualTo("true");

        find("#storageGi").clear();
        find("#storageGi").sendKeys("2048");
        submit("#storage-quota-submit");

        assertThat(find("#notice").getText()).isEqualTo("Saved the storage quota of Tenant " + tenant + ": 2048 GiB.");
        assertThat(find("#storage-quota-now").getText()).startsWith("At most 2048 GiB");
        assertThat(api.get("/api/v1/tenants/" + tenant + "/quota", adminToken())
                        .json()
                        .get("storageGi")
                        .asInt())
                .isEqualTo(2048);
    }
}
