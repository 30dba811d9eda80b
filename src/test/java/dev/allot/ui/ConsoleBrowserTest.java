package dev.allot.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import dev.allot.support.Api;
import dev.allot.support.BrowserTest;

/** A browser test that builds its own fleet through the API (unique names: the database is shared). */
abstract class ConsoleBrowserTest extends BrowserTest {

	protected String newGpuType() {
		String code = "T" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 45), 36).toUpperCase();
		created(api.post("/api/v1/gpu-types", adminToken(), Map.of("code", code, "memoryGb", 80)));
		return code;
	}

	protected String newPool(String gpuType, int gpusPerNode) {
		String name = unique("p");
		created(api.post("/api/v1/pools", adminToken(),
				Map.of("name", name, "gpuType", gpuType, "gpusPerNode", gpusPerNode, "region", "eu-test-1")));
		return name;
	}

	protected List<String> addNodes(String pool, int count) {
		List<String> hostnames = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String hostname = pool + "-n" + i;
			created(api.post("/api/v1/pools/" + pool + "/nodes", adminToken(), Map.of("hostname", hostname, "rack",
					"rack-" + i / 4, "ibBlock", "ib-" + i / 8, "cudaDrivers", List.of("550.54", "560.35"))));
			hostnames.add(hostname);
		}
		return hostnames;
	}

	/** RESERVED 2.00, BORROWED 1.50, ON_DEMAND 4.00 USD per GPU-hour since 2020. */
	protected void setRateCard(String gpuType) {
		ok(api.put("/api/v1/rate-cards/" + gpuType, adminToken(), Map.of("effectiveFrom", "2020-01-01", "currency", "USD",
				"prices", Map.of("RESERVED", 2.00, "BORROWED", 1.50, "ON_DEMAND", 4.00))));
	}

	protected Map<String, Object> policy(String gpuType, int guaranteed, int max, boolean burst) {
		return new HashMap<>(Map.of("gpuType", gpuType, "guaranteedGpus", guaranteed, "maxGpus", max, "burst", burst,
				"maxWindow", "P30D", "maxAdvance", "P60D", "priority", "TRAINING"));
	}

	@SafeVarargs
	protected final void setQuota(String tenant, Map<String, Object>... policies) {
		ok(api.put("/api/v1/tenants/" + tenant + "/quota", adminToken(), Map.of("policies", List.of(policies))));
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
