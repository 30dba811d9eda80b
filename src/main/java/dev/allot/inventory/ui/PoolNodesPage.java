package dev.allot.inventory.ui;

import dev.allot.inventory.Inventory;
import dev.allot.inventory.Node;
import dev.allot.inventory.NodeCommitments;
import dev.allot.inventory.NodeState;
import dev.allot.inventory.Pool;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageResponse;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.ListLinks;
import dev.allot.shared.web.ListPages;
import dev.allot.shared.web.UiController;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Admin → a pool's nodes: add one node or a hostname range (all or none, in one transaction), quarantine and
 * release a node with a reason, set how many nodes are held as hot spares. Quarantining names the reservations
 * that hold the node from then on.
 */
@UiController
class PoolNodesPage {

    /** What the preview of a hostname range shows while the admin types. */
    record Preview(List<String> hostnames, @Nullable String error) {

        public String summary() {
            if (hostnames.size() <= 6) {
                return String.join(", ", hostnames);
            }
            return String.join(", ", hostnames.subList(0, 3)) + ", … "
                    + String.join(", ", hostnames.subList(hostnames.size() - 2, hostnames.size()));
        }
    }

    private final Inventory inventory;

    private final TransactionTemplate transactions;

    PoolNodesPage(Inventory inventory, TransactionTemplate transactions) {
        this.inventory = inventory;
        this.transactions = transactions;
    }

    /** The pool and its nodes, searched by hostname, sorted and paged ({@link SearchQuery}); htmx gets the list alone. */
    @GetMapping("/admin/pools/{pool}")
    String nodes(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpServletResponse response,
            @PathVariable String pool,
            @RequestParam(required = false) @Nullable String q,
            @RequestParam(required = false) @Nullable String sort,
            @RequestParam(required = false) @Nullable String page,
            @RequestParam(required = false) @Nullable String size) {
        SearchQuery query = ListPages.read(FleetListColumns.POOL_NODE_COLUMNS, q, sort, page, size, model, response);
        String view = render(caller, model, pool, query, FleetForms.NodesForm.empty(), new FormErrors());
        return ListPages.fragment(request) ? view + " :: list" : view;
    }

    @GetMapping("/admin/pools/{pool}/nodes/preview")
    String preview(
            Caller caller,
            Model model,
            @PathVariable String pool,
            @RequestParam(required = false) @Nullable String hostnames) {
        caller.requireReadsEverything();
        Preview preview;
        if (FleetForms.clean(hostnames).isEmpty()) {
            preview = new Preview(List.of(), null);
        } else {
            try {
                preview = new Preview(HostnameRange.expand(FleetForms.clean(hostnames)), null);
            } catch (HostnameRange.Invalid invalid) {
                preview = new Preview(List.of(), invalid.getMessage());
            }
        }
        model.addAttribute("preview", preview);
        return "admin/pool :: preview";
    }

    @PostMapping("/admin/pools/{pool}/nodes")
    String addNodes(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String pool,
            @ModelAttribute FleetForms.NodesForm form,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        inventory.existingPool(pool);
        FormErrors errors = new FormErrors();
        List<String> hostnames = form.validate(errors);
        if (hostnames != null) {
            try {
                Inventory.NewNode template = new Inventory.NewNode(
                        "", FleetForms.clean(form.rack()), FleetForms.clean(form.ibBlock()), form.drivers());
                transactions.executeWithoutResult(status -> hostnames.forEach(hostname -> inventory.addNode(
                        caller,
                        pool,
                        new Inventory.NewNode(hostname, template.rack(), template.ibBlock(), template.cudaDrivers()))));
                redirect.addFlashAttribute(
                        "notice",
                        hostnames.size() == 1
                                ? "Added node " + hostnames.getFirst() + "."
                                : "Added " + hostnames.size() + " nodes, " + new Preview(hostnames, null).summary()
                                        + ".");
                return "redirect:/admin/pools/" + pool;
            } catch (AllotException refused) {
                if (refused.status() == 409) {
                    errors.add("hostnames", refused.getMessage() + ". No nodes were added.");
                } else {
                    errors.add(refused, "hostnames");
                }
            }
        }
        response.setStatus(400);
        return render(caller, model, pool, FleetListColumns.POOL_NODE_COLUMNS.defaults(), form, errors);
    }

    @PostMapping("/admin/pools/{pool}/spares")
    String changeSpares(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String pool,
            @RequestParam(required = false) @Nullable String spareNodes,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        FormErrors errors = new FormErrors();
        Integer count = FleetForms.number(spareNodes, "spareNodes", 0, 100_000, errors);
        if (count != null && errors.isEmpty()) {
            try {
                Pool changed = inventory.changeSpareNodes(caller, pool, count, null);
                redirect.addFlashAttribute(
                        "notice",
                        "Pool " + changed.name() + " holds " + changed.spareNodes()
                                + (changed.spareNodes() == 1 ? " hot spare." : " hot spares."));
                return "redirect:/admin/pools/" + pool;
            } catch (AllotException refused) {
                errors.add(refused, "spareNodes");
            }
        }
        response.setStatus(400);
        return render(
                caller,
                model,
                pool,
                FleetListColumns.POOL_NODE_COLUMNS.defaults(),
                FleetForms.NodesForm.empty(),
                errors);
    }

    @PostMapping("/admin/nodes/{hostname}/quarantine")
    String quarantine(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String hostname,
            @RequestParam(required = false) @Nullable String reason,
            @RequestParam(defaultValue = "0") int page,
            RedirectAttributes redirect) {
        return changeState(caller, model, response, hostname, NodeState.QUARANTINED, reason, page, redirect);
    }

    @PostMapping("/admin/nodes/{hostname}/release")
    String release(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String hostname,
            @RequestParam(required = false) @Nullable String reason,
            @RequestParam(defaultValue = "0") int page,
            RedirectAttributes redirect) {
        return changeState(caller, model, response, hostname, NodeState.AVAILABLE, reason, page, redirect);
    }

    private String changeState(
            Caller caller,
            Model model,
            HttpServletResponse response,
            String hostname,
            NodeState next,
            @Nullable String reason,
            int page,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        Node node = inventory.node(caller, hostname);
        String why = FleetForms.clean(reason);
        String field = "reason@" + hostname;
        FormErrors errors = new FormErrors();
        FleetForms.text(why, field, "a reason", FleetForms.MAX_REASON, errors);
        if (errors.isEmpty()) {
            try {
                Inventory.StateChange change = next == NodeState.QUARANTINED
                        ? inventory.quarantine(caller, hostname, why)
                        : inventory.release(caller, hostname, why);
                redirect.addFlashAttribute(
                        "notice", (next == NodeState.QUARANTINED ? "Quarantined " : "Released ") + hostname + ".");
                redirect.addFlashAttribute("affected", affected(change.affected()));
                return "redirect:/admin/pools/" + node.pool() + (page > 0 ? "?page=" + page : "");
            } catch (AllotException refused) {
                errors.add(refused, field);
            }
        }
        response.setStatus(400);
        return render(
                caller,
                model,
                node.pool(),
                FleetListColumns.POOL_NODE_COLUMNS.defaults().onPage(page),
                FleetForms.NodesForm.empty(),
                errors);
    }

    /** A reservation holding a node that was just taken out of service; flashed through the session. */
    record Affected(String tenant, String reservationId, Instant startsAt, Instant endsAt) implements Serializable {}

    private static ArrayList<Affected> affected(List<NodeCommitments.Commitment> commitments) {
        ArrayList<Affected> affected = new ArrayList<>();
        commitments.forEach(
                c -> affected.add(new Affected(c.tenant(), c.reservationId().toString(), c.startsAt(), c.endsAt())));
        return affected;
    }

    private String render(
            Caller caller,
            Model model,
            String poolName,
            SearchQuery query,
            FleetForms.NodesForm form,
            FormErrors errors) {
        caller.requireReadsEverything();
        Pool pool = inventory.existingPool(poolName);
        PageResponse<Node> nodes = inventory.searchNodes(caller, Inventory.NodeFilter.ofPool(poolName), query);
        model.addAttribute("section", "admin");
        model.addAttribute("pool", pool);
        model.addAttribute("size", inventory.size(pool));
        model.addAttribute("nodes", nodes);
        model.addAttribute("links", new ListLinks("/admin/pools/" + pool.name(), Map.of(), query, nodes.totalItems()));
        model.addAttribute("canChange", caller.isPlatformAdmin());
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        return "admin/pool";
    }
}
