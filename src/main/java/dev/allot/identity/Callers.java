package dev.allot.identity;

import dev.allot.identity.accounts.ServiceAccounts;
import dev.allot.identity.accounts.UserAccount;
import dev.allot.identity.accounts.UserRepository;
import dev.allot.identity.settings.SecurityProperties;
import dev.allot.identity.signin.ExternalIdentities;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import dev.allot.tenancy.ProjectMembers;
import dev.allot.tenancy.Tenancy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.stereotype.Component;

/**
 * Turns a token subject or a signed-in user into a {@link Caller}, reading platform roles and memberships as
 * they are now: a revoked service account, a disabled user or a removed membership takes effect at once.
 */
@Component
class Callers {

    private final UserRepository users;

    private final ServiceAccounts serviceAccounts;

    private final Tenancy tenancy;

    private final SecurityProperties properties;

    private final ExternalIdentities externalIdentities;

    private final ProjectMembers projectMembers;

    Callers(
            UserRepository users,
            ServiceAccounts serviceAccounts,
            Tenancy tenancy,
            SecurityProperties properties,
            ExternalIdentities externalIdentities,
            ProjectMembers projectMembers) {
        this.projectMembers = projectMembers;
        this.users = users;
        this.serviceAccounts = serviceAccounts;
        this.tenancy = tenancy;
        this.properties = properties;
        this.externalIdentities = externalIdentities;
    }

    /** The caller behind a bearer token of Allot's issuer; refuses tokens whose subject may no longer act. */
    Caller forToken(Jwt jwt) {
        String subject = jwt.getSubject();
        if (subject == null) {
            throw new InvalidBearerTokenException("The token names no subject");
        }
        Caller caller = forClient(subject);
        if (caller == null) {
            caller = forLocalUser(subject);
        }
        if (caller == null) {
            throw new InvalidBearerTokenException("The token's subject is revoked, expired or unknown");
        }
        return caller;
    }

    /** A service account or the bootstrap client; null when the client id names neither. */
    @Nullable
    Caller forClient(String clientId) {
        if (properties.hasBootstrapClient() && clientId.equals(properties.bootstrapClientId())) {
            return new Caller(
                    clientId,
                    "Bootstrap client",
                    Caller.Kind.SERVICE_ACCOUNT,
                    EnumSet.of(PlatformRole.PLATFORM_ADMIN),
                    Map.of());
        }
        return serviceAccounts
                .usable(clientId)
                .map(account -> {
                    String project = account.project();
                    if (project == null) {
                        return new Caller(
                                clientId,
                                account.name(),
                                Caller.Kind.SERVICE_ACCOUNT,
                                Set.of(),
                                Map.of(account.tenant(), account.role()));
                    }
                    // scoped to one project: it acts there as a project member (or viewer) would, and sees nothing else
                    return new Caller(
                            clientId,
                            account.name(),
                            Caller.Kind.SERVICE_ACCOUNT,
                            Set.of(),
                            Map.of(),
                            Map.of(account.tenant(), Map.of(project, account.projectRole())));
                })
                .orElse(null);
    }

    /** A user of Allot's own issuer; null when unknown or disabled. */
    @Nullable
    Caller forLocalUser(String username) {
        return users.find(username)
                .filter(UserAccount::enabled)
                .map(user -> new Caller(
                        user.username(),
                        user.displayName(),
                        Caller.Kind.USER,
                        user.platformRoles(),
                        tenancy.membershipsOf(user.username()),
                        projectMembers.rolesOf(user.username())))
                .orElse(null);
    }

    /** The caller of a browser session or a bearer token. */
    @Nullable
    Caller forAuthentication(@Nullable Authentication authentication) {
        if (authentication == null || !authentication.isAuthenticated()) {
            return null;
        }
        Object principal = authentication.getPrincipal();
        if (principal instanceof Caller caller) {
            return caller;
        }
        if (principal instanceof OidcUser oidc && properties.issuerUri() != null) {
            return forExternalUser(oidc);
        }
        return forLocalUser(authentication.getName());
    }

    /** A user of the external issuer, known by its subject there; null when that cannot be linked. */
    private @Nullable Caller forExternalUser(OidcUser user) {
        String username;
        try {
            username = externalUsername(user);
        } catch (ExternalIdentities.IdentityConflictException ex) {
            return null;
        }
        Set<PlatformRole> roles = EnumSet.noneOf(PlatformRole.class);
        Object claimed = user.getClaims().get(properties.rolesClaim());
        Collection<?> names = claimed instanceof Collection<?> list
                ? list
                : claimed instanceof String single ? List.of(single.split("[ ,]+")) : List.of();
        for (Object name : names) {
            for (PlatformRole role : PlatformRole.values()) {
                if (role.name().equalsIgnoreCase(String.valueOf(name))) {
                    roles.add(role);
                }
            }
        }
        String displayName = user.getFullName() != null ? user.getFullName() : username;
        return new Caller(
                username,
                displayName,
                Caller.Kind.USER,
                roles,
                tenancy.membershipsOf(username),
                projectMembers.rolesOf(username));
    }

    /** The username pinned to the user's issuer and subject (linked on the first sign-in). */
    String externalUsername(OidcUser user) {
        return externalIdentities.username(
                String.valueOf(user.getIssuer()), user.getSubject(), user.getClaimAsString(properties.usernameClaim()));
    }

    /** The claims Allot adds to the tokens it issues, for clients that want to know without asking /me. */
    static Map<String, Object> claimsOf(Caller caller) {
        // Plain ArrayList and HashMap: the authorization service stores these claims as JSON and reads them back
        // (introspection, revocation) only as types its Jackson allow-list knows; List.of is not one of them.
        return Map.of(
                "roles",
                caller.platformRoles().stream()
                        .map(Enum::name)
                        .sorted()
                        .collect(Collectors.toCollection(ArrayList::new)),
                "tenants",
                caller.tenants().entrySet().stream()
                        .collect(Collectors.toMap(
                                Map.Entry::getKey, entry -> entry.getValue().name())),
                "name",
                caller.displayName());
    }
}
