package dev.allot.tenancy;

import dev.allot.shared.security.ProjectRole;
import java.time.Instant;

/** A person's role in one project of a tenant, named by the subject of their identity. */
public record ProjectMember(String project, String username, ProjectRole role, Instant addedAt) {}
