package dev.allot.tenancy.ui;

import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenant;

/** What every page of one tenant needs to know: the tenant, and whether the caller may change it. */
final class TenantPages {

    private TenantPages() {}

    /** Tenant admins and platform admins manage an active tenant; a suspended one is read-only for all. */
    static boolean canManage(Caller caller, Tenant tenant) {
        boolean admin = caller.isPlatformAdmin()
                || caller.roleIn(tenant.slug())
                        .filter(role -> role.includes(TenantRole.TENANT_ADMIN))
                        .isPresent();
        return admin && tenant.isActive();
    }
}
