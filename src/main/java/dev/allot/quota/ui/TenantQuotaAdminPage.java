package dev.allot.quota.ui;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Admin → Quotas → a tenant: edit a GPU type's policy, remove it, or set the storage quota. Before a save that leaves
 * existing reservations above a limit, the page lists them and asks again.
 */
@UiController
class TenantQuotaAdminPage {

    /** The quota form's fields as its labels name them, for a problem said away from the field. */
    private static final Map<String, String> LABELS = Map.ofEntries(
            Map.entry("guaranteedGpus", "Guaranteed GPUs"),
            Map.entry("maxGpus", "Maximum GPUs"),
            Map.entry("priority", "Priority"),
            Map.entry("maxWindow", "Longest reservation"),
            Map.entry("maxAdvance", "Booked ahead at most"),
            Map.entry("monthlyBudget", "Monthly budget"),
            Map.entry("lendableGpus", "Lendable GPUs"),
            Map.entry("zone", "Time zone of the windows"),
            Map.entry("windows", "Time windows"));

    /**
     * A GPU type's card on a tenant's page: the saved policy (null for a new one), the form's values, what the
     * tenant holds against the saved policy, and, while editing, against the proposed one.
     */
    record PolicyCard(
            String gpuType,
            @Nullable QuotaPolicy policy,
            QuotaForm form,
            QuotaStanding standing,
            String currency,
            boolean editing,
            @Nullable QuotaStanding proposed,
            boolean needsConfirmation) {}

    private final Quotas quotas;

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final QuotaStandingLookup lookup;

    private final Clock clock;

    TenantQuotaAdminPage(Quotas quotas, Tenancy tenancy, Inventory inventory, QuotaStandingLookup lookup, Clock clock) {
        this.quotas = quotas;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.lookup = lookup;
        this.clock = clock;
    }

    @GetMapping("/admin/quotas/{tenant}")
    String tenant(
            Caller caller,
            Model model,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable String add) {
        return render(caller, model, tenant, add, null, null, new FormErrors());
    }

    /** The reservations the limits as typed would leave above them: htmx asks while the admin edits. */
    @PostMapping("/admin/quotas/{tenant}/impact")
    String impact(Caller caller, Model model, @PathVariable String tenant, @ModelAttribute QuotaForm form) {
        caller.requireReadsEverything();
        Tenant t = tenancy.readable(caller, tenant);
        FormErrors errors = new FormErrors();
        QuotaPolicy proposed = form.toPolicy(errors);
        GpuType type = lookup.gpuType(form.gpuType());
        model.addAttribute("gpuType", type.code());
        model.addAttribute("standing", proposed == null ? null : standing(t, type.code(), proposed, clock.instant()));
        model.addAttribute("invalid", proposed == null);
        model.addAttribute("problems", problems(errors));
        model.addAttribute("tenantSlug", t.slug());
        return "admin/quota-impact :: impact";
    }

    /**
     * Each field to fix, named by its label, with what is wrong; a message about the whole form is shown above it
     * instead, as it names no field.
     */
    private static List<String> problems(FormErrors errors) {
        return errors.asMap().entrySet().stream()
                .filter(error -> !error.getKey().equals(FormErrors.FORM))
                .map(error ->
                        LABELS.getOrDefault(error.getKey(), error.getKey()) + " (" + lowerFirst(error.getValue()) + ")")
                .toList();
    }

    private static String lowerFirst(String message) {
        return message.isEmpty() ? message : Character.toLowerCase(message.charAt(0)) + message.substring(1);
    }

    @PostMapping("/admin/quotas/{tenant}")
    String save(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @ModelAttribute QuotaForm form,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        Tenant t = tenancy.readable(caller, tenant);
        GpuType type = lookup.gpuType(form.gpuType());
        FormErrors errors = new FormErrors();
        QuotaPolicy proposed = form.toPolicy(errors);
        if (proposed == null) {
            response.setStatus(400);
            return render(caller, model, tenant, null, type.code(), form, errors);
        }
        Quotas.TenantQuota current = quotas.quota(caller, tenant);
        QuotaPolicy saved = current.policies().stream()
                .filter(p -> p.gpuType().equals(type.code()))
                .findFirst()
                .orElse(null);
        Instant now = clock.instant();
        if (!form.confirmed()
                && newlyAffected(standing(t, type.code(), saved, now), standing(t, type.code(), proposed, now))) {
            return render(caller, model, tenant, null, type.code(), form, errors);
        }
        List<QuotaPolicy> next = new ArrayList<>(current.policies().stream()
                .filter(p -> !p.gpuType().equals(type.code()))
                .toList());
        // the form does not show approval rules (set through the API): a saved policy keeps its own
        next.add(saved == null || saved.approval() == null ? proposed : proposed.withApproval(saved.approval()));
        next.sort(Comparator.comparing(QuotaPolicy::gpuType));
        try {
            quotas.replace(caller, tenant, next, "\"" + form.versionNumber() + "\"");
            redirect.addFlashAttribute("notice", "Saved the " + type.code() + " quota of " + t.displayName() + ".");
            return "redirect:/admin/quotas/" + tenant;
        } catch (AllotException refused) {
            if (refused.status() == 412) {
                errors.add(
                        "form",
                        "Someone changed this tenant's quota after you opened the page. Reload the page to "
                                + "see their values, then make your change again.");
            } else {
                errors.add(refused, "form");
            }
        }
        response.setStatus(refused(errors) ? 409 : 400);
        return render(caller, model, tenant, null, type.code(), form, errors);
    }

    @PostMapping("/admin/quotas/{tenant}/remove")
    String remove(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @RequestParam String gpuType,
            @RequestParam(defaultValue = "-1") long version,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        Tenant t = tenancy.readable(caller, tenant);
        Quotas.TenantQuota current = quotas.quota(caller, tenant);
        List<QuotaPolicy> next = current.policies().stream()
                .filter(p -> !p.gpuType().equals(gpuType))
                .toList();
        try {
            quotas.replace(caller, tenant, next, "\"" + version + "\"");
            redirect.addFlashAttribute(
                    "notice",
                    "Removed the " + gpuType + " quota of " + t.displayName() + ": it cannot book " + gpuType
                            + " any more.");
            return "redirect:/admin/quotas/" + tenant;
        } catch (AllotException refused) {
            FormErrors errors = new FormErrors();
            errors.add(
                    "form",
                    refused.status() == 412
                            ? "Someone changed this tenant's quota after you opened the "
                                    + "page. Reload the page and try again."
                            : String.valueOf(refused.getMessage()));
            response.setStatus(409);
            return render(caller, model, tenant, null, gpuType, null, errors);
        }
    }

    /** The tenant's storage quota over all its volumes; empty is unlimited. */
    @PostMapping("/admin/quotas/{tenant}/storage")
    String storage(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @RequestParam(defaultValue = "") String storageGi,
            @RequestParam(defaultValue = "-1") long version,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        Tenant t = tenancy.readable(caller, tenant);
        FormErrors errors = new FormErrors();
        Integer limit = null;
        if (!storageGi.isBlank()) {
            try {
                limit = Integer.valueOf(storageGi.strip());
            } catch (NumberFormatException ex) {
                limit = -1;
            }
            if (limit < 0) {
                errors.add("storageGi", "Enter whole GiB, 0 or more, or leave it empty for no limit");
            }
        }
        if (!errors.has("storageGi")) {
            try {
                quotas.replace(caller, tenant, quotas.quota(caller, tenant).policies(), limit, "\"" + version + "\"");
                redirect.addFlashAttribute(
                        "notice",
                        "Saved the storage quota of " + t.displayName() + ": "
                                + (limit == null ? "no limit." : limit + " GiB."));
                return "redirect:/admin/quotas/" + tenant;
            } catch (AllotException refused) {
                errors.add(
                        "form",
                        refused.status() == 412
                                ? "Someone changed this tenant's quota after you opened the "
                                        + "page. Reload the page and try again."
                                : String.valueOf(refused.getMessage()));
            }
        }
        response.setStatus(refused(errors) ? 409 : 400);
        return render(caller, model, tenant, null, null, null, errors);
    }

    private static boolean refused(FormErrors errors) {
        return errors.has("form");
    }

    /** Whether the proposed limits leave a reservation above a limit that the saved ones do not. */
    private static boolean newlyAffected(QuotaStanding before, QuotaStanding after) {
        Set<String> known = before.findings().stream()
                .flatMap(f -> f.reservations().stream().map(r -> f.limit() + r.reservationId()))
                .collect(Collectors.toSet());
        return after.findings().stream()
                .flatMap(f -> f.reservations().stream().map(r -> f.limit() + r.reservationId()))
                .anyMatch(key -> !known.contains(key));
    }

    private String render(
            Caller caller,
            Model model,
            String slug,
            @Nullable String add,
            @Nullable String editing,
            @Nullable QuotaForm submitted,
            FormErrors errors) {
        caller.requireReadsEverything();
        Tenant tenant = tenancy.readable(caller, slug);
        Quotas.TenantQuota quota = quotas.quota(caller, slug);
        Instant now = clock.instant();
        List<PolicyCard> cards = new ArrayList<>();
        List<String> codes = new ArrayList<>(
                quota.policies().stream().map(QuotaPolicy::gpuType).toList());
        for (String code : Arrays.asList(add, editing)) {
            if (code != null && !codes.contains(code) && inventory.gpuType(code).isPresent()) {
                codes.add(code);
            }
        }
        for (String code : codes) {
            QuotaPolicy policy = quota.policies().stream()
                    .filter(p -> p.gpuType().equals(code))
                    .findFirst()
                    .orElse(null);
            boolean isEditing = code.equals(editing) && submitted != null;
            QuotaForm form = isEditing && submitted != null
                    ? submitted
                    : policy == null ? QuotaForm.empty(code, quota.version()) : QuotaForm.of(policy, quota.version());
            QuotaStanding standing = standing(tenant, code, policy, now);
            QuotaStanding proposed = null;
            boolean confirm = false;
            if (isEditing && errors.isEmpty()) {
                QuotaPolicy typed = form.toPolicy(new FormErrors());
                proposed = typed == null ? null : standing(tenant, code, typed, now);
                confirm = proposed != null && newlyAffected(standing, proposed);
            }
            cards.add(
                    new PolicyCard(code, policy, form, standing, lookup.currency(code), isEditing, proposed, confirm));
        }
        List<String> addable = inventory.gpuTypes(new PageQuery(0, PageQuery.MAX_SIZE)).items().stream()
                .map(GpuType::code)
                .filter(code -> !codes.contains(code))
                .toList();
        model.addAttribute("section", "admin");
        model.addAttribute("tenant", tenant);
        model.addAttribute("version", quota.version());
        model.addAttribute("storageGi", quota.storageGi());
        model.addAttribute("cards", cards);
        model.addAttribute("addable", addable);
        model.addAttribute("canChange", caller.isPlatformAdmin());
        model.addAttribute("editing", editing);
        model.addAttribute("errors", errors);
        model.addAttribute("problems", problems(errors));
        return "admin/quota";
    }

    private QuotaStanding standing(Tenant tenant, String gpuTypeCode, @Nullable QuotaPolicy policy, Instant now) {
        return lookup.standing(tenant.id(), gpuTypeCode, policy, now);
    }
}
