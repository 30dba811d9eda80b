package dev.allot.quota.ui;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.QuotaRequest;
import dev.allot.quota.QuotaRequests;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.ViewerTimes;
import dev.allot.tenancy.Tenancy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * A team's own quota, for its members: each GPU type's policy in words, and day by day for the next week what it
 * holds, what it holds back from borrowers and what a new booking would get (the quota standing API, shown). Its
 * quota requests with their answers are listed too; a tenant admin asks for more here, or withdraws a waiting one.
 */
@UiController
class TeamQuotaPage {

    /** One GPU type's policy and its standing over the next days. */
    record Card(QuotaPolicy policy, String windows, List<Quotas.StandingStep> days) {}

    /** A request as listed: what it asks, per GPU type, in words. */
    record RequestRow(QuotaRequest request, List<QuotaAsk> asks) {}

    private static final int DAYS = 7;

    /** The latest requests listed; older ones are in the API. */
    private static final int REQUESTS = 20;

    private final Quotas quotas;

    private final QuotaRequests requests;

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final Clock clock;

    TeamQuotaPage(Quotas quotas, QuotaRequests requests, Tenancy tenancy, Inventory inventory, Clock clock) {
        this.quotas = quotas;
        this.requests = requests;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.clock = clock;
    }

    @GetMapping("/tenants/{tenant}/quota")
    String show(Caller caller, Model model, @PathVariable String tenant, HttpServletRequest request) {
        return render(caller, model, tenant, request, QuotaRequestForm.empty(), new FormErrors());
    }

    @PostMapping("/tenants/{tenant}/quota/requests")
    String ask(
            Caller caller,
            Model model,
            @PathVariable String tenant,
            @ModelAttribute QuotaRequestForm form,
            HttpServletRequest request,
            HttpServletResponse response,
            RedirectAttributes redirect) {
        FormErrors errors = new FormErrors();
        List<QuotaPolicy> held = quotas.quota(caller, tenant).policies();
        List<QuotaPolicy> asked = form.toPolicies(held, askable(held), errors);
        if (asked != null) {
            try {
                requests.create(caller, tenant, asked, form.cleanReason());
                redirect.addFlashAttribute(
                        "notice",
                        "Asked for " + QuotaForm.clean(form.guaranteedGpus())
                                + " guaranteed, up to " + QuotaForm.clean(form.maxGpus()) + " "
                                + QuotaForm.clean(form.gpuType())
                                + " GPUs: a platform admin decides.");
                return "redirect:/tenants/" + tenant + "/quota";
            } catch (AllotException refused) {
                errors.add(refused, FormErrors.FORM);
            }
        }
        response.setStatus(errors.has(FormErrors.FORM) ? 409 : 400);
        return render(caller, model, tenant, request, form, errors);
    }

    @PostMapping("/tenants/{tenant}/quota/requests/{id}/withdraw")
    String withdraw(Caller caller, @PathVariable String tenant, @PathVariable UUID id, RedirectAttributes redirect) {
        try {
            requests.withdraw(caller, tenant, id);
            redirect.addFlashAttribute("notice", "Withdrew the quota request: you may ask for another.");
        } catch (AllotException refused) {
            redirect.addFlashAttribute("notice", refused.getMessage());
        }
        return "redirect:/tenants/" + tenant + "/quota";
    }

    private String render(
            Caller caller,
            Model model,
            String tenant,
            HttpServletRequest request,
            QuotaRequestForm form,
            FormErrors errors) {
        model.addAttribute("tenant", tenancy.readableInProjects(caller, tenant));
        List<QuotaPolicy> held = quotas.quota(caller, tenant).policies();
        // the team's quota requests are the tenant's business: not shown to someone with only project roles in it
        List<RequestRow> rows = !caller.canRead(tenant)
                ? List.of()
                : requests.ofTenant(caller, tenant, new PageQuery(0, REQUESTS)).items().stream()
                        .map(r -> new RequestRow(r, QuotaAsk.of(r.policies(), held)))
                        .toList();
        model.addAttribute("requests", rows);
        model.addAttribute(
                "waiting", rows.stream().anyMatch(row -> row.request().status() == QuotaRequest.Status.PENDING));
        model.addAttribute(
                "canAsk",
                caller.isPlatformAdmin()
                        || caller.roleIn(tenant)
                                .filter(role -> role == TenantRole.TENANT_ADMIN)
                                .isPresent());
        model.addAttribute("gpuTypes", askable(held));
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        model.addAttribute("section", "team");
        model.addAttribute("days", DAYS);
        List<Instant> days = ViewerTimes.of(request).dayStarts(clock.instant(), DAYS);
        model.addAttribute(
                "cards",
                held.stream()
                        .map(policy -> new Card(
                                policy, windows(policy), quotas.standingSteps(caller, tenant, policy.gpuType(), days)))
                        .toList());
        return "tenant/quota";
    }

    /** The GPU types a request may name, the team's own first: what it most likely asks more of. */
    private List<String> askable(List<QuotaPolicy> held) {
        List<String> types =
                new ArrayList<>(held.stream().map(QuotaPolicy::gpuType).toList());
        inventory.gpuTypes(new PageQuery(0, PageQuery.MAX_SIZE)).items().stream()
                .map(GpuType::code)
                .filter(code -> !types.contains(code))
                .forEach(types::add);
        return types;
    }

    private static String windows(QuotaPolicy policy) {
        if (policy.windows().isEmpty()) {
            return "None";
        }
        return String.join(
                        "; ",
                        policy.windows().stream()
                                .map(w -> String.join(", ", w.dayNames()) + " " + w.from() + "-" + w.to() + ": up to "
                                        + w.maxGpus() + " GPUs")
                                .toList())
                + " (" + policy.zone().getId() + ")";
    }
}
