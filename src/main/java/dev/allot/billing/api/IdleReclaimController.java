package dev.allot.billing.api;

import dev.allot.billing.idle.IdleReclaimPolicies;
import dev.allot.billing.idle.IdleReclaimPolicy;
import dev.allot.shared.security.Caller;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** A tenant's idleReclaim policy: {@code {"mode": "OFF|NOTIFY|RELEASE", "afterHours", "noticeMinutes"}}. */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/idle-reclaim")
class IdleReclaimController {

    record IdleReclaimBody(
            @Nullable String mode,
            @Nullable Integer afterHours,
            @Nullable Integer noticeMinutes) {

        static IdleReclaimBody of(IdleReclaimPolicy policy) {
            return new IdleReclaimBody(policy.mode().name(), policy.afterHours(), policy.noticeMinutes());
        }
    }

    private final IdleReclaimPolicies policies;

    IdleReclaimController(IdleReclaimPolicies policies) {
        this.policies = policies;
    }

    @GetMapping
    IdleReclaimBody get(Caller caller, @PathVariable String tenant) {
        return IdleReclaimBody.of(policies.get(caller, tenant));
    }

    @PutMapping
    IdleReclaimBody put(Caller caller, @PathVariable String tenant, @RequestBody IdleReclaimBody body) {
        return IdleReclaimBody.of(policies.put(caller, tenant, body.mode(), body.afterHours(), body.noticeMinutes()));
    }
}
