/**
 * Who is calling: users and their login, the embedded OAuth2 authorization server (or an external issuer),
 * service accounts (OAuth2 clients) for CI, the signing keys, and the security configuration that turns a
 * token or a session into a {@link dev.allot.shared.security.Caller}. Reads memberships from tenancy.
 */
@ApplicationModule(displayName = "Identity", allowedDependencies = { "shared", "tenancy", "audit" })
@NullMarked
package dev.allot.identity;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
