package dev.allot.quota;

import dev.allot.quota.policies.ProjectQuotaPolicy;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Projects' own caps within their tenant's policies. */
@Repository
class ProjectQuotaRepository {

    private final JdbcClient jdbc;

    ProjectQuotaRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<ProjectQuotaPolicy> projectPolicies(UUID tenantId, String project) {
        return jdbc.sql("""
				SELECT g.code, p.max_gpus, p.monthly_budget FROM project_quota_policy p
				JOIN gpu_type g ON g.id = p.gpu_type_id WHERE p.tenant_id = ? AND p.project = ? ORDER BY g.code""")
                .params(tenantId, project)
                .query((rs, n) ->
                        new ProjectQuotaPolicy(rs.getString(1), (Integer) rs.getObject(2), rs.getBigDecimal(3)))
                .list();
    }

    /** A project's cap on one GPU type, named by its project. */
    record ProjectCap(String project, ProjectQuotaPolicy policy) {}

    /** Every project's cap of the tenant on the GPU type, by project. */
    List<ProjectCap> projectCaps(UUID tenantId, UUID gpuTypeId) {
        return jdbc.sql("""
				SELECT p.project, g.code, p.max_gpus, p.monthly_budget FROM project_quota_policy p
				JOIN gpu_type g ON g.id = p.gpu_type_id WHERE p.tenant_id = ? AND p.gpu_type_id = ? ORDER BY p.project""")
                .params(tenantId, gpuTypeId)
                .query((rs, n) -> new ProjectCap(
                        rs.getString(1),
                        new ProjectQuotaPolicy(rs.getString(2), (Integer) rs.getObject(3), rs.getBigDecimal(4))))
                .list();
    }

    void replaceProjectPolicies(UUID tenantId, String project, Map<UUID, ProjectQuotaPolicy> byType) {
        jdbc.sql("DELETE FROM project_quota_policy WHERE tenant_id = ? AND project = ?")
                .params(tenantId, project)
                .update();
        byType.forEach((typeId, policy) -> jdbc.sql("""
				INSERT INTO project_quota_policy (tenant_id, project, gpu_type_id, max_gpus, monthly_budget)
				VALUES (?, ?, ?, ?, ?)""")
                .params(tenantId, project, typeId, policy.maxGpus(), policy.monthlyBudget())
                .update());
    }
}
