package dev.allot.demo;

import dev.allot.identity.UserDirectory;
import dev.allot.inventory.Inventory;
import dev.allot.quota.Priority;
import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalDate;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * What the demo starts from: its users (with random passwords unless {@code allot.demo.password} fixes one), the two
 * teams and their projects, the fleet, the rate cards and the teams' quotas. Runs in the caller's transaction.
 */
@Component
class DemoSetUp {

    private static final Caller SEED = DemoData.SEED;

    private final UserDirectory users;

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final Quotas quotas;

    private final String fixedPassword;

    DemoSetUp(
            UserDirectory users,
            Tenancy tenancy,
            Inventory inventory,
            Quotas quotas,
            @Value("${allot.demo.password:}") String fixedPassword) {
        this.users = users;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.quotas = quotas;
        this.fixedPassword = fixedPassword;
    }

    /** Makes the demo's users (their passwords into {@code passwords}), tenants, projects, fleet and prices. */
    void setUp(Map<String, String> passwords) {
        user(passwords, "admin", "Platform Admin", EnumSet.of(PlatformRole.PLATFORM_ADMIN));
        user(passwords, "alice", "Alice Example", Set.of());
        user(passwords, "bob", "Bob Example", Set.of());
        user(passwords, "auditor", "Audrey Auditor", EnumSet.of(PlatformRole.AUDITOR));
        tenancy.createTenant(SEED, new Tenancy.NewTenant("acme-ml", "Acme ML Research"));
        tenancy.createTenant(SEED, new Tenancy.NewTenant("globex-ai", "Globex AI"));
        tenancy.addMember(SEED, "acme-ml", "alice", TenantRole.TENANT_ADMIN);
        tenancy.addMember(SEED, "globex-ai", "bob", TenantRole.MEMBER);
        tenancy.createProject(SEED, "acme-ml", new Tenancy.NewProject("llm-pretrain", "LLM pre-training"));
        tenancy.createProject(SEED, "acme-ml", new Tenancy.NewProject("vision", "Vision models"));
        tenancy.createProject(SEED, "globex-ai", new Tenancy.NewProject("recsys", "Recommender systems"));
        fleet();
        prices();
    }

    /** Three pools of 8-GPU nodes, 32 nodes in all, in InfiniBand blocks of 4 nodes, two racks per block. */
    private void fleet() {
        inventory.createGpuType(SEED, new Inventory.NewGpuType("H100", 80, "NVLink 4 / SXM5"));
        inventory.createGpuType(SEED, new Inventory.NewGpuType("H200", 141, "NVLink 4 / SXM5"));
        inventory.createGpuType(SEED, new Inventory.NewGpuType("A100", 80, "NVLink 3 / SXM4"));
        pool("h100-eu", "H100", "eu-west-1", 16, List.of("535.183", "550.90", "560.35"));
        pool("h200-eu", "H200", "eu-west-1", 8, List.of("550.90", "560.35"));
        pool("a100-us", "A100", "us-east-1", 8, List.of("535.183", "550.90"));
    }

    /** Rate cards for every GPU type, and quotas for both demo tenants. */
    private void prices() {
        LocalDate since = LocalDate.of(2026, 1, 1);
        quotas.putRateCard(SEED, card("H100", since, "2.4900", "1.7400", "3.9900"));
        quotas.putRateCard(SEED, card("H200", since, "3.2900", "2.3000", "4.9900"));
        quotas.putRateCard(SEED, card("A100", since, "1.2900", "0.9000", "1.9900"));
        quotas.replace(SEED, "acme-ml", acmePolicies(), null);
        quotas.replace(SEED, "globex-ai", globexPolicies(), null);
    }

    /** Acme's: a large H100 training quota (approval above 2000 GPU-hours), and fine-tuning ones. */
    private static List<QuotaPolicy> acmePolicies() {
        return List.of(
                new QuotaPolicy(
                                "H100",
                                32,
                                64,
                                true,
                                Duration.ofDays(14),
                                Duration.ofDays(90),
                                new BigDecimal("250000.00"),
                                Priority.TRAINING)
                        .withApproval(new QuotaPolicy.Approval(2000, false)),
                new QuotaPolicy(
                        "H200",
                        16,
                        32,
                        false,
                        Duration.ofDays(7),
                        Duration.ofDays(60),
                        new BigDecimal("100000.00"),
                        Priority.PRODUCTION_FINE_TUNE),
                new QuotaPolicy(
                        "A100",
                        16,
                        16,
                        false,
                        Duration.ofDays(7),
                        Duration.ofDays(30),
                        null,
                        Priority.PRODUCTION_FINE_TUNE));
    }

    /** Globex's: H100 experiments and bursting A100 inference. */
    private static List<QuotaPolicy> globexPolicies() {
        return List.of(
                new QuotaPolicy(
                        "H100",
                        16,
                        32,
                        false,
                        Duration.ofDays(7),
                        Duration.ofDays(30),
                        new BigDecimal("80000.00"),
                        Priority.EXPERIMENT),
                new QuotaPolicy(
                        "A100",
                        16,
                        48,
                        true,
                        Duration.ofDays(30),
                        Duration.ofDays(90),
                        null,
                        Priority.PRODUCTION_INFERENCE));
    }

    private static RateCard card(String gpuType, LocalDate since, String reserved, String borrowed, String onDemand) {
        return new RateCard(
                gpuType,
                since,
                "USD",
                Map.of(
                        RateClass.RESERVED,
                        new BigDecimal(reserved),
                        RateClass.BORROWED,
                        new BigDecimal(borrowed),
                        RateClass.ON_DEMAND,
                        new BigDecimal(onDemand)));
    }

    private void pool(String name, String gpuType, String region, int nodes, List<String> drivers) {
        inventory.createPool(SEED, new Inventory.NewPool(name, gpuType, 8, region));
        for (int i = 1; i <= nodes; i++) {
            int block = (i - 1) / 4;
            String rack = name + "-r" + (block * 2 + ((i - 1) % 4) / 2 + 1);
            inventory.addNode(
                    SEED,
                    name,
                    new Inventory.NewNode(
                            String.format("%s-%03d", name, i), rack, name + "-ib" + (block + 1), drivers));
        }
    }

    private void user(Map<String, String> passwords, String username, String displayName, Set<PlatformRole> roles) {
        String password = fixedPassword.isBlank() ? randomPassword() : fixedPassword;
        users.create(username, displayName, password, roles);
        passwords.put(username, password);
    }

    private static String randomPassword() {
        String alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder();
        for (int i = 0; i < 14; i++) {
            password.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return password.toString();
    }
}
