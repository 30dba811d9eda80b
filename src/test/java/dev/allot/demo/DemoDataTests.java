package dev.allot.demo;

import dev.allot.identity.UserDirectory;
import dev.allot.inventory.Inventory;
import dev.allot.quota.Quotas;
import dev.allot.support.IntegrationTest;
import dev.allot.tenancy.Tenancy;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

class DemoDataTests extends IntegrationTest {

	@Autowired
	UserDirectory users;

	@Autowired
	Tenancy tenancy;

	@Autowired
	Inventory inventory;

	@Autowired
	Quotas quotas;

	@Autowired
	TransactionTemplate transactions;

	@Autowired
	DemoBookings bookings;

	@Test
	void theDemoSeedsAFleetOf32EightGpuNodesWithPricesQuotasAndReservationsInUse() {
		new DemoData(users, tenancy, inventory, quotas, transactions, bookings, "demo-password").run(null);

		assertThat(jdbc.sql("SELECT count(*) FROM node n JOIN pool p ON p.id = n.pool_id "
				+ "WHERE p.name IN ('h100-eu', 'h200-eu', 'a100-us') AND p.gpus_per_node = 8")
			.query(Integer.class)
			.single()).isEqualTo(32);
		assertThat(api.get("/api/v1/tenants/acme-ml/quota", adminToken()).json().get("policies").size()).isEqualTo(2);
		assertThat(api.get("/api/v1/tenants/globex-ai/quota", adminToken()).json().get("policies").size()).isEqualTo(2);
		assertThat(api.get("/api/v1/rate-cards/H200", adminToken()).json().get("current").get("currency").asString())
			.isEqualTo("USD");
		// a living demo: two teams' clusters from the first minutes, bookings in the coming days, one to approve
		assertThat(jdbc.sql("SELECT count(*) FROM reservation WHERE tenant_slug IN ('acme-ml', 'globex-ai')")
			.query(Integer.class).single()).isEqualTo(5);
		assertThat(jdbc.sql("SELECT count(*) FROM reservation WHERE tenant_slug = 'acme-ml' "
				+ "AND lifecycle_status = 'PENDING_APPROVAL' AND requested_by = 'alice'").query(Integer.class).single())
			.isEqualTo(1);
		assertThat(jdbc.sql("SELECT count(*) FROM reservation WHERE starts_at < now() + interval '5 minutes'")
			.query(Integer.class).single()).isGreaterThanOrEqualTo(2);
	}

}
