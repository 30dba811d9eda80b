package dev.allot.tenancy.api;

import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.ProjectRole;
import dev.allot.tenancy.ProjectMember;
import dev.allot.tenancy.ProjectMembers;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** A project's members and their project roles (issue 31). */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/projects/{project}/members")
class ProjectMembersController {

    record ProjectRoleBody(@NotNull ProjectRole role) {}

    private final ProjectMembers members;

    ProjectMembersController(ProjectMembers members) {
        this.members = members;
    }

    /** 201 with the member when the user had no role in the project; 200 when their role is changed (or kept). */
    @PutMapping("/{username}")
    @ApiResponse(
            responseCode = "201",
            description = "The user now holds the role in the project",
            content = @Content(schema = @Schema(implementation = ProjectMember.class)))
    @ApiResponse(
            responseCode = "200",
            description = "The user's role in the project is changed",
            content = @Content(schema = @Schema(implementation = ProjectMember.class)))
    ResponseEntity<ProjectMember> put(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable String project,
            @PathVariable String username,
            @Valid @RequestBody ProjectRoleBody body) {
        ProjectMembers.Put put = members.put(caller, tenant, project, username, body.role());
        if (put.created()) {
            return ResponseEntity.created(
                            URI.create("/api/v1/tenants/" + tenant + "/projects/" + project + "/members/" + username))
                    .body(put.member());
        }
        return ResponseEntity.ok(put.member());
    }

    @GetMapping
    PageResponse<ProjectMember> list(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable String project,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return members.list(caller, tenant, project, PageQuery.of(page, size));
    }

    @DeleteMapping("/{username}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    ResponseEntity<Void> remove(
            Caller caller, @PathVariable String tenant, @PathVariable String project, @PathVariable String username) {
        members.remove(caller, tenant, project, username);
        return ResponseEntity.noContent().build();
    }
}
