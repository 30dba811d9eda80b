package dev.allot.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.atLeast;
import static org.mockito.Mockito.verify;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.inventory.events.NodeStateChanged;
import dev.allot.shared.AllotException;
import dev.allot.shared.KnownTenants;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import dev.allot.support.IntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.modulith.test.ApplicationModuleTest;
import org.springframework.modulith.test.AssertablePublishedEvents;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

/**
 * Inventory as a module on its own (issue 32's test layers): only its beans and {@code shared}'s start, against
 * real PostgreSQL, with the audit log and the tenant directory of the modules it uses mocked. Called through its
 * API, not over HTTP: what a pool and its nodes are, and the event a node's change of state publishes for the
 * modules that listen (booking, provisioning), checked where it is published.
 */
@ApplicationModuleTest(extraIncludes = "shared")
class InventoryModuleTests {

    static final Caller ADMIN =
            new Caller("ops", "Ops", Caller.Kind.USER, Set.of(PlatformRole.PLATFORM_ADMIN), Map.of(), Map.of());

    @Autowired
    Inventory inventory;

    @MockitoBean
    AuditLog audit;

    @MockitoBean
    KnownTenants tenants;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        IntegrationTest.database(registry);
    }

    @Test
    void aPoolCountsItsNodesAndKeepsTheNumberOfHotSparesAsked() {
        Pool pool = newPool();
        for (int i = 0; i < 3; i++) {
            inventory.addNode(
                    ADMIN, pool.name(), new Inventory.NewNode(pool.name() + "-n" + i, "r1", "ib-0", List.of("550")));
        }

        Pool withSpare = inventory.changeSpareNodes(ADMIN, pool.name(), 1, null);

        // which node stands by is booking's choice (its hot spares), not made here: all three count as bookable
        assertThat(withSpare.spareNodes()).isEqualTo(1);
        Inventory.PoolSize size = inventory.size(withSpare);
        assertThat(size.nodes()).isEqualTo(3);
        assertThat(size.unhealthyNodes()).isZero();
        assertThat(size.bookableNodes()).isEqualTo(3);
        assertThatThrownBy(() -> inventory.changeSpareNodes(ADMIN, pool.name(), 4, null))
                .isInstanceOf(AllotException.class)
                .hasMessageContaining("spareNodes");
        verify(audit, atLeast(5)).record(any(AuditRecord.class));
    }

    @Test
    void quarantiningANodePublishesItsChangeOfStateForTheModulesThatListen(AssertablePublishedEvents events) {
        Pool pool = newPool();
        String host = pool.name() + "-n0";
        inventory.addNode(ADMIN, pool.name(), new Inventory.NewNode(host, "r1", "ib-0", List.of("550")));

        Inventory.StateChange change = inventory.quarantine(ADMIN, host, "ECC errors");

        assertThat(change.node().state()).isEqualTo(NodeState.QUARANTINED);
        assertThat(events)
                .contains(NodeStateChanged.class)
                .matching(e -> e.hostname().equals(host)
                        && e.from() == NodeState.AVAILABLE
                        && e.to() == NodeState.QUARANTINED
                        && e.reason().equals("ECC errors"));
    }

    @Test
    void onlyAPlatformAdminChangesTheFleet() {
        Caller member = new Caller("m", "M", Caller.Kind.USER, Set.of(), Map.of(), Map.of());

        assertThatThrownBy(() -> inventory.createGpuType(member, new Inventory.NewGpuType(unique(), 80, null)))
                .isInstanceOf(AllotException.class)
                .extracting(e -> ((AllotException) e).status())
                .isEqualTo(403);
    }

    private Pool newPool() {
        String type = unique();
        inventory.createGpuType(ADMIN, new Inventory.NewGpuType(type, 80, null));
        return inventory.createPool(ADMIN, new Inventory.NewPool("p-" + unique().toLowerCase(), type, 8, "eu"));
    }

    private static String unique() {
        return UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    }
}
