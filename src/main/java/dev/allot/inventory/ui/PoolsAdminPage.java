package dev.allot.inventory.ui;

import java.util.List;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Admin → Pools and nodes: the pools with their node counts, and the forms to add a GPU type or a pool. */
@UiController
class PoolsAdminPage {

	/** A pool and its nodes counted now. */
	record PoolRow(Pool pool, Inventory.PoolSize size) {
	}

	private static final PageQuery ALL = new PageQuery(0, PageQuery.MAX_SIZE);

	private final Inventory inventory;

	PoolsAdminPage(Inventory inventory) {
		this.inventory = inventory;
	}

	@GetMapping("/admin/pools")
	String list(Caller caller, Model model) {
		return render(caller, model, FleetForms.PoolForm.empty(), FleetForms.GpuTypeForm.empty(), new FormErrors());
	}

	@PostMapping("/admin/pools")
	String createPool(Caller caller, Model model, HttpServletResponse response,
			@ModelAttribute("poolForm") FleetForms.PoolForm form, RedirectAttributes redirect) {
		caller.requirePlatformAdmin();
		FormErrors errors = form.validate();
		if (errors.isEmpty()) {
			try {
				Pool pool = inventory.createPool(caller, new Inventory.NewPool(FleetForms.clean(form.name()),
						FleetForms.clean(form.gpuType()), Integer.parseInt(FleetForms.clean(form.gpusPerNode())),
						FleetForms.clean(form.region())));
				redirect.addFlashAttribute("notice", "Created pool " + pool.name() + ". Add its nodes below.");
				return "redirect:/admin/pools/" + pool.name();
			}
			catch (AllotException refused) {
				errors.add(refused, "name");
			}
		}
		response.setStatus(400);
		return render(caller, model, form, FleetForms.GpuTypeForm.empty(), errors);
	}

	@PostMapping("/admin/gpu-types")
	String createGpuType(Caller caller, Model model, HttpServletResponse response,
			@ModelAttribute("gpuTypeForm") FleetForms.GpuTypeForm form, RedirectAttributes redirect) {
		caller.requirePlatformAdmin();
		FormErrors errors = form.validate();
		if (errors.isEmpty()) {
			try {
				String interconnect = FleetForms.clean(form.interconnect());
				GpuType type = inventory.createGpuType(caller, new Inventory.NewGpuType(FleetForms.clean(form.code()),
						Integer.parseInt(FleetForms.clean(form.memoryGb())), interconnect.isEmpty() ? null : interconnect));
				redirect.addFlashAttribute("notice", "Added GPU type " + type.code() + ".");
				return "redirect:/admin/pools";
			}
			catch (AllotException refused) {
				errors.add(refused, "code");
			}
		}
		response.setStatus(400);
		// The two forms share one page: prefix this form's fields so its messages land next to its own inputs.
		FormErrors prefixed = new FormErrors();
		errors.asMap().forEach((field, message) -> prefixed.add("gpuType." + field, message));
		return render(caller, model, FleetForms.PoolForm.empty(), form, prefixed);
	}

	private String render(Caller caller, Model model, FleetForms.PoolForm poolForm,
			FleetForms.GpuTypeForm gpuTypeForm, FormErrors errors) {
		caller.requireReadsEverything();
		List<PoolRow> pools = inventory.pools(ALL).items().stream()
			.map(pool -> new PoolRow(pool, inventory.size(pool)))
			.toList();
		model.addAttribute("section", "admin");
		model.addAttribute("pools", pools);
		model.addAttribute("gpuTypes", inventory.gpuTypes(ALL).items());
		model.addAttribute("canChange", caller.isPlatformAdmin());
		model.addAttribute("poolForm", poolForm);
		model.addAttribute("gpuTypeForm", gpuTypeForm);
		model.addAttribute("errors", errors);
		return "admin/pools";
	}

}
