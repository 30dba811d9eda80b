/**
 * Change notifications across replicas: one LISTEN connection per use ({@link dev.allot.shared.changes.PgListen}),
 * and per-replica caches of rarely changing rows dropped when their tables change
 * ({@link dev.allot.shared.changes.TableChanges}).
 */
@NullMarked
package dev.allot.shared.changes;

import org.jspecify.annotations.NullMarked;
