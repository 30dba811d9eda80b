package dev.allot.quota.ui;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.Quotas;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.ViewerTimes;
import dev.allot.tenancy.Tenancy;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * A team's own quota, for its members: each GPU type's policy in words, and day by day for the next week what it
 * holds, what it holds back from borrowers and what a new booking would get (the quota standing API, shown).
 */
@UiController
class TeamQuotaPage {

	/** One GPU type's policy and its standing over the next days. */
	record Card(QuotaPolicy policy, String windows, List<Quotas.StandingStep> days) {
	}

	private static final int DAYS = 7;

	private final Quotas quotas;

	private final Tenancy tenancy;

	private final Clock clock;

	TeamQuotaPage(Quotas quotas, Tenancy tenancy, Clock clock) {
		this.quotas = quotas;
		this.tenancy = tenancy;
		this.clock = clock;
	}

	@GetMapping("/tenants/{tenant}/quota")
	String show(Caller caller, Model model, @PathVariable String tenant, HttpServletRequest request) {
		model.addAttribute("tenant", tenancy.readable(caller, tenant));
		model.addAttribute("section", "team");
		model.addAttribute("days", DAYS);
		List<Instant> days = ViewerTimes.of(request).dayStarts(clock.instant(), DAYS);
		model.addAttribute("cards", quotas.quota(caller, tenant).policies().stream()
			.map(policy -> new Card(policy, windows(policy), standing(caller, tenant, policy.gpuType(), days)))
			.toList());
		return "tenant/quota";
	}

	/**
	 * Day by day in the viewer's zone: one read a day, because a day there is not always 24 hours long (the clocks
	 * change), which one fixed step cannot follow.
	 */
	private List<Quotas.StandingStep> standing(Caller caller, String tenant, String gpuType, List<Instant> days) {
		List<Quotas.StandingStep> steps = new ArrayList<>();
		for (int day = 0; day + 1 < days.size(); day++) {
			Duration length = Duration.between(days.get(day), days.get(day + 1));
			steps.addAll(quotas.standing(caller, tenant, gpuType, days.get(day), days.get(day + 1), length).steps());
		}
		return steps;
	}

	private static String windows(QuotaPolicy policy) {
		if (policy.windows().isEmpty()) {
			return "None";
		}
		return String.join("; ", policy.windows().stream()
			.map(w -> String.join(", ", w.dayNames()) + " " + w.from() + "-" + w.to() + ": up to " + w.maxGpus() + " GPUs")
			.toList()) + " (" + policy.zone().getId() + ")";
	}

}
