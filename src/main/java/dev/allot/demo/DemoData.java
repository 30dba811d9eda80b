package dev.allot.demo;

import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalDate;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.allot.identity.UserDirectory;
import dev.allot.inventory.Inventory;
import dev.allot.quota.Priority;
import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.Quotas;
import dev.allot.quota.RateCard;
import dev.allot.quota.RateClass;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Seeds the demo once: on the embedded database by default, elsewhere only with {@code allot.demo.enabled=true}.
 * Passwords are random and printed at the first start only (they are stored hashed), unless
 * {@code allot.demo.password} fixes one for all demo users.
 */
@Component
@Order(10)
@ConditionalOnExpression("${allot.demo.enabled:false} or '${spring.datasource.url:}'.isEmpty()")
class DemoData implements ApplicationRunner {

	private static final Logger log = LoggerFactory.getLogger(DemoData.class);

	static final Caller SEED = new Caller("demo-seed", "Demo seed", Caller.Kind.SERVICE_ACCOUNT,
			EnumSet.of(PlatformRole.PLATFORM_ADMIN), Map.of());

	private final UserDirectory users;

	private final Tenancy tenancy;

	private final Inventory inventory;

	private final Quotas quotas;

	private final TransactionTemplate transactions;

	private final String fixedPassword;

	private final DemoBookings bookings;

	DemoData(UserDirectory users, Tenancy tenancy, Inventory inventory, Quotas quotas,
			TransactionTemplate transactions, DemoBookings bookings,
			@Value("${allot.demo.password:}") String fixedPassword) {
		this.bookings = bookings;
		this.users = users;
		this.tenancy = tenancy;
		this.inventory = inventory;
		this.quotas = quotas;
		this.transactions = transactions;
		this.fixedPassword = fixedPassword;
	}

	@Override
	public void run(ApplicationArguments args) {
		if (users.exists("admin")) {
			return;
		}
		Map<String, String> passwords = new LinkedHashMap<>();
		transactions.executeWithoutResult(status -> {
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
		});
		int booked = bookings.seed();
		StringBuilder banner = new StringBuilder("\n\nDemo: " + booked + " reservations booked. Demo users (shown "
				+ "once; stored hashed):\n");
		passwords.forEach((user, password) -> banner.append(String.format("  %-8s %s%n", user, password)));
		log.info(banner.toString());
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
		quotas.replace(SEED, "acme-ml", List.of(
				new QuotaPolicy("H100", 32, 64, true, Duration.ofDays(14), Duration.ofDays(90),
						new BigDecimal("250000.00"), Priority.TRAINING)
					.withApproval(new QuotaPolicy.Approval(2000, false)),
				new QuotaPolicy("H200", 16, 32, false, Duration.ofDays(7), Duration.ofDays(60),
						new BigDecimal("100000.00"), Priority.PRODUCTION_FINE_TUNE)),
				null);
		quotas.replace(SEED, "globex-ai", List.of(
				new QuotaPolicy("H100", 16, 32, false, Duration.ofDays(7), Duration.ofDays(30),
						new BigDecimal("80000.00"), Priority.EXPERIMENT),
				new QuotaPolicy("A100", 16, 48, true, Duration.ofDays(30), Duration.ofDays(90), null,
						Priority.PRODUCTION_INFERENCE)),
				null);
	}

	private static RateCard card(String gpuType, LocalDate since, String reserved, String borrowed, String onDemand) {
		return new RateCard(gpuType, since, "USD", Map.of(RateClass.RESERVED, new BigDecimal(reserved),
				RateClass.BORROWED, new BigDecimal(borrowed), RateClass.ON_DEMAND, new BigDecimal(onDemand)));
	}

	private void pool(String name, String gpuType, String region, int nodes, List<String> drivers) {
		inventory.createPool(SEED, new Inventory.NewPool(name, gpuType, 8, region));
		for (int i = 1; i <= nodes; i++) {
			int block = (i - 1) / 4;
			String rack = name + "-r" + (block * 2 + ((i - 1) % 4) / 2 + 1);
			inventory.addNode(SEED, name, new Inventory.NewNode(String.format("%s-%03d", name, i), rack,
					name + "-ib" + (block + 1), drivers));
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
