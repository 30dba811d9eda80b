package dev.allot.tenancy.api;

import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.Slugs;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Project;
import dev.allot.tenancy.Tenancy;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/tenants/{tenant}/projects")
class ProjectsController {

    record CreateProject(
            @NotBlank @Pattern(regexp = Slugs.PATTERN, message = Slugs.MESSAGE)
            String slug,

            @NotBlank @Size(max = 200) String displayName) {}

    record ProjectBody(String slug, String displayName, Instant createdAt) {
        static ProjectBody of(Project project) {
            return new ProjectBody(project.slug(), project.displayName(), project.createdAt());
        }
    }

    private final Tenancy tenancy;

    ProjectsController(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    @ResponseStatus(HttpStatus.CREATED)
    @PostMapping
    ResponseEntity<ProjectBody> create(
            Caller caller, @PathVariable String tenant, @Valid @RequestBody CreateProject body) {
        Project project = tenancy.createProject(
                caller,
                tenant,
                new Tenancy.NewProject(body.slug(), body.displayName().strip()));
        return ResponseEntity.created(URI.create("/api/v1/tenants/" + tenant + "/projects/" + project.slug()))
                .body(ProjectBody.of(project));
    }

    @GetMapping("/{project}")
    ProjectBody get(Caller caller, @PathVariable String tenant, @PathVariable String project) {
        return ProjectBody.of(tenancy.project(caller, tenant, project));
    }

    @GetMapping
    PageResponse<ProjectBody> list(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return tenancy.projects(caller, tenant, PageQuery.of(page, size)).map(ProjectBody::of);
    }
}
