package dev.allot.tenancy.api;

import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Member;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.invitations.Invitation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/tenants/{tenant}/members")
class MembersController {

    static final String USERNAME = "^[A-Za-z0-9][A-Za-z0-9._@-]{0,199}$";

    record AddMember(
            @NotBlank @Pattern(regexp = USERNAME, message = "is not a valid username")
            String username,

            @NotNull TenantRole role) {}

    record ChangeRole(@NotNull TenantRole role) {}

    private final Tenancy tenancy;

    MembersController(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    /** 201 with the member when a platform admin adds; 202 with the invitation when a tenant admin invites. */
    @PostMapping
    @ApiResponse(
            responseCode = "201",
            description = "Added (a platform admin)",
            content = @Content(schema = @Schema(implementation = Member.class)))
    @ApiResponse(
            responseCode = "202",
            description = "Invited (a tenant admin): a member once they accept",
            content = @Content(schema = @Schema(implementation = Invitation.class)))
    ResponseEntity<?> add(Caller caller, @PathVariable String tenant, @Valid @RequestBody AddMember body) {
        Tenancy.Joining joining = tenancy.addMember(caller, tenant, body.username(), body.role());
        Member member = joining.member();
        if (member == null) {
            return ResponseEntity.accepted().body(joining.invitation());
        }
        return ResponseEntity.created(URI.create("/api/v1/tenants/" + tenant + "/members/" + member.username()))
                .body(member);
    }

    @GetMapping
    PageResponse<Member> list(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return tenancy.members(caller, tenant, PageQuery.of(page, size));
    }

    @GetMapping("/{username}")
    Member get(Caller caller, @PathVariable String tenant, @PathVariable String username) {
        return tenancy.member(caller, tenant, username);
    }

    @PutMapping("/{username}")
    Member changeRole(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable String username,
            @Valid @RequestBody ChangeRole body) {
        return tenancy.changeMemberRole(caller, tenant, username, body.role());
    }

    @DeleteMapping("/{username}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    ResponseEntity<Void> remove(Caller caller, @PathVariable String tenant, @PathVariable String username) {
        tenancy.removeMember(caller, tenant, username);
        return ResponseEntity.noContent().build();
    }
}
