package dev.allot.inventory.ui;

import dev.allot.shared.SearchQuery;

/** What the admin console's fleet lists may be sorted and searched by: each column they show. */
final class FleetListColumns {

    /** What the pools' list may be sorted by: each column it shows. */
    static final SearchQuery.Columns POOL_COLUMNS = SearchQuery.Columns.of(
            "p.name",
            "name",
            "p.name",
            "gpuType",
            "g.code",
            "gpusPerNode",
            "p.gpus_per_node",
            "region",
            "p.region",
            "nodes",
            "c.nodes",
            "bookable",
            "c.bookable",
            "unhealthy",
            "c.unhealthy");

    /** What a pool's nodes may be sorted by. */
    static final SearchQuery.Columns POOL_NODE_COLUMNS = SearchQuery.Columns.of(
            "n.hostname",
            "hostname",
            "n.hostname",
            "state",
            "n.state",
            "since",
            "n.state_changed_at",
            "rack",
            "n.rack",
            "ibBlock",
            "n.ib_block");

    /** What the fleet's node search may be sorted by. */
    static final SearchQuery.Columns FLEET_NODE_COLUMNS = SearchQuery.Columns.of(
            "n.hostname",
            "hostname",
            "n.hostname",
            "pool",
            "p.name",
            "gpuType",
            "g.code",
            "state",
            "n.state",
            "since",
            "n.state_changed_at",
            "rack",
            "n.rack");

    private FleetListColumns() {}
}
