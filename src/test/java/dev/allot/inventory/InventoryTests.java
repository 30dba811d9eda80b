package dev.allot.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.inventory.events.NodeStateChanged;
import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import dev.allot.support.RecordedEvents;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class InventoryTests extends FleetTest {

    @Autowired
    RecordedEvents events;

    @Test
    void anAdminBuildsAPoolAndAnyMemberReadsPoolsAndGpuTypes() {
        String type = newGpuType();
        String pool = newPool(type, 8);
        addNodes(pool, 3, 2);
        String member = tenantToken(newTenant(), "VIEWER");

        Api.Response pools = api.get("/api/v1/pools?size=500", member);
        assertThat(pools.status()).isEqualTo(200);
        assertThat(pools.json()
                        .get("items")
                        .valueStream()
                        .map(p -> p.get("name").asString()))
                .contains(pool);
        Api.Response types = api.get("/api/v1/gpu-types?size=500", member);
        assertThat(types.json()
                        .get("items")
                        .valueStream()
                        .map(t -> t.get("code").asString()))
                .contains(type);

        Api.Response nodes = api.get("/api/v1/pools/" + pool + "/nodes", adminToken());
        assertThat(nodes.json().get("totalItems").asInt()).isEqualTo(3);
        assertThat(nodes.json().get("items").get(2).get("ibBlock").asString()).isEqualTo("ib-1");
        assertThat(nodes.json().get("items").get(0).get("state").asString()).isEqualTo("AVAILABLE");
        assertThat(api.get("/api/v1/pools/" + pool + "/nodes", member).status()).isEqualTo(403);
    }

    @Test
    void onlyAPlatformAdminChangesTheFleet() {
        String member = tenantToken(newTenant(), "TENANT_ADMIN");
        assertThat(api.post("/api/v1/gpu-types", member, Map.of("code", "X100", "memoryGb", 80))
                        .status())
                .isEqualTo(403);
        String pool = newPool(newGpuType(), 8);
        assertThat(api.post(
                                "/api/v1/pools/" + pool + "/nodes",
                                member,
                                Map.of("hostname", pool + "-x", "rack", "r", "ibBlock", "b"))
                        .status())
                .isEqualTo(403);
        String node = addNodes(pool, 1, 1).getFirst();
        assertThat(api.post("/api/v1/nodes/" + node + "/quarantine", member, Map.of("reason", "no"))
                        .status())
                .isEqualTo(403);
    }

    @Test
    void badInventoryInputNamesTheField() {
        Api.Response unknownType = api.post(
                "/api/v1/pools",
                adminToken(),
                Map.of("name", unique("p"), "gpuType", "NOPE-NOPE", "gpusPerNode", 8, "region", "r"));
        assertThat(unknownType.status()).isEqualTo(400);
        assertThat(unknownType.json().get("errors").get(0).get("field").asString())
                .isEqualTo("gpuType");
        Api.Response zeroGpus = api.post(
                "/api/v1/pools",
                adminToken(),
                Map.of("name", unique("p"), "gpuType", newGpuType(), "gpusPerNode", 0, "region", "r"));
        assertThat(zeroGpus.status()).isEqualTo(400);
        assertThat(zeroGpus.json().get("errors").get(0).get("field").asString()).isEqualTo("gpusPerNode");
        String type = newGpuType();
        assertThat(api.post("/api/v1/gpu-types", adminToken(), Map.of("code", type, "memoryGb", 80))
                        .status())
                .isEqualTo(409);
    }

    @Test
    void quarantineAndReleaseAreAuditedAndPublished() {
        String pool = newPool(newGpuType(), 8);
        String node = addNodes(pool, 1, 1).getFirst();

        Api.Response quarantined =
                api.post("/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", "XID 79 on GPU 3"));
        assertThat(quarantined.status()).isEqualTo(200);
        assertThat(quarantined.json().get("state").asString()).isEqualTo("QUARANTINED");
        assertThat(quarantined.json().get("affectedReservations").size()).isZero();
        assertThat(api.get("/api/v1/nodes/" + node, adminToken())
                        .json()
                        .get("stateReason")
                        .asString())
                .isEqualTo("XID 79 on GPU 3");
        assertThat(api.post("/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", "again"))
                        .status())
                .isEqualTo(409);

        Api.Response released =
                api.post("/api/v1/nodes/" + node + "/release", adminToken(), Map.of("reason", "GPU replaced"));
        assertThat(released.json().get("state").asString()).isEqualTo("AVAILABLE");

        List<String> actions = jdbc.sql("SELECT action FROM audit_event WHERE object_id = ? ORDER BY id")
                .param(node)
                .query(String.class)
                .list();
        assertThat(actions).containsExactly("node.created", "node.quarantined", "node.available");
        assertThat(events.ofType(NodeStateChanged.class).stream()
                        .filter(e -> e.hostname().equals(node)))
                .extracting(NodeStateChanged::to)
                .containsExactly(NodeState.QUARANTINED, NodeState.AVAILABLE);
    }

    @Test
    void aNodeIsNamedByItsHostnameAndUnknownNodesAre404() {
        assertThat(api.get("/api/v1/nodes/no-such-node", adminToken()).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/nodes/no-such-node/quarantine", adminToken(), Map.of("reason", "x"))
                        .status())
                .isEqualTo(404);
        assertThat(api.post(
                                "/api/v1/pools/no-such-pool/nodes",
                                adminToken(),
                                Map.of("hostname", "h1", "rack", "r", "ibBlock", "b"))
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aNodeIsDrainedSentToRepairAndRetiredAndARetiredNodeStaysRetired() {
        String node = addNodes(newPool(newGpuType(), 8), 1, 1).getFirst();
        String path = "/api/v1/nodes/" + node + "/state";
        for (String state : List.of("DRAINING", "IN_REPAIR", "RETIRED")) {
            Api.Response changed = api.post(path, adminToken(), Map.of("state", state, "reason", "maintenance"));
            assertThat(changed.status()).as(changed.body()).isEqualTo(200);
            assertThat(api.get("/api/v1/nodes/" + node, adminToken())
                            .json()
                            .get("state")
                            .asString())
                    .isEqualTo(state);
        }
        Api.Response back = api.post(path, adminToken(), Map.of("state", "AVAILABLE", "reason", "oops"));
        assertThat(back.status()).isEqualTo(409);
        assertThat(api.post(path, adminToken(), Map.of("state", "GONE", "reason", "x"))
                        .status())
                .isEqualTo(400);
        assertThat(api.post(path, adminToken(), Map.of("state", "DRAINING")).status())
                .isEqualTo(400);
    }
}
