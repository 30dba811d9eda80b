package dev.allot.tenancy.ui;

import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.ProjectRole;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.Words;
import dev.allot.tenancy.Project;
import dev.allot.tenancy.ProjectMember;
import dev.allot.tenancy.ProjectMembers;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * A tenant's projects and their members: everyone in the tenant reads them (someone with only project roles, their
 * projects); tenant admins create projects; tenant admins and a project's admins add, change and remove its members.
 */
@UiController
class ProjectsPage {

    private static final int PAGE_SIZE = 50;

    /** A project, its members, and whether the caller manages them. */
    record ProjectRow(Project project, List<ProjectMember> members, boolean manages) {}

    private final Tenancy tenancy;

    private final ProjectMembers projectMembers;

    ProjectsPage(Tenancy tenancy, ProjectMembers projectMembers) {
        this.tenancy = tenancy;
        this.projectMembers = projectMembers;
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
    String create(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @ModelAttribute Forms.SlugAndName form,
            RedirectAttributes redirect) {
        tenancy.readableInProjects(caller, tenant);
        FormErrors errors = form.validate();
        if (errors.isEmpty()) {
            try {
                Project project = tenancy.createProject(
                        caller, tenant, new Tenancy.NewProject(form.cleanSlug(), form.cleanName()));
                redirect.addFlashAttribute("notice", "Created project " + project.displayName() + ".");
                return "redirect:/tenants/" + tenant + "/projects";
            } catch (AllotException refused) {
                errors.add(refused, "slug");
            }
        }
        response.setStatus(400);
        return render(caller, model, tenant, 0, form, errors);
    }

    /** Gives a user a role in the project (the add form of the project's members). */
    @PostMapping("/tenants/{tenant}/projects/{project}/members")
    String addMember(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @PathVariable String project,
            @RequestParam(required = false) @Nullable String username,
            @RequestParam(required = false) @Nullable String role,
            RedirectAttributes redirect) {
        String name = username == null ? "" : username.strip();
        FormErrors errors = new FormErrors();
        if (name.isEmpty()) {
            errors.add("member@" + project, "Enter a username");
        }
        return putMember(caller, model, response, tenant, project, name, role, "member@" + project, errors, redirect);
    }

    @PostMapping("/tenants/{tenant}/projects/{project}/members/{username}/role")
    String changeMember(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @PathVariable String project,
            @PathVariable String username,
            @RequestParam(required = false) @Nullable String role,
            RedirectAttributes redirect) {
        return putMember(
                caller,
                model,
                response,
                tenant,
                project,
                username,
                role,
                "role@" + project + "/" + username,
                new FormErrors(),
                redirect);
    }

    @PostMapping("/tenants/{tenant}/projects/{project}/members/{username}/remove")
    String removeMember(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @PathVariable String project,
            @PathVariable String username,
            RedirectAttributes redirect) {
        try {
            projectMembers.remove(caller, tenant, project, username);
            redirect.addFlashAttribute("notice", "Removed " + username + " from project " + project + ".");
            return "redirect:/tenants/" + tenant + "/projects";
        } catch (AllotException refused) {
            response.setStatus(400);
            return render(
                    caller,
                    model,
                    tenant,
                    0,
                    Forms.SlugAndName.empty(),
                    new FormErrors().add(refused, "role@" + project + "/" + username));
        }
    }

    private String putMember(
            Caller caller,
            Model model,
            HttpServletResponse response,
            String tenant,
            String project,
            String username,
            @Nullable String role,
            String field,
            FormErrors errors,
            RedirectAttributes redirect) {
        tenancy.readableInProjects(caller, tenant);
        ProjectRole chosen = Arrays.stream(ProjectRole.values())
                .filter(known -> known.name().equals(role))
                .findFirst()
                .orElse(null);
        if (chosen == null) {
            errors.add(field, "Choose a role");
        }
        if (errors.isEmpty() && chosen != null) {
            try {
                ProjectMembers.Put put = projectMembers.put(caller, tenant, project, username, chosen);
                String words = Words.word(chosen).toLowerCase(Locale.ROOT);
                redirect.addFlashAttribute(
                        "notice",
                        put.created()
                                ? username + " joined project " + project + " as " + words + "."
                                : username + " is now a " + words + " of project " + project + ".");
                return "redirect:/tenants/" + tenant + "/projects";
            } catch (AllotException refused) {
                if (!refused.code().equals("unknown_user")) {
                    errors.add(refused, field);
                } else {
                    errors.add(field, String.valueOf(refused.getMessage()));
                }
            }
        }
        response.setStatus(400);
        return render(caller, model, tenant, 0, Forms.SlugAndName.empty(), errors);
    }

    private String render(
            Caller caller, Model model, String slug, int page, Forms.SlugAndName form, FormErrors errors) {
        Tenant tenant = tenancy.readableInProjects(caller, slug);
        model.addAttribute("section", "team");
        model.addAttribute("tenant", tenant);
        PageResponse<Project> projects = tenancy.projects(caller, slug, new PageQuery(page, PAGE_SIZE));
        Map<String, List<ProjectMember>> members = projectMembers.ofProjects(
                caller, slug, projects.items().stream().map(Project::slug).toList());
        model.addAttribute("projects", projects);
        model.addAttribute(
                "rows",
                projects.items().stream()
                        .map(project -> new ProjectRow(
                                project,
                                members.getOrDefault(project.slug(), List.of()),
                                tenant.isActive() && caller.managesProject(slug, project.slug())))
                        .toList());
        model.addAttribute("projectRoles", ProjectRole.values());
        model.addAttribute("canManage", TenantPages.canManage(caller, tenant));
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        return "tenant/projects";
    }
}
