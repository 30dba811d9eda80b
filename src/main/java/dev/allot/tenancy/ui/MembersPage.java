package dev.allot.tenancy.ui;

import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Member;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** A tenant's members: everyone in the tenant sees them; tenant admins add, change roles and remove. */
@UiController
class MembersPage {

    private static final int PAGE_SIZE = 100;

    private final Tenancy tenancy;

    MembersPage(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    @GetMapping("/tenants/{tenant}/members")
    String list(Caller caller, Model model, @PathVariable String tenant, @RequestParam(defaultValue = "0") int page) {
        return render(caller, model, tenant, Math.max(page, 0), Forms.MemberForm.empty(), new FormErrors());
    }

    @PostMapping("/tenants/{tenant}/members")
    String add(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @ModelAttribute Forms.MemberForm form,
            RedirectAttributes redirect) {
        tenancy.readable(caller, tenant);
        FormErrors errors = form.validate();
        TenantRole role = Forms.parseRole(form.role(), "role", new FormErrors());
        if (errors.isEmpty() && role != null) {
            try {
                Tenancy.Joining joining = tenancy.addMember(caller, tenant, form.cleanUsername(), role);
                Member member = joining.member();
                redirect.addFlashAttribute(
                        "notice",
                        member != null
                                ? "Added " + member.username() + " as " + label(role) + "."
                                : "Invited " + form.cleanUsername() + " as " + label(role)
                                        + ": they join when they accept, " + "on their Invitations page.");
                return "redirect:/tenants/" + tenant + "/members";
            } catch (AllotException refused) {
                errors.add(refused, "username");
            }
        }
        response.setStatus(400);
        return render(caller, model, tenant, 0, form, errors);
    }

    @PostMapping("/tenants/{tenant}/members/{username}/role")
    String changeRole(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @PathVariable String username,
            @RequestParam(required = false) @Nullable String role,
            RedirectAttributes redirect) {
        tenancy.readable(caller, tenant);
        String field = "role@" + username;
        FormErrors errors = new FormErrors();
        TenantRole newRole = Forms.parseRole(role, field, errors);
        if (newRole != null) {
            try {
                tenancy.changeMemberRole(caller, tenant, username, newRole);
                redirect.addFlashAttribute("notice", username + " is now " + label(newRole) + ".");
                return "redirect:/tenants/" + tenant + "/members";
            } catch (AllotException refused) {
                errors.add(refused, field);
            }
        }
        response.setStatus(400);
        return render(caller, model, tenant, 0, Forms.MemberForm.empty(), errors);
    }

    @PostMapping("/tenants/{tenant}/members/{username}/remove")
    String remove(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @PathVariable String tenant,
            @PathVariable String username,
            RedirectAttributes redirect) {
        tenancy.readable(caller, tenant);
        try {
            tenancy.removeMember(caller, tenant, username);
            redirect.addFlashAttribute("notice", "Removed " + username + " from the tenant.");
            return "redirect:/tenants/" + tenant + "/members";
        } catch (AllotException refused) {
            response.setStatus(400);
            return render(
                    caller,
                    model,
                    tenant,
                    0,
                    Forms.MemberForm.empty(),
                    new FormErrors().add(refused, "role@" + username));
        }
    }

    static String label(TenantRole role) {
        return switch (role) {
            case TENANT_ADMIN -> "tenant admin";
            case MEMBER -> "member";
            case VIEWER -> "viewer";
        };
    }

    private String render(Caller caller, Model model, String slug, int page, Forms.MemberForm form, FormErrors errors) {
        Tenant tenant = tenancy.readable(caller, slug);
        model.addAttribute("section", "team");
        model.addAttribute("tenant", tenant);
        model.addAttribute("members", tenancy.members(caller, slug, new PageQuery(page, PAGE_SIZE)));
        model.addAttribute("roles", TenantRole.values());
        model.addAttribute("canManage", TenantPages.canManage(caller, tenant));
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        return "tenant/members";
    }
}
