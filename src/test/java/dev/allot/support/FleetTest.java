package dev.allot.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** An integration test that builds its own GPU types, pools and nodes (unique names, shared database). */
public abstract class FleetTest extends IntegrationTest {

	protected String newGpuType() {
		String code = "T" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 45), 36).toUpperCase();
		Api.Response created = api.post("/api/v1/gpu-types", adminToken(),
				Map.of("code", code, "memoryGb", 80, "interconnect", "NVLINK"));
		if (created.status() != 201) {
			throw new AssertionError("GPU type not created: " + created);
		}
		return code;
	}

	protected String newPool(String gpuType, int gpusPerNode) {
		String name = unique("p");
		Api.Response created = api.post("/api/v1/pools", adminToken(),
				Map.of("name", name, "gpuType", gpuType, "gpusPerNode", gpusPerNode, "region", "eu-test-1"));
		if (created.status() != 201) {
			throw new AssertionError("Pool not created: " + created);
		}
		return name;
	}

	/** Adds nodes spread over InfiniBand blocks of {@code perBlock} nodes, two racks per block. */
	protected List<String> addNodes(String pool, int count, int perBlock) {
		List<String> hostnames = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String hostname = pool + "-n" + i;
			int block = i / perBlock;
			int rack = block * 2 + (i % perBlock) * 2 / perBlock;
			Api.Response created = api.post("/api/v1/pools/" + pool + "/nodes", adminToken(),
					Map.of("hostname", hostname, "rack", "rack-" + rack, "ibBlock", "ib-" + block, "cudaDrivers",
							List.of("550.54", "560.35")));
			if (created.status() != 201) {
				throw new AssertionError("Node not created: " + created);
			}
			hostnames.add(hostname);
		}
		return hostnames;
	}

}
