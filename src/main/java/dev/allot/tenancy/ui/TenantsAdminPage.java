package dev.allot.tenancy.ui;

import dev.allot.shared.AllotException;
import dev.allot.shared.PageResponse;
import dev.allot.shared.SearchQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.ListLinks;
import dev.allot.shared.web.ListPages;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import dev.allot.tenancy.status.TenantStatus;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Admin → Tenants: platform admins create, rename, suspend and reactivate; auditors read. */
@UiController
class TenantsAdminPage {

    private final Tenancy tenancy;

    TenantsAdminPage(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    @GetMapping("/admin")
    String admin() {
        return "redirect:/admin/tenants";
    }

    /** The tenants searched by slug or name, sorted and paged ({@link SearchQuery}); htmx gets the list alone. */
    @GetMapping("/admin/tenants")
    String list(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpServletResponse response,
            @RequestParam(required = false) @Nullable String q,
            @RequestParam(required = false) @Nullable String sort,
            @RequestParam(required = false) @Nullable String page,
            @RequestParam(required = false) @Nullable String size) {
        SearchQuery query = ListPages.read(Tenancy.TENANT_COLUMNS, q, sort, page, size, model, response);
        String view = render(caller, model, query, Forms.SlugAndName.empty(), new FormErrors());
        return ListPages.fragment(request) ? view + " :: list" : view;
    }

    @PostMapping("/admin/tenants")
    String create(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @ModelAttribute Forms.SlugAndName form,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        FormErrors errors = form.validate();
        if (errors.isEmpty()) {
            try {
                Tenant tenant = tenancy.createTenant(caller, new Tenancy.NewTenant(form.cleanSlug(), form.cleanName()));
                redirect.addFlashAttribute("notice", "Created tenant " + tenant.displayName() + ".");
                return "redirect:/admin/tenants";
            } catch (AllotException refused) {
                errors.add(refused, "slug");
            }
        }
        response.setStatus(400);
        return render(caller, model, Tenancy.TENANT_COLUMNS.defaults(), form, errors);
    }

    @PostMapping("/admin/tenants/{slug}/name")
    String rename(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String slug,
            @RequestParam(required = false) @Nullable String displayName,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        String name = displayName == null ? "" : displayName.strip();
        String field = "displayName@" + slug;
        FormErrors errors = new FormErrors();
        Forms.checkDisplayName(name, field, errors);
        if (errors.isEmpty()) {
            try {
                tenancy.changeTenant(caller, slug, new Tenancy.TenantChange(name, null), null);
                redirect.addFlashAttribute("notice", "Renamed " + slug + " to " + name + ".");
                return "redirect:/admin/tenants";
            } catch (AllotException refused) {
                errors.add(refused, field);
            }
        }
        response.setStatus(400);
        return render(caller, model, Tenancy.TENANT_COLUMNS.defaults(), Forms.SlugAndName.empty(), errors);
    }

    @PostMapping("/admin/tenants/{slug}/status")
    String changeStatus(
            Caller caller, @PathVariable String slug, @RequestParam TenantStatus status, RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        Tenant changed = tenancy.changeTenant(caller, slug, new Tenancy.TenantChange(null, status), null);
        redirect.addFlashAttribute(
                "notice", (changed.isActive() ? "Reactivated " : "Suspended ") + changed.displayName() + ".");
        return "redirect:/admin/tenants";
    }

    private String render(Caller caller, Model model, SearchQuery query, Forms.SlugAndName form, FormErrors errors) {
        caller.requireReadsEverything();
        PageResponse<Tenant> tenants = tenancy.searchTenants(caller, query);
        model.addAttribute("section", "admin");
        model.addAttribute("tenants", tenants);
        model.addAttribute("links", new ListLinks("/admin/tenants", Map.of(), query, tenants.totalItems()));
        model.addAttribute("canChange", caller.isPlatformAdmin());
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        return "admin/tenants";
    }
}
