/**
 * Pages of tenancy: the page shell every signed-in page gets (user, navigation, tenant switcher), the admin's
 * tenant list, and a tenant's projects and members.
 */
@NullMarked
package dev.allot.tenancy.ui;

import org.jspecify.annotations.NullMarked;
