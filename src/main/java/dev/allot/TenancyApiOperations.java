package dev.allot;

import static dev.allot.ApiOperations.op;

import java.util.LinkedHashMap;
import java.util.Map;

/** The names of the operations on the caller itself, tenants, their projects and members, invitations, service accounts and local users (a part of {@link ApiOperations}). */
final class TenancyApiOperations {

    static final Map<String, ApiOperations.Named> NAMED = new LinkedHashMap<>();

    private TenancyApiOperations() {}

    static {
        op(
                NAMED,
                "GET",
                "/me",
                "getMe",
                "me",
                "Who am I",
                "The caller behind the token or session: its kind, platform roles and tenant memberships.");

        op(
                NAMED,
                "GET",
                "/tenants",
                "listTenants",
                "tenants",
                "List tenants",
                "Every tenant (platform admins and auditors), a page at a time.");
        op(
                NAMED,
                "POST",
                "/tenants",
                "createTenant",
                "tenants",
                "Create a tenant",
                "A new team sharing the fleet; it can book once a platform admin gives it a quota.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}",
                "getTenant",
                "tenants",
                "Get a tenant",
                "The tenant with its status; the ETag header carries its version.");
        op(
                NAMED,
                "PATCH",
                "/tenants/{tenant}",
                "updateTenant",
                "tenants",
                "Rename, suspend or reactivate a tenant",
                "Changes the display name or the status; with If-Match, only if the tenant is still at that version.");

        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/projects",
                "listProjects",
                "projects",
                "List a tenant's projects",
                "The projects bookings and budgets are charged to.");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/projects",
                "createProject",
                "projects",
                "Create a project",
                "A project of the tenant (tenant admin).");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/projects/{project}",
                "getProject",
                "projects",
                "Get a project",
                "One project of the tenant.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/projects/{project}/members",
                "listProjectMembers",
                "projects",
                "List a project's members",
                "Users and their role in the project (PROJECT_ADMIN, PROJECT_MEMBER or "
                        + "PROJECT_VIEWER); readable by whoever sees the project.");
        op(
                NAMED,
                "PUT",
                "/tenants/{tenant}/projects/{project}/members/{username}",
                "putProjectMember",
                "projects",
                "Give a user a role in a project",
                "A tenant admin or a PROJECT_ADMIN of the project: 201 when the "
                        + "user had no role in it, 200 when it is changed. A user with only project roles in a tenant "
                        + "sees and books only in those projects; an unknown user is 404 unknown_user.");
        op(
                NAMED,
                "DELETE",
                "/tenants/{tenant}/projects/{project}/members/{username}",
                "removeProjectMember",
                "projects",
                "Remove a user from a project",
                "A tenant admin or a PROJECT_ADMIN of the project; takes effect on " + "the user's next request.");

        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/members",
                "listMembers",
                "members",
                "List a tenant's members",
                "Users and their tenant role.");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/members",
                "addMember",
                "members",
                "Add a member",
                "A platform admin adds the user at once (201, the member). A tenant admin invites them (202, the "
                        + "invitation): they become a member only when they accept it (POST /invitations/{id}/accept).");
        op(
                NAMED,
                "GET",
                "/invitations",
                "listInvitations",
                "members",
                "List my invitations",
                "The signed-in user's invitations to join tenants that wait for an answer (expired ones say so).");
        op(
                NAMED,
                "POST",
                "/invitations/{id}/accept",
                "acceptInvitation",
                "members",
                "Accept an invitation",
                "Only the invited user, once, before it expires: makes them a member with the invited role.");
        op(
                NAMED,
                "POST",
                "/invitations/{id}/decline",
                "declineInvitation",
                "members",
                "Decline an invitation",
                "Only the invited user, once: nothing else changes.");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/members/{username}",
                "getMember",
                "members",
                "Get a member",
                "One member and its role.");
        op(
                NAMED,
                "PUT",
                "/tenants/{tenant}/members/{username}",
                "changeMemberRole",
                "members",
                "Change a member's role",
                "Takes effect on the member's next request.");
        op(
                NAMED,
                "DELETE",
                "/tenants/{tenant}/members/{username}",
                "removeMember",
                "members",
                "Remove a member",
                "Takes effect on the member's next request.");

        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/service-accounts",
                "listServiceAccounts",
                "service-accounts",
                "List service accounts",
                "The tenant's OAuth2 clients for CI, without their secrets.");
        op(
                NAMED,
                "POST",
                "/tenants/{tenant}/service-accounts",
                "createServiceAccount",
                "service-accounts",
                "Create a service account",
                "An OAuth2 client for CI; the answer carries its secret, the only time it is shown. With a "
                        + "\"project\" it is scoped to that project: its tokens see and book only there (role MEMBER) "
                        + "or only read there (role VIEWER).");
        op(
                NAMED,
                "GET",
                "/tenants/{tenant}/service-accounts/{id}",
                "getServiceAccount",
                "service-accounts",
                "Get a service account",
                "One service account, without its secret.");
        op(
                NAMED,
                "DELETE",
                "/tenants/{tenant}/service-accounts/{id}",
                "revokeServiceAccount",
                "service-accounts",
                "Revoke a service account",
                "Its tokens stop working at once.");

        op(NAMED, "GET", "/users", "listUsers", "users", "List users", "Local users (platform admins and auditors).");
        op(
                NAMED,
                "POST",
                "/users",
                "createUser",
                "users",
                "Create a user",
                "A local user; without a password one is generated and shown once.");
        op(
                NAMED,
                "GET",
                "/users/{username}",
                "getUser",
                "users",
                "Get a user",
                "One local user and its platform roles.");
    }
}
