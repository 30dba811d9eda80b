package dev.allot.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.billing.Notice;
import dev.allot.billing.Notices;
import dev.allot.billing.Spending;
import dev.allot.billing.budgets.Notifications;
import dev.allot.booking.FleetActivity;
import dev.allot.booking.NowAndNext;
import dev.allot.booking.ReservationStatus;
import dev.allot.inventory.FleetHealth;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.NodeState;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import dev.allot.shared.security.TenantRole;
import dev.allot.support.Api;
import dev.allot.support.FleetTest;
import dev.allot.support.MutableClock;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.bean.override.convention.TestBean;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The reads the home pages make, each through its module's API: a team's reservations now and next, unread notices,
 * the month's budget; the fleet's health and activity. On a clock of their own, three years ahead, so that what other
 * tests book on the real clock is not in their windows.
 */
class HomeReadsTests extends FleetTest {

    static final MutableClock CLOCK =
            new MutableClock(Instant.now().plus(Duration.ofDays(3 * 366)).truncatedTo(ChronoUnit.DAYS));

    @TestBean(name = "clock", methodName = "testClock")
    Clock clock;

    static Clock testClock() {
        return CLOCK;
    }

    @Autowired
    NowAndNext nowAndNext;

    @Autowired
    FleetActivity activity;

    @Autowired
    Inventory inventory;

    @Autowired
    Notices notices;

    @Autowired
    Notifications notifications;

    @Autowired
    Spending spending;

    @Autowired
    PlatformTransactionManager transactions;

    private static final Caller ADMIN =
            new Caller("home-admin", "Admin", Caller.Kind.USER, Set.of(PlatformRole.PLATFORM_ADMIN), Map.of());

    record Team(String tenant, String gpuType, String pool, String token, List<String> nodes) {}

    private Team team(int nodes, int guaranteed, int max) {
        String type = newGpuType();
        setRateCard(type);
        String pool = newPool(type, 8);
        List<String> hostnames = addNodes(pool, nodes, 4);
        String tenant = newTenant();
        newProject(tenant, "training");
        setQuota(tenant, type, guaranteed, max, false);
        return new Team(tenant, type, pool, tenantToken(tenant, "MEMBER"), hostnames);
    }

    private static Caller member(String tenant) {
        return new Caller(
                "member-of-" + tenant, "Member", Caller.Kind.USER, Set.of(), Map.of(tenant, TenantRole.MEMBER));
    }

    private UUID book(Team team, Instant start, Instant end) {
        Map<String, Object> body = new HashMap<>(Map.of(
                "project",
                "training",
                "pool",
                team.pool(),
                "gpus",
                8,
                "startsAt",
                start.toString(),
                "endsAt",
                end.toString()));
        body.put("cluster", Map.of("orchestrator", "SLURM"));
        Api.Response booked = api.post("/api/v1/tenants/" + team.tenant() + "/reservations", team.token(), body);
        assertThat(booked.status()).as(booked.body()).isEqualTo(201);
        return UUID.fromString(booked.json().get("id").asString());
    }

    @Test
    void nowAndNextListsWhatRunsBySoonestEndThenWhatComesBySoonestStartAndLeavesOutCancelledAndEnded() {
        Team team = team(4, 32, 32);
        Instant t = CLOCK.instant().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.HOURS);
        UUID longRun = book(team, t.plus(Duration.ofHours(1)), t.plus(Duration.ofHours(10)));
        UUID shortRun = book(team, t.plus(Duration.ofHours(2)), t.plus(Duration.ofHours(5)));
        UUID ended = book(team, t.plus(Duration.ofHours(1)), t.plus(Duration.ofHours(3)));
        UUID coming = book(team, t.plus(Duration.ofHours(20)), t.plus(Duration.ofHours(22)));
        UUID cancelled = book(team, t.plus(Duration.ofHours(30)), t.plus(Duration.ofHours(32)));
        assertThat(api.post(
                                "/api/v1/tenants/" + team.tenant() + "/reservations/" + cancelled + "/cancel",
                                team.token(),
                                Map.of())
                        .status())
                .isEqualTo(200);
        CLOCK.set(t.plus(Duration.ofHours(4)));

        List<NowAndNext.Current> current = nowAndNext.of(member(team.tenant()), team.tenant(), 10);

        assertThat(current)
                .extracting(NowAndNext.Current::id)
                .containsExactly(shortRun, longRun, coming)
                .doesNotContain(ended, cancelled);
        Instant now = CLOCK.instant();
        assertThat(current).extracting(r -> r.running(now)).containsExactly(true, true, false);
        assertThat(current).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(ReservationStatus.CONFIRMED);
            assertThat(r.warning()).isNull();
            assertThat(r.nodesHeldUntil()).isNull();
        });
        assertThat(nowAndNext.of(member(team.tenant()), team.tenant(), 1))
                .extracting(NowAndNext.Current::id)
                .containsExactly(shortRun);
        assertThatThrownBy(() -> nowAndNext.of(member(newTenant()), team.tenant(), 10))
                .isInstanceOfSatisfying(
                        AllotException.class,
                        refused -> assertThat(refused.status()).isEqualTo(404));
    }

    @Test
    void aWarningIsPreemptedFailedOrADegradedClusterInThatOrder() {
        assertThat(NowAndNext.warning(ReservationStatus.PREEMPTED, true)).isEqualTo(NowAndNext.Warning.PREEMPTED);
        assertThat(NowAndNext.warning(ReservationStatus.FAILED, false)).isEqualTo(NowAndNext.Warning.FAILED);
        assertThat(NowAndNext.warning(ReservationStatus.ACTIVE, true)).isEqualTo(NowAndNext.Warning.DEGRADED);
        assertThat(NowAndNext.warning(ReservationStatus.ACTIVE, false)).isNull();
        assertThat(NowAndNext.warning(ReservationStatus.CONFIRMED, false)).isNull();
    }

    @Test
    void fleetActivityCountsTheGpuHoursHeldOverTheNextDayAndTheBookingsWaitingForApproval() {
        Team team = team(2, 16, 16);
        // on a whole hour, every allocation in the day ahead covers whole hours of it: no rounding in the sums
        CLOCK.set(CLOCK.instant().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1)));
        FleetActivity.Activity before = activity.now(ADMIN);
        Instant t = CLOCK.instant();
        book(team, t.plus(Duration.ofHours(2)), t.plus(Duration.ofHours(6)));
        // and beyond the day ahead: counted only up to its end
        book(team, t.plus(Duration.ofHours(20)), t.plus(Duration.ofHours(40)));

        FleetActivity.Activity after = activity.now(ADMIN);

        BigDecimal inside = BigDecimal.valueOf(8 * 4);
        long minutesToDayEnd = Duration.between(
                        t.plus(Duration.ofHours(20)), CLOCK.instant().plus(Duration.ofHours(24)))
                .toMinutes();
        BigDecimal partly =
                BigDecimal.valueOf(8 * minutesToDayEnd).divide(BigDecimal.valueOf(60), 1, RoundingMode.HALF_EVEN);
        assertThat(after.gpuHoursAhead().subtract(before.gpuHoursAhead())).isEqualByComparingTo(inside.add(partly));
        assertThat(after.gpusHeldNow()).isEqualTo(before.gpusHeldNow());

        Map<String, Object> policy = policy(team.gpuType(), 16, 16, false);
        policy.put("approval", Map.of("aboveGpuHours", 10));
        setQuota(team.tenant(), policy);
        book(team, t.plus(Duration.ofDays(3)), t.plus(Duration.ofDays(3)).plus(Duration.ofHours(4)));
        assertThat(activity.now(ADMIN).approvals()).contains(new FleetActivity.Waiting(team.tenant(), 1));
        assertThatThrownBy(() -> activity.now(member(team.tenant())))
                .isInstanceOfSatisfying(
                        AllotException.class,
                        refused -> assertThat(refused.status()).isEqualTo(403));
    }

    @Test
    void fleetHealthCountsNodesByStateAndListsThoseOutOfServiceWithWhy() {
        Team team = team(2, 0, 16);
        FleetHealth before = inventory.fleetHealth(ADMIN, 500);
        String node = team.nodes().getFirst();
        assertThat(api.post("/api/v1/nodes/" + node + "/quarantine", adminToken(), Map.of("reason", "fans failing"))
                        .status())
                .isEqualTo(200);

        FleetHealth after = inventory.fleetHealth(ADMIN, 500);

        assertThat(after.nodesIn(NodeState.QUARANTINED)).isEqualTo(before.nodesIn(NodeState.QUARANTINED) + 1);
        assertThat(after.nodesIn(NodeState.AVAILABLE)).isEqualTo(before.nodesIn(NodeState.AVAILABLE) - 1);
        assertThat(after.gpus()).as("out of service, still the fleet's").isEqualTo(before.gpus());
        assertThat(after.outOfServiceNodes()).isEqualTo(before.outOfServiceNodes() + 1);
        assertThat(after.outOfService())
                .filteredOn(n -> n.hostname().equals(node))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.state()).isEqualTo(NodeState.QUARANTINED);
                    assertThat(n.stateReason()).isEqualTo("fans failing");
                    assertThat(n.pool()).isEqualTo(team.pool());
                });
        assertThat(inventory.fleetHealth(ADMIN, 1).outOfService()).hasSizeLessThanOrEqualTo(1);
        assertThatThrownBy(() -> inventory.fleetHealth(member(team.tenant()), 10))
                .isInstanceOfSatisfying(
                        AllotException.class,
                        refused -> assertThat(refused.status()).isEqualTo(403));
    }

    @Test
    void unreadNoticesAreThoseRaisedSinceTheUserLastSawThemEachUserOnTheirOwn() {
        String tenant = newTenant();
        Caller reader = member(tenant);
        Caller other = new Caller(
                "other-of-" + tenant, "Other", Caller.Kind.USER, Set.of(), Map.of(tenant, TenantRole.VIEWER));
        assertThat(notices.unread(reader, tenant, 5).count()).isZero();
        raise(tenant, "first");
        CLOCK.advance(Duration.ofMinutes(1));
        raise(tenant, "second");

        Notices.Unread unread = notices.unread(reader, tenant, 1);
        assertThat(unread.count()).isEqualTo(2);
        assertThat(unread.latest()).extracting(Notice::message).containsExactly("second");
        assertThat(unread.latest().getFirst().headline()).isEqualTo("Budget");

        notifications.seen(reader, tenant, unread.latest().getFirst().createdAt());
        assertThat(notices.unread(reader, tenant, 5).count()).isZero();
        // seeing an older notice later does not make the newer ones unread again
        notifications.seen(reader, tenant, CLOCK.instant().minus(Duration.ofDays(1)));
        assertThat(notices.unread(reader, tenant, 5).count()).isZero();
        assertThat(notices.unread(other, tenant, 5).count()).isEqualTo(2);

        CLOCK.advance(Duration.ofMinutes(1));
        raise(tenant, "third");
        assertThat(notices.unread(reader, tenant, 5).latest())
                .extracting(Notice::message)
                .containsExactly("third");
        assertThatThrownBy(() -> notices.unread(member(newTenant()), tenant, 5))
                .isInstanceOfSatisfying(
                        AllotException.class,
                        refused -> assertThat(refused.status()).isEqualTo(404));
    }

    @Test
    void theMonthsBudgetIsWhatIsLeftOfItAndNothingWithoutOne() {
        String tenant = newTenant();
        assertThat(spending.thisMonth(member(tenant), tenant)).isEmpty();
        assertThat(api.put(
                                "/api/v1/tenants/" + tenant + "/budget",
                                adminToken(),
                                Map.of("amount", 1000, "currency", "EUR"))
                        .status())
                .isEqualTo(200);

        Spending.MonthBudget budget = spending.thisMonth(member(tenant), tenant).orElseThrow();

        assertThat(budget.amount()).isEqualByComparingTo("1000");
        assertThat(budget.spent()).isEqualByComparingTo("0");
        assertThat(budget.left()).isEqualByComparingTo("1000");
        assertThat(budget.currency()).isEqualTo("EUR");
    }

    private void raise(String tenant, String message) {
        UUID tenantId = jdbc.sql("SELECT id FROM tenant WHERE slug = ?")
                .param(tenant)
                .query(UUID.class)
                .single();
        new TransactionTemplate(transactions)
                .executeWithoutResult(status -> notifications.raise(
                        tenantId,
                        Notifications.Kind.BUDGET_THRESHOLD,
                        "test:" + UUID.randomUUID(),
                        message,
                        Map.of("threshold", 50),
                        null,
                        CLOCK.instant()));
    }
}
