package dev.allot.tenancy.ui;

import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Member;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.invitations.Invitation;
import java.util.Locale;
import java.util.UUID;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** The signed-in user's invitations to join tenants: accept or decline each (the header links here while any wait). */
@UiController
class InvitationsPage {

    private final Tenancy tenancy;

    InvitationsPage(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    @GetMapping("/invitations")
    String list(Caller caller, Model model) {
        model.addAttribute("section", "invitations");
        model.addAttribute("invitations", tenancy.invitations(caller));
        return "tenant/invitations";
    }

    /** Accepting opens the team's pages: the user is a member from now on. */
    @PostMapping("/invitations/{id}/accept")
    String accept(Caller caller, @PathVariable UUID id, RedirectAttributes redirect) {
        String tenant = tenancy.invitations(caller).stream()
                .filter(i -> i.id().equals(id))
                .map(Invitation::tenant)
                .findFirst()
                .orElse(null);
        try {
            Member member = tenancy.accept(caller, id);
            redirect.addFlashAttribute(
                    "notice",
                    "You joined " + tenant + " as "
                            + member.role().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ".");
            return "redirect:/tenants/" + tenant + "/projects";
        } catch (AllotException refused) {
            redirect.addFlashAttribute("notice", refused.getMessage());
            return "redirect:/invitations";
        }
    }

    @PostMapping("/invitations/{id}/decline")
    String decline(Caller caller, @PathVariable UUID id, RedirectAttributes redirect) {
        try {
            Invitation declined = tenancy.decline(caller, id);
            redirect.addFlashAttribute("notice", "Declined the invitation to " + declined.tenant() + ".");
        } catch (AllotException refused) {
            redirect.addFlashAttribute("notice", refused.getMessage());
        }
        return "redirect:/invitations";
    }
}
