package dev.allot.tenancy.ui;

import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Project;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** A tenant's projects: everyone in the tenant reads them, tenant admins create them. */
@UiController
class ProjectsPage {

	private static final int PAGE_SIZE = 50;

	private final Tenancy tenancy;

	ProjectsPage(Tenancy tenancy) {
		this.tenancy = tenancy;
	}

	@GetMapping("/tenants/{tenant}")
	String tenantHome(@PathVariable String tenant) {
		return "redirect:/tenants/" + tenant + "/projects";
	}

	@GetMapping("/tenants/{tenant}/projects")
	String list(Caller caller, Model model, @PathVariable String tenant, @RequestParam(defaultValue = "0") int page) {
		return render(caller, model, tenant, Math.max(page, 0), Forms.SlugAndName.empty(), new FormErrors());
	}

	@PostMapping("/tenants/{tenant}/projects")
	String create(Caller caller, Model model, HttpServletResponse response, @PathVariable String tenant,
			@ModelAttribute Forms.SlugAndName form, RedirectAttributes redirect) {
		tenancy.readable(caller, tenant);
		FormErrors errors = form.validate();
		if (errors.isEmpty()) {
			try {
				Project project = tenancy.createProject(caller, tenant,
						new Tenancy.NewProject(form.cleanSlug(), form.cleanName()));
				redirect.addFlashAttribute("notice", "Created project " + project.displayName() + ".");
				return "redirect:/tenants/" + tenant + "/projects";
			}
			catch (AllotException refused) {
				errors.add(refused, "slug");
			}
		}
		response.setStatus(400);
		return render(caller, model, tenant, 0, form, errors);
	}

	private String render(Caller caller, Model model, String slug, int page, Forms.SlugAndName form,
			FormErrors errors) {
		Tenant tenant = tenancy.readable(caller, slug);
		model.addAttribute("section", "team");
		model.addAttribute("tenant", tenant);
		model.addAttribute("projects", tenancy.projects(caller, slug, new PageQuery(page, PAGE_SIZE)));
		model.addAttribute("canManage", TenantPages.canManage(caller, tenant));
		model.addAttribute("form", form);
		model.addAttribute("errors", errors);
		return "tenant/projects";
	}

}
