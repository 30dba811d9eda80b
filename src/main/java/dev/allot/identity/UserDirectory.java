package dev.allot.identity;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.identity.accounts.ServiceAccounts;
import dev.allot.identity.accounts.UserAccount;
import dev.allot.identity.accounts.UserRepository;
import dev.allot.shared.AllotException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Creates users of Allot's own issuer. */
@Service
public class UserDirectory {

    public record UserSummary(String username, String displayName, Set<PlatformRole> platformRoles) {}

    private final UserRepository users;

    private final PasswordEncoder passwords;

    private final AuditLog audit;

    UserDirectory(UserRepository users, PasswordEncoder passwords, AuditLog audit) {
        this.users = users;
        this.passwords = passwords;
        this.audit = audit;
    }

    /** Creates the user unless the username is taken; answers whether it did. */
    @Transactional
    public boolean create(String username, String displayName, String rawPassword, Set<PlatformRole> roles) {
        boolean created = users.insert(new UserAccount(
                UUID.randomUUID(),
                username,
                displayName,
                Objects.requireNonNull(passwords.encode(rawPassword), "a password has a hash"),
                roles,
                true));
        if (created) {
            audit.record(AuditRecord.created(null, "user", username, new UserSummary(username, displayName, roles)));
        }
        return created;
    }

    @Transactional(readOnly = true)
    public boolean exists(String username) {
        return users.find(username).isPresent();
    }

    /** A platform admin adds a user; the password is generated and answered once when none is given. */
    @Transactional
    public Created create(
            Caller caller, String username, String displayName, @Nullable String password, Set<PlatformRole> roles) {
        caller.requirePlatformAdmin();
        String secret = password != null ? password : ServiceAccounts.randomToken(12);
        if (!create(username, displayName, secret, roles)) {
            throw AllotException.conflict("user_exists", "A user named " + username + " exists");
        }
        return new Created(new UserSummary(username, displayName, roles), password == null ? secret : null);
    }

    public record Created(UserSummary user, @Nullable String generatedPassword) {}

    @Transactional(readOnly = true)
    public UserSummary get(Caller caller, String username) {
        caller.requireReadsEverything();
        return users.find(username)
                .map(user -> new UserSummary(user.username(), user.displayName(), user.platformRoles()))
                .orElseThrow(() -> AllotException.notFound("User " + username));
    }

    @Transactional(readOnly = true)
    public PageResponse<UserSummary> list(Caller caller, PageQuery page) {
        caller.requireReadsEverything();
        return PageResponse.of(
                users.page(page).stream()
                        .map(user -> new UserSummary(user.username(), user.displayName(), user.platformRoles()))
                        .toList(),
                page,
                users.count());
    }
}
