package dev.allot.tenancy.ui;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the layout shows around every signed-in page.
 *
 * @param userName the signed-in user's display name
 * @param admin whether the Admin section is shown (platform admins and auditors)
 * @param tenants the tenants the switcher offers, the current one included
 * @param current the tenant the user works in, if any
 * @param path the path of this page, so that switching tenant can come back to the same page
 * @param invitations how many invitations to join a tenant wait for the user's answer (the header links to them)
 * @param projectsOnly whether the user has only project roles in the current tenant: its team-wide tabs (members,
 *        service accounts) are left out of the team's navigation
 */
record Shell(
        String userName,
        boolean admin,
        List<TenantChoice> tenants,
        @Nullable TenantChoice current,
        String path,
        int invitations,
        boolean projectsOnly) {

    record TenantChoice(String slug, String displayName) {}

    public boolean switcher() {
        return tenants.size() > 1;
    }
}
