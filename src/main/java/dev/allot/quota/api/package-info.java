/** REST adapters of quotas and rate cards. */
@NullMarked
package dev.allot.quota.api;

import org.jspecify.annotations.NullMarked;
