/**
 * The parts of quota policies only quota itself names: the time windows of a tenant's policy and a project's own
 * caps within it. Internal to quota (the policy itself, {@link dev.allot.quota.QuotaPolicy}, is in the root).
 */
@NullMarked
package dev.allot.quota.policies;

import org.jspecify.annotations.NullMarked;
