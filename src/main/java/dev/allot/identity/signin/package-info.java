/**
 * The browser's sign-in: the UI's OIDC client (of Allot's own issuer or an external one) and the clients registered
 * at start, external identities pinned to usernames, sessions that keep no token, a session's lifetime, how an ended
 * session and a failed sign-in are answered, and the loopback redirect of the quick start.
 */
@NullMarked
package dev.allot.identity.signin;

import org.jspecify.annotations.NullMarked;
