/** REST adapter of the audit trail. */
@NullMarked
package dev.allot.audit.api;

import org.jspecify.annotations.NullMarked;
