package dev.allot.booking.ui;

import dev.allot.shared.security.Caller;
import dev.allot.shared.security.ProjectRole;
import dev.allot.shared.security.TenantRole;
import dev.allot.shared.web.CurrentTenant;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpSession;
import java.util.Optional;
import org.springframework.stereotype.Component;

/** Which tenant the booking pages work in, and whether the caller may book, cancel and extend there. */
@Component
class BookingAccess {

    private final Tenancy tenancy;

    BookingAccess(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    Optional<Tenant> current(Caller caller, HttpSession session) {
        return CurrentTenant.of(caller, session).flatMap(tenancy::find);
    }

    /**
     * Members and tenant admins of an active tenant, project members of one of its projects, and platform admins;
     * viewers and auditors only read.
     */
    static boolean canBook(Caller caller, Tenant tenant) {
        boolean member = caller.isPlatformAdmin()
                || caller.roleIn(tenant.slug())
                        .filter(role -> role.includes(TenantRole.MEMBER))
                        .isPresent()
                || caller.projectRolesIn(tenant.slug()).values().stream()
                        .anyMatch(role -> role.includes(ProjectRole.PROJECT_MEMBER));
        return member && tenant.isActive();
    }
}
