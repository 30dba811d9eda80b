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
 */
record Shell(String userName, boolean admin, List<TenantChoice> tenants, @Nullable TenantChoice current, String path,
		int invitations) {

	record TenantChoice(String slug, String displayName) {
	}

	public boolean switcher() {
		return tenants.size() > 1;
	}

}
