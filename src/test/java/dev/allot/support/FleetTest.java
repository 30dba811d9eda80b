package dev.allot.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** An integration test that builds its own GPU types, pools and nodes (unique names, shared database). */
public abstract class FleetTest extends IntegrationTest {

    /** A well-formed OpenSSH public key for booking bodies. */
    public static final String SSH_KEY =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb3e0kH0Jx2y5Q0m7p9a1c2d3e4f5g6h7i8j9k0l1m2 ci@example";

    protected String newGpuType() {
        String code = "T"
                + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 45), 36)
                        .toUpperCase();
        Api.Response created = api.post(
                "/api/v1/gpu-types", adminToken(), Map.of("code", code, "memoryGb", 80, "interconnect", "NVLINK"));
        if (created.status() != 201) {
            throw new AssertionError("GPU type not created: " + created);
        }
        return code;
    }

    protected String newPool(String gpuType, int gpusPerNode) {
        String name = unique("p");
        Api.Response created = api.post(
                "/api/v1/pools",
                adminToken(),
                Map.of("name", name, "gpuType", gpuType, "gpusPerNode", gpusPerNode, "region", "eu-test-1"));
        if (created.status() != 201) {
            throw new AssertionError("Pool not created: " + created);
        }
        return name;
    }

    /** Prices per GPU-hour: RESERVED 2.00, BORROWED 1.50, ON_DEMAND 4.00 USD, in effect since 2020. */
    protected void setRateCard(String gpuType) {
        Api.Response put = api.put(
                "/api/v1/rate-cards/" + gpuType,
                adminToken(),
                Map.of(
                        "effectiveFrom",
                        "2020-01-01",
                        "currency",
                        "USD",
                        "prices",
                        Map.of("RESERVED", 2.00, "BORROWED", 1.50, "ON_DEMAND", 4.00)));
        if (put.status() != 200) {
            throw new AssertionError("Rate card not set: " + put);
        }
    }

    /** Replaces the tenant's quota with one policy (windows up to 30 days, booked up to 60 days ahead). */
    /**
     * The tenant's quota on one GPU type, its guarantee cut to what is left of the type's healthy capacity (a second
     * tenant on a pool another one holds guaranteed borrows instead: guarantees are capacity).
     */
    protected void setQuota(String tenant, String gpuType, int guaranteed, int max, boolean burst) {
        setQuota(tenant, policy(gpuType, guaranteeLeft(tenant, gpuType, guaranteed), max, burst));
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
        Api.Response put =
                api.put("/api/v1/tenants/" + tenant + "/quota", adminToken(), Map.of("policies", List.of(policies)));
        if (put.status() != 200) {
            throw new AssertionError("Quota not set: " + put);
        }
    }

    /** Adds nodes spread over InfiniBand blocks of {@code perBlock} nodes, two racks per block. */
    protected List<String> addNodes(String pool, int count, int perBlock) {
        List<String> hostnames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String hostname = pool + "-n" + i;
            int block = i / perBlock;
            int rack = block * 2 + (i % perBlock) * 2 / perBlock;
            Api.Response created = api.post(
                    "/api/v1/pools/" + pool + "/nodes",
                    adminToken(),
                    Map.of(
                            "hostname",
                            hostname,
                            "rack",
                            "rack-" + rack,
                            "ibBlock",
                            "ib-" + block,
                            "cudaDrivers",
                            List.of("550.54", "560.35")));
            if (created.status() != 201) {
                throw new AssertionError("Node not created: " + created);
            }
            hostnames.add(hostname);
        }
        return hostnames;
    }
}
