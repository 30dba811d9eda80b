package dev.allot.booking.ui;

import dev.allot.booking.Bookings;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.approval.Approvals;
import dev.allot.shared.AllotException;
import dev.allot.shared.ListQuery;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Tenancy;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The team's bookings waiting for approval ({@link Approvals}): every member sees them; a tenant admin other than
 * who booked one, or a platform admin, approves or denies it (with a reason) here.
 */
@UiController
class ApprovalsPage {

    private final Bookings bookings;

    private final Approvals approvals;

    private final Tenancy tenancy;

    ApprovalsPage(Bookings bookings, Approvals approvals, Tenancy tenancy) {
        this.bookings = bookings;
        this.approvals = approvals;
        this.tenancy = tenancy;
    }

    @GetMapping("/tenants/{tenant}/approvals")
    String list(Caller caller, Model model, @PathVariable String tenant) {
        model.addAttribute("section", "reservations");
        model.addAttribute("tenant", tenancy.readableInProjects(caller, tenant));
        List<Reservation> pending = bookings.list(
                        caller,
                        tenant,
                        ReservationStatus.PENDING_APPROVAL,
                        null,
                        null,
                        null,
                        List.of(),
                        new ListQuery(new PageQuery(0, PageQuery.MAX_SIZE), null))
                .items();
        model.addAttribute("pending", pending);
        // tenant admins decide every one; a project admin those of its projects (never their own: Approvals says so)
        Set<String> decidable = pending.stream()
                .map(Reservation::project)
                .filter(project -> caller.managesProject(tenant, project))
                .collect(Collectors.toSet());
        model.addAttribute("decidable", decidable);
        model.addAttribute("decides", !decidable.isEmpty());
        return "booking/approvals";
    }

    @PostMapping("/tenants/{tenant}/approvals/{id}/approve")
    String approve(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @RequestParam(required = false) @Nullable String reason,
            RedirectAttributes redirect) {
        try {
            Reservation approved = approvals.approve(caller, tenant, id, blankToNull(reason));
            redirect.addFlashAttribute(
                    "notice",
                    "Approved the booking of " + approved.gpus() + " GPUs of " + approved.pool()
                            + "; it is provisioned from now on.");
        } catch (AllotException refused) {
            redirect.addFlashAttribute("notice", refused.getMessage());
        }
        return "redirect:/tenants/" + tenant + "/approvals";
    }

    @PostMapping("/tenants/{tenant}/approvals/{id}/deny")
    String deny(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @RequestParam(required = false) @Nullable String reason,
            RedirectAttributes redirect) {
        String given = blankToNull(reason);
        if (given == null || given.length() > 1000) {
            redirect.addFlashAttribute("notice", "Say why you deny it (at most 1000 characters): the team sees it.");
            return "redirect:/tenants/" + tenant + "/approvals";
        }
        try {
            Reservation denied = approvals.deny(caller, tenant, id, given);
            redirect.addFlashAttribute(
                    "notice",
                    "Denied the booking of " + denied.gpus() + " GPUs of " + denied.pool()
                            + "; its nodes are free again.");
        } catch (AllotException refused) {
            redirect.addFlashAttribute("notice", refused.getMessage());
        }
        return "redirect:/tenants/" + tenant + "/approvals";
    }

    private static @Nullable String blankToNull(@Nullable String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
