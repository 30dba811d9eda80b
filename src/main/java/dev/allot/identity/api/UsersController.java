package dev.allot.identity.api;

import dev.allot.identity.UserDirectory;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.util.Set;
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

/** Users of Allot's own issuer, managed by platform admins (with an external issuer, the issuer owns them). */
@RestController
@RequestMapping("/api/v1/users")
class UsersController {

    record CreateUser(
            @NotBlank
            @Pattern(
                    regexp = "^[a-z][a-z0-9._-]{1,39}$",
                    message = "must be 2-40 lower-case letters, digits, dots, hyphens or underscores")
            String username,

            @NotBlank @Size(max = 200) String displayName,
            @Nullable @Size(min = 12, max = 200) String password,
            @Nullable Set<PlatformRole> platformRoles) {}

    record CreatedUser(
            String username,
            String displayName,
            Set<PlatformRole> platformRoles,
            @Nullable String password) {}

    private final UserDirectory users;

    UsersController(UserDirectory users) {
        this.users = users;
    }

    @ResponseStatus(HttpStatus.CREATED)
    @PostMapping
    ResponseEntity<CreatedUser> create(Caller caller, @Valid @RequestBody CreateUser body) {
        UserDirectory.Created created = users.create(
                caller,
                body.username(),
                body.displayName().strip(),
                body.password(),
                body.platformRoles() == null ? Set.of() : body.platformRoles());
        var user = created.user();
        return ResponseEntity.created(URI.create("/api/v1/users/" + user.username()))
                .header("Cache-Control", "no-store")
                .body(new CreatedUser(
                        user.username(), user.displayName(), user.platformRoles(), created.generatedPassword()));
    }

    @GetMapping("/{username}")
    UserDirectory.UserSummary get(Caller caller, @PathVariable String username) {
        return users.get(caller, username);
    }

    @GetMapping
    PageResponse<UserDirectory.UserSummary> list(
            Caller caller,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return users.list(caller, PageQuery.of(page, size));
    }
}
