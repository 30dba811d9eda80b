/**
 * Who can sign in or call: users of Allot's own issuer with their password hashes, the one form of a typed username,
 * service accounts (OAuth2 clients for CI), and the directory tenancy asks whether a username is known.
 */
@NullMarked
package dev.allot.identity.accounts;

import org.jspecify.annotations.NullMarked;
