/**
 * Admin pages of the fleet: GPU types, pools, and a pool's nodes (added one by one or by hostname range,
 * quarantined and released with a reason). Platform admins change them; auditors read them.
 */
@NullMarked
package dev.allot.inventory.ui;

import org.jspecify.annotations.NullMarked;
