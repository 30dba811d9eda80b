package dev.allot.quota.ui;

import dev.allot.quota.QuotaRequest;
import dev.allot.quota.QuotaRequests;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.ListLinks;
import dev.allot.shared.web.ListPages;
import dev.allot.shared.web.UiController;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Admin → Quotas: every tenant's policies with what it holds now and ahead, and the quota requests waiting for a
 * decision (approved or denied with a reason here). A tenant's own page is {@link TenantQuotaAdminPage}.
 */
@UiController
class QuotasAdminPage {

    private static final int PAGE_SIZE = 25;

    /** A row of the overview: a tenant's policy of a GPU type held against its limits, or a tenant with none. */
    record PolicyRow(Quotas.QuotaListing listing, @Nullable QuotaStanding standing, String currency) {}

    /** A request waiting for a decision: what it asks, per GPU type, against what the tenant holds now. */
    record PendingRow(QuotaRequest request, List<QuotaAsk> asks) {}

    private final Quotas quotas;

    private final QuotaRequests requests;

    private final QuotaStandingLookup lookup;

    private final Clock clock;

    QuotasAdminPage(Quotas quotas, QuotaRequests requests, QuotaStandingLookup lookup, Clock clock) {
        this.quotas = quotas;
        this.requests = requests;
        this.lookup = lookup;
        this.clock = clock;
    }

    /** Every tenant's quotas, a row per GPU type, searched, sorted and paged ({@link SearchQuery}); htmx gets the list alone. */
    @GetMapping("/admin/quotas")
    String overview(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpServletResponse response,
            @RequestParam(required = false) @Nullable String q,
            @RequestParam(required = false) @Nullable String sort,
            @RequestParam(required = false) @Nullable String page,
            @RequestParam(required = false) @Nullable String size) {
        SearchQuery query = ListPages.read(Quotas.QUOTA_COLUMNS, q, sort, page, size, model, response);
        String view = overview(caller, model, query, new FormErrors());
        return ListPages.fragment(request) ? view + " :: list" : view;
    }

    /** Applies the request; refused (guarantees beyond capacity, say), it stays pending and the page says why. */
    @PostMapping("/admin/quota-requests/{id}/approve")
    String approve(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable UUID id,
            RedirectAttributes redirect) {
        return decide(
                caller,
                model,
                response,
                id,
                redirect,
                () -> requests.approve(caller, id, null),
                ": its quota is changed.");
    }

    @PostMapping("/admin/quota-requests/{id}/deny")
    String deny(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable UUID id,
            @RequestParam(defaultValue = "") String reason,
            RedirectAttributes redirect) {
        if (reason.isBlank() || reason.strip().length() > QuotaRequestForm.MAX_REASON) {
            response.setStatus(400);
            return overview(
                    caller,
                    model,
                    Quotas.QUOTA_COLUMNS.defaults(),
                    new FormErrors()
                            .add(
                                    "reason-" + id,
                                    "Say why you deny it, in at most " + QuotaRequestForm.MAX_REASON
                                            + " characters: the team reads it"));
        }
        return decide(
                caller,
                model,
                response,
                id,
                redirect,
                () -> requests.deny(caller, id, reason.strip()),
                "; the team reads your reason.");
    }

    /** Decides; refused, the overview says why on the request's row (whatever field it names: the row has none). */
    private String decide(
            Caller caller,
            Model model,
            HttpServletResponse response,
            UUID id,
            RedirectAttributes redirect,
            Supplier<QuotaRequest> decision,
            String outcome) {
        try {
            QuotaRequest decided = decision.get();
            redirect.addFlashAttribute(
                    "notice",
                    (decided.status() == QuotaRequest.Status.APPROVED ? "Approved" : "Denied")
                            + " the quota request of " + decided.tenant() + outcome);
            return "redirect:/admin/quotas";
        } catch (AllotException refused) {
            if (refused.status() == 404) {
                throw refused;
            }
            response.setStatus(refused.status());
            return overview(
                    caller,
                    model,
                    Quotas.QUOTA_COLUMNS.defaults(),
                    new FormErrors().add("request-" + id, String.valueOf(refused.getMessage())));
        }
    }

    private String overview(Caller caller, Model model, SearchQuery query, FormErrors errors) {
        caller.requireReadsEverything();
        Instant now = clock.instant();
        PageResponse<Quotas.QuotaListing> listings = quotas.searchQuotas(caller, query);
        PageResponse<PolicyRow> rows = listings.map(listing -> listing.policy() == null
                ? new PolicyRow(listing, null, "")
                : new PolicyRow(
                        listing,
                        lookup.standing(listing.tenantId(), listing.policy().gpuType(), listing.policy(), now),
                        lookup.currency(listing.policy().gpuType())));
        model.addAttribute("section", "admin");
        model.addAttribute("rows", rows);
        model.addAttribute("links", new ListLinks("/admin/quotas", Map.of(), query, rows.totalItems()));
        model.addAttribute("overcommitted", quotas.overcommitted());
        model.addAttribute(
                "pending",
                requests.all(caller, QuotaRequest.Status.PENDING, new PageQuery(0, PAGE_SIZE)).items().stream()
                        .map(r -> new PendingRow(
                                r,
                                QuotaAsk.of(
                                        r.policies(),
                                        quotas.quota(caller, r.tenant()).policies())))
                        .toList());
        model.addAttribute("canDecide", caller.isPlatformAdmin());
        model.addAttribute("errors", errors);
        return "admin/quotas";
    }
}
