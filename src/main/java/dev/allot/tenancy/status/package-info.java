/** Whether a tenant is active or suspended. Internal to tenancy: only its own API and pages name it. */
@NullMarked
package dev.allot.tenancy.status;

import org.jspecify.annotations.NullMarked;
