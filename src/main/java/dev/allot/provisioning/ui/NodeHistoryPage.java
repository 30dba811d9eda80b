package dev.allot.provisioning.ui;

import dev.allot.audit.AuditEvent;
import dev.allot.audit.AuditLog;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Node;
import dev.allot.provisioning.health.NodeHistory;
import dev.allot.provisioning.health.Remediation.Action;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.ListPages;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.Words;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Admin → a node's history, for platform admins and auditors: its health checks (provisioning), exporter events and
 * remediations (provisioning), and its audited changes, state changes among them (inventory audits each), in one
 * timeline, newest first, paged. Each source is read for the newest entries up to the page's end only.
 */
@UiController
class NodeHistoryPage {

    static final int PAGE_SIZE = 25;

    /** The deepest page: a history longer than that is read through the audit log's filters. */
    static final int MAX_PAGE = 200;

    /** Audit rows of remediations: provisioning's own record of them is shown instead, with its reason. */
    private static final String REMEDIATION_AUDIT = "node.remediation.";

    /**
     * One line of the timeline.
     *
     * @param kind {@code acceptance}, {@code check}, {@code event}, {@code remediation} or {@code change}
     * @param verdict the outcome in words (Passed, Hardware fault, Reboot, Quarantined, Running)
     * @param good whether the verdict is good news (for its badge's colour, which only repeats the words); null for
     *        a check still running
     * @param ended when a check finished, else null (an acceptance check's start is its time)
     * @param output a check's output, else null
     */
    record Entry(
            Instant at,
            int order,
            String id,
            String kind,
            String title,
            String verdict,
            @Nullable Boolean good,
            @Nullable Instant ended,
            String summary,
            @Nullable String by,
            @Nullable String output) {}

    private final Inventory inventory;

    private final NodeHistory history;

    private final AuditLog audit;

    NodeHistoryPage(Inventory inventory, NodeHistory history, AuditLog audit) {
        this.inventory = inventory;
        this.history = history;
        this.audit = audit;
    }

    @GetMapping("/admin/nodes/{hostname}")
    String history(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpServletResponse response,
            @PathVariable String hostname,
            @RequestParam(required = false) @Nullable String page) {
        Node node = inventory.node(caller, hostname);
        int number = 0;
        try {
            number = page(page);
        } catch (InvalidInputException invalid) {
            ListPages.refused(invalid, model, response);
        }
        int upTo = (number + 1) * PAGE_SIZE;
        List<Entry> entries = new ArrayList<>();
        history.checks(hostname, upTo).forEach(c -> entries.add(check(c)));
        history.acceptance(hostname, upTo).forEach(a -> entries.add(acceptance(a)));
        history.events(hostname, upTo).forEach(e -> entries.add(event(e)));
        history.remediations(hostname, upTo).forEach(r -> entries.add(remediation(r)));
        audit.ofObject("node", hostname, REMEDIATION_AUDIT, upTo).forEach(a -> entries.add(change(a)));
        entries.sort(Comparator.comparing(Entry::at)
                .reversed()
                .thenComparing(Entry::order)
                .thenComparing(Entry::id, Comparator.reverseOrder()));
        long total = history.countChecks(hostname)
                + history.countAcceptance(hostname)
                + history.countEvents(hostname)
                + history.countRemediations(hostname)
                + audit.countOfObject("node", hostname, REMEDIATION_AUDIT);
        int from = Math.min(entries.size(), number * PAGE_SIZE);
        long lastPage = Math.min(MAX_PAGE, Math.max(0, (total - 1) / PAGE_SIZE));
        model.addAttribute("section", "admin");
        model.addAttribute("node", node);
        model.addAttribute("entries", entries.subList(from, Math.min(entries.size(), from + PAGE_SIZE)));
        model.addAttribute("total", total);
        model.addAttribute("page", number);
        model.addAttribute("lastPage", lastPage);
        model.addAttribute("first", total == 0 ? 0 : from + 1);
        model.addAttribute("last", Math.min(total, from + PAGE_SIZE));
        return ListPages.fragment(request) ? "admin/node :: history" : "admin/node";
    }

    private static int page(@Nullable String page) {
        if (page == null || page.isBlank()) {
            return 0;
        }
        try {
            int number = Integer.parseInt(page.strip());
            if (number >= 0 && number <= MAX_PAGE) {
                return number;
            }
        } catch (NumberFormatException ex) {
            // answered below
        }
        throw InvalidInputException.of("page", "Page must be a whole number from 0 (the newest) to " + MAX_PAGE);
    }

    /** One on-demand check on the node. */
    private static Entry check(NodeHistory.Check c) {
        return new Entry(
                c.finishedAt() != null ? c.finishedAt() : c.requestedAt(),
                0,
                c.id().toString(),
                "check",
                Words.word(c.kind()) + " check",
                c.passed() ? "Passed" : c.fault() == null ? "Failed" : Words.word(c.fault()) + " fault",
                c.passed(),
                c.finishedAt(),
                c.summary() == null ? "" : c.summary(),
                c.requestedBy(),
                c.output());
    }

    /** One acceptance check before a handover, running or done. */
    private static Entry acceptance(NodeHistory.AcceptanceRun a) {
        return new Entry(
                a.startedAt(),
                0,
                "a" + a.id(),
                "acceptance",
                "Acceptance: " + Words.word(a.kind()) + " check",
                a.running()
                        ? "Running"
                        : Boolean.TRUE.equals(a.passed())
                                ? "Passed"
                                : a.fault() == null ? "Failed" : Words.word(a.fault()) + " fault",
                a.running() ? null : a.passed(),
                a.finishedAt(),
                a.running() ? "Started before handover; still running." : a.summary() == null ? "" : a.summary(),
                "Allot, before handover",
                a.output());
    }

    /** One fault event an exporter reported. */
    private static Entry event(NodeHistory.Event e) {
        return new Entry(
                e.at(),
                1,
                Long.toString(e.id()),
                "event",
                "Exporter event: " + e.type(),
                e.fault().equals("NONE") ? "No fault" : Words.word(e.fault()) + " fault",
                e.fault().equals("NONE"),
                null,
                e.detail() + (e.action() == Action.NONE ? "" : "; remediation: " + Words.word(e.action())),
                e.reportedBy(),
                null);
    }

    /** One remediation step Allot took. */
    private static Entry remediation(NodeHistory.Step r) {
        return new Entry(
                r.at(),
                2,
                Long.toString(r.id()),
                "remediation",
                "Remediation: " + Words.word(r.action()),
                Words.word(r.fault()) + " fault",
                false,
                null,
                r.reason(),
                "Allot remediation",
                null);
    }

    /** An audited change of the node: a change of state (from and to, with the reason), or another admin action. */
    private static Entry change(AuditEvent a) {
        String action = a.action().startsWith("node.") ? a.action().substring(5) : a.action();
        String from = a.before() == null ? null : a.before().path("state").asString(null);
        String to = a.after() == null ? null : a.after().path("state").asString(null);
        String reason = a.after() == null ? "" : a.after().path("stateReason").asString("");
        if (action.equals("created")) {
            return new Entry(
                    a.occurredAt(),
                    3,
                    Long.toString(a.id()),
                    "change",
                    "Added to the fleet",
                    "Available",
                    true,
                    null,
                    "",
                    a.actor(),
                    null);
        }
        if (from != null && to != null && !from.equals(to)) {
            return new Entry(
                    a.occurredAt(),
                    3,
                    Long.toString(a.id()),
                    "change",
                    "State: " + Words.word(from) + " to " + Words.word(to),
                    Words.word(to),
                    to.equals("AVAILABLE"),
                    null,
                    reason,
                    a.actor(),
                    null);
        }
        return new Entry(
                a.occurredAt(),
                3,
                Long.toString(a.id()),
                "change",
                Words.word(action.replace('-', '_').replace('.', '_')),
                "Changed",
                true,
                null,
                "",
                a.actor(),
                null);
    }
}
