/**
 * The append-only audit trail: who changed what, in which tenant, on which object, when, from which request,
 * with the state before and after. Rows are written in the transaction of the change they record, and
 * PostgreSQL refuses to update or delete them.
 */
@ApplicationModule(displayName = "Audit")
@NullMarked
package dev.allot.audit;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
