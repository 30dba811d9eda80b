/**
 * Rate limits and sign-in back-off: the {@code /api} call budget counted per replica and shared every few seconds,
 * and the exact, shared throttles of sign-in and token requests (docs/adr/0004-rate-limits.md).
 */
@NullMarked
package dev.allot.identity.throttle;

import org.jspecify.annotations.NullMarked;
