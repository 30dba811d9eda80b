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

	@Test
	void theDemoSeedsAFleetOf32EightGpuNodesWithPricesAndQuotas() {
		new DemoData(users, tenancy, inventory, quotas, transactions, "demo-password").run(null);

		assertThat(jdbc.sql("SELECT count(*) FROM node n JOIN pool p ON p.id = n.pool_id "
				+ "WHERE p.name IN ('h100-eu', 'h200-eu', 'a100-us') AND p.gpus_per_node = 8")
			.query(Integer.class)
			.single()).isEqualTo(32);
		assertThat(api.get("/api/v1/tenants/acme-ml/quota", adminToken()).json().get("policies").size()).isEqualTo(2);
		assertThat(api.get("/api/v1/tenants/globex-ai/quota", adminToken()).json().get("policies").size()).isEqualTo(2);
		assertThat(api.get("/api/v1/rate-cards/H200", adminToken()).json().get("current").get("currency").asString())
			.isEqualTo("USD");
	}

}
