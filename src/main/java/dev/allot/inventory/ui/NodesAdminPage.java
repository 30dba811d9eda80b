package dev.allot.inventory.ui;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Node;
import dev.allot.inventory.NodeState;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.ListLinks;
import dev.allot.shared.web.ListPages;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.Words;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Admin → Nodes: the whole fleet's nodes searched by hostname, filtered by state and GPU type, sorted and paged on
 * the server; each row links to the node's history.
 */
@UiController
class NodesAdminPage {

    private final Inventory inventory;

    NodesAdminPage(Inventory inventory) {
        this.inventory = inventory;
    }

    @GetMapping("/admin/nodes")
    String nodes(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpServletResponse response,
            @RequestParam(required = false) @Nullable String q,
            @RequestParam(required = false) @Nullable String state,
            @RequestParam(required = false) @Nullable String gpuType,
            @RequestParam(required = false) @Nullable String sort,
            @RequestParam(required = false) @Nullable String page,
            @RequestParam(required = false) @Nullable String size) {
        caller.requireReadsEverything();
        SearchQuery query = ListPages.read(FleetListColumns.FLEET_NODE_COLUMNS, q, sort, page, size, model, response);
        Inventory.NodeFilter filter;
        try {
            filter = new Inventory.NodeFilter(null, state(state), gpuType(gpuType));
        } catch (InvalidInputException invalid) {
            ListPages.refused(invalid, model, response);
            filter = new Inventory.NodeFilter(null, null, null);
            query = FleetListColumns.FLEET_NODE_COLUMNS.defaults();
        }
        PageResponse<Node> nodes = inventory.searchNodes(caller, filter, query);
        model.addAttribute("section", "admin");
        model.addAttribute("nodes", nodes);
        model.addAttribute("filter", filter);
        Map<String, String> gpuTypeOf = new HashMap<>();
        nodes.items()
                .forEach(node -> gpuTypeOf.computeIfAbsent(
                        node.pool(),
                        pool -> inventory
                                .pool(pool)
                                .map(p -> p.gpuType().code())
                                .orElse("")));
        model.addAttribute("gpuTypeOf", gpuTypeOf);
        model.addAttribute("states", NodeState.values());
        model.addAttribute(
                "gpuTypes",
                inventory.gpuTypes(new PageQuery(0, PageQuery.MAX_SIZE)).items());
        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("state", filter.state() == null ? "" : filter.state().name());
        filters.put("gpuType", filter.gpuType() == null ? "" : filter.gpuType());
        model.addAttribute("links", new ListLinks("/admin/nodes", filters, query, nodes.totalItems()));
        return ListPages.fragment(request) ? "admin/nodes :: list" : "admin/nodes";
    }

    private static @Nullable NodeState state(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return NodeState.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw InvalidInputException.of(
                    "state",
                    "Choose a state among "
                            + String.join(
                                    ", ",
                                    Arrays.stream(NodeState.values())
                                            .map(Words::word)
                                            .toList()) + ", or any state");
        }
    }

    private @Nullable String gpuType(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return inventory
                .gpuType(value.strip())
                .map(GpuType::code)
                .orElseThrow(
                        () -> InvalidInputException.of("gpuType", "There is no GPU type \"" + shorten(value) + "\""));
    }

    private static String shorten(String value) {
        String stripped = value.strip();
        return stripped.length() <= 40 ? stripped : stripped.substring(0, 39) + "…";
    }
}
