package dev.allot.inventory.ui;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
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
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Admin → Pools and nodes: the pools with their node counts (searched, sorted and paged on the server), and the
 * forms to add a GPU type or a pool.
 */
@UiController
class PoolsAdminPage {

    private static final PageQuery ALL = new PageQuery(0, PageQuery.MAX_SIZE);

    private final Inventory inventory;

    PoolsAdminPage(Inventory inventory) {
        this.inventory = inventory;
    }

    /** The pools searched, sorted and paged ({@link SearchQuery}); htmx gets the list alone. */
    @GetMapping("/admin/pools")
    String list(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpServletResponse response,
            @RequestParam(required = false) @Nullable String q,
            @RequestParam(required = false) @Nullable String sort,
            @RequestParam(required = false) @Nullable String page,
            @RequestParam(required = false) @Nullable String size) {
        SearchQuery query = ListPages.read(FleetListColumns.POOL_COLUMNS, q, sort, page, size, model, response);
        String view = render(
                caller, model, query, FleetForms.PoolForm.empty(), FleetForms.GpuTypeForm.empty(), new FormErrors());
        return ListPages.fragment(request) ? view + " :: list" : view;
    }

    @PostMapping("/admin/pools")
    String createPool(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @ModelAttribute("poolForm") FleetForms.PoolForm form,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        FormErrors errors = form.validate();
        if (errors.isEmpty()) {
            try {
                Pool pool = inventory.createPool(
                        caller,
                        new Inventory.NewPool(
                                FleetForms.clean(form.name()),
                                FleetForms.clean(form.gpuType()),
                                Integer.parseInt(FleetForms.clean(form.gpusPerNode())),
                                FleetForms.clean(form.region())));
                redirect.addFlashAttribute("notice", "Created pool " + pool.name() + ". Add its nodes below.");
                return "redirect:/admin/pools/" + pool.name();
            } catch (AllotException refused) {
                errors.add(refused, "name");
            }
        }
        response.setStatus(400);
        return render(
                caller, model, FleetListColumns.POOL_COLUMNS.defaults(), form, FleetForms.GpuTypeForm.empty(), errors);
    }

    @PostMapping("/admin/gpu-types")
    String createGpuType(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @ModelAttribute("gpuTypeForm") FleetForms.GpuTypeForm form,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        FormErrors errors = form.validate();
        if (errors.isEmpty()) {
            try {
                String interconnect = FleetForms.clean(form.interconnect());
                GpuType type = inventory.createGpuType(
                        caller,
                        new Inventory.NewGpuType(
                                FleetForms.clean(form.code()),
                                Integer.parseInt(FleetForms.clean(form.memoryGb())),
                                interconnect.isEmpty() ? null : interconnect));
                redirect.addFlashAttribute("notice", "Added GPU type " + type.code() + ".");
                return "redirect:/admin/pools";
            } catch (AllotException refused) {
                errors.add(refused, "code");
            }
        }
        response.setStatus(400);
        // The two forms share one page: prefix this form's fields so its messages land next to its own inputs.
        FormErrors prefixed = new FormErrors();
        errors.asMap().forEach((field, message) -> prefixed.add("gpuType." + field, message));
        return render(
                caller, model, FleetListColumns.POOL_COLUMNS.defaults(), FleetForms.PoolForm.empty(), form, prefixed);
    }

    private String render(
            Caller caller,
            Model model,
            SearchQuery query,
            FleetForms.PoolForm poolForm,
            FleetForms.GpuTypeForm gpuTypeForm,
            FormErrors errors) {
        caller.requireReadsEverything();
        PageResponse<Inventory.PoolListing> pools = inventory.searchPools(caller, query);
        model.addAttribute("section", "admin");
        model.addAttribute("pools", pools);
        model.addAttribute("links", new ListLinks("/admin/pools", Map.of(), query, pools.totalItems()));
        model.addAttribute("gpuTypes", inventory.gpuTypes(ALL).items());
        model.addAttribute("canChange", caller.isPlatformAdmin());
        model.addAttribute("poolForm", poolForm);
        model.addAttribute("gpuTypeForm", gpuTypeForm);
        model.addAttribute("errors", errors);
        return "admin/pools";
    }
}
