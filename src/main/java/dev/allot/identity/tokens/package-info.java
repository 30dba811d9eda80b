/**
 * The tokens Allot issues: its issuer URL, authorizations stored with every token hashed, revoked access tokens,
 * the lifetime cap checked on every token, and the hourly purge of expired authorizations.
 */
@NullMarked
package dev.allot.identity.tokens;

import org.jspecify.annotations.NullMarked;
