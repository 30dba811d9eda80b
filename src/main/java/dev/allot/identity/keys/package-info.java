/**
 * The keys that sign Allot's tokens: stored sealed in PostgreSQL, rotated and retired by a platform admin, and the
 * sealing key that protects them (refusing a production start without one).
 */
@NullMarked
package dev.allot.identity.keys;

import org.jspecify.annotations.NullMarked;
