/**
 * Who is calling: users and their login, the embedded OAuth2 authorization server (or an external issuer),
 * service accounts (OAuth2 clients) for CI, the signing keys, and the security configuration that turns a
 * token or a session into a {@link dev.allot.shared.security.Caller}. Reads memberships from tenancy.
 * <p>
 * The root holds the security filter chains, the authorization server's configuration, the turning of a token or a
 * session into a caller, and {@link dev.allot.identity.UserDirectory}, the one type another module uses (the demo
 * data creates users with it). Inside, by concept: {@code settings} ({@code allot.security}), {@code keys} (the
 * signing keys and their sealing), {@code tokens} (the issuer, stored authorizations, revoked tokens),
 * {@code signin} (the browser's sign-in and its session), {@code accounts} (users and service accounts) and
 * {@code throttle} (rate limits and sign-in back-off); {@code api} and {@code ui} are its web adapters.
 */
@ApplicationModule(
        displayName = "Identity",
        allowedDependencies = {"shared", "tenancy", "audit"})
@NullMarked
package dev.allot.identity;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
