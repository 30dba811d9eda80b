/** Pages of the audit trail: the admin's audit log. */
@NullMarked
package dev.allot.audit.ui;

import org.jspecify.annotations.NullMarked;
