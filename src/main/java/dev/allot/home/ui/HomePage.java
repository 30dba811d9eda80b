package dev.allot.home.ui;

import dev.allot.billing.Notices;
import dev.allot.billing.Spending;
import dev.allot.booking.FleetActivity;
import dev.allot.booking.NowAndNext;
import dev.allot.inventory.Inventory;
import dev.allot.provisioning.Degradations;
import dev.allot.quota.QuotaRequest;
import dev.allot.quota.QuotaRequests;
import dev.allot.quota.Quotas;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.CurrentTenant;
import dev.allot.shared.web.UiController;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpSession;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * {@code /}: a platform admin or auditor sees the fleet's home, anyone else the home of the team they work in (any
 * team's home is also at {@code /tenants/{tenant}/home}), someone in no team what to do about it.
 */
@UiController
class HomePage {

    /** Reservations listed, running and coming together. */
    static final int RESERVATIONS = 8;

    /** Unread notices listed (the count covers all). */
    static final int NOTICES = 5;

    /** Nodes out of service listed, and quota requests. */
    static final int LISTED = 10;

    private final Tenancy tenancy;

    private final NowAndNext nowAndNext;

    private final Degradations degradations;

    private final Quotas quotas;

    private final Spending spending;

    private final Notices notices;

    private final Inventory inventory;

    private final FleetActivity activity;

    private final QuotaRequests requests;

    private final Clock clock;

    HomePage(
            Tenancy tenancy,
            NowAndNext nowAndNext,
            Degradations degradations,
            Quotas quotas,
            Spending spending,
            Notices notices,
            Inventory inventory,
            FleetActivity activity,
            QuotaRequests requests,
            Clock clock) {
        this.tenancy = tenancy;
        this.nowAndNext = nowAndNext;
        this.degradations = degradations;
        this.quotas = quotas;
        this.spending = spending;
        this.notices = notices;
        this.inventory = inventory;
        this.activity = activity;
        this.requests = requests;
        this.clock = clock;
    }

    @GetMapping("/")
    String home(Caller caller, Model model, HttpSession session) {
        model.addAttribute("section", "home");
        if (caller.readsEverything()) {
            var pending = requests.all(caller, QuotaRequest.Status.PENDING, new PageQuery(0, LISTED));
            model.addAttribute(
                    "fleet",
                    new FleetHome(
                            inventory.fleetHealth(caller, LISTED),
                            activity.now(caller),
                            pending.items(),
                            pending.totalItems(),
                            tenancy.pendingInvitations(caller)));
            model.addAttribute(
                    "teams", caller.tenants().keySet().stream().sorted().toList());
            return "home/fleet";
        }
        return CurrentTenant.of(caller, session)
                .map(tenant -> team(caller, model, tenant))
                .orElse("home/no-team");
    }

    @GetMapping("/tenants/{tenant}/home")
    String teamHome(Caller caller, Model model, @PathVariable String tenant) {
        model.addAttribute("section", "home");
        return team(caller, model, tenant);
    }

    private String team(Caller caller, Model model, String slug) {
        Tenant tenant = tenancy.readable(caller, slug);
        Instant now = clock.instant();
        List<NowAndNext.Current> current = nowAndNext.of(caller, slug, RESERVATIONS);
        var degraded = degradations.of(current.stream()
                .filter(r -> r.warning() == NowAndNext.Warning.DEGRADED)
                .map(NowAndNext.Current::id)
                .toList());
        // the standing over the minute from now: what the team holds now, and what a booking made now gets
        List<Instant> thisMinute = List.of(now, now.plus(Duration.ofMinutes(1)));
        List<TeamHome.Standing> quota = quotas.quota(caller, slug).policies().stream()
                .map(policy -> {
                    Quotas.StandingStep step = quotas.standingSteps(caller, slug, policy.gpuType(), thisMinute)
                            .getFirst();
                    return new TeamHome.Standing(
                            policy.gpuType(),
                            step.guaranteedGpus(),
                            step.maxGpus(),
                            step.reservedInUse() + step.borrowedInUse() + step.onDemandInUse(),
                            step.newBooking());
                })
                .toList();
        model.addAttribute("tenant", tenant);
        model.addAttribute(
                "home",
                TeamHome.of(
                        tenant,
                        current,
                        degraded,
                        quota,
                        spending.thisMonth(caller, slug).orElse(null),
                        notices.unread(caller, slug, NOTICES),
                        now));
        return "home/team";
    }
}
