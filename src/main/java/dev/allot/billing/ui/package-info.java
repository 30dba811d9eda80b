/** Pages of billing: a tenant's usage and cost, statements and budget alerts. */
@NullMarked
package dev.allot.billing.ui;

import org.jspecify.annotations.NullMarked;
