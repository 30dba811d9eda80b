package dev.allot.tenancy.api;

import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Member;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.invitations.Invitation;
import java.util.List;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The signed-in user's invitations to join tenants, and their answers ({@link Tenancy#accept}). */
@RestController
@RequestMapping("/api/v1/invitations")
class InvitationsController {

    private final Tenancy tenancy;

    InvitationsController(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    /** At most the 100 newest: one page. */
    @GetMapping
    PageResponse<Invitation> list(Caller caller) {
        List<Invitation> invitations = tenancy.invitations(caller);
        return PageResponse.of(invitations, PageQuery.of(0, 100), invitations.size());
    }

    @PostMapping("/{id}/accept")
    Member accept(Caller caller, @PathVariable UUID id) {
        return tenancy.accept(caller, id);
    }

    @PostMapping("/{id}/decline")
    Invitation decline(Caller caller, @PathVariable UUID id) {
        return tenancy.decline(caller, id);
    }
}
