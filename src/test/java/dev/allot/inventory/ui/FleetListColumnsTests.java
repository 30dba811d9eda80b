package dev.allot.inventory.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FleetListColumnsTests {

    @Test
    void theFleetListsSortOnlyByTheirOwnColumns() {
        assertThat(FleetListColumns.POOL_COLUMNS.fields())
                .containsExactly("name", "gpuType", "gpusPerNode", "region", "nodes", "bookable", "unhealthy");
        assertThat(FleetListColumns.POOL_NODE_COLUMNS.fields())
                .containsExactly("hostname", "state", "since", "rack", "ibBlock");
        assertThat(FleetListColumns.FLEET_NODE_COLUMNS.fields())
                .containsExactly("hostname", "pool", "gpuType", "state", "since", "rack");
    }
}
