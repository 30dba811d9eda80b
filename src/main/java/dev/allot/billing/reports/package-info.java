/** Read-only reports: a tenant's usage, GPU utilisation, and the platform-wide report. */
@NullMarked
package dev.allot.billing.reports;

import org.jspecify.annotations.NullMarked;
