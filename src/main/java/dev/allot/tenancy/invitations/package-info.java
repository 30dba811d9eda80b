/** Invitations to join a tenant and their answers. Internal to tenancy: only its own API and pages name them. */
@NullMarked
package dev.allot.tenancy.invitations;

import org.jspecify.annotations.NullMarked;
