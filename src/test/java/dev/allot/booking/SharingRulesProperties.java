package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.inventory.events.NodeStateChanged;
import dev.allot.support.Api;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import tools.jackson.databind.JsonNode;

/**
 * Random sequences of bookings, cancels, quarantines and guarantee changes by tenants with random policies (priority
 * class, guarantee, cap, lending limit) on one pool, over the whole application and PostgreSQL: after every step,
 * the sharing rules hold. jqwik runs the tries; Spring's test context (the one the other integration tests share) is
 * prepared by hand, since jqwik is not a JUnit Jupiter extension host.
 */
class SharingRulesProperties extends BookingPropertyTest {

    private static final List<String> PRIORITIES =
            List.of("EXPERIMENT", "TRAINING", "PRODUCTION_FINE_TUNE", "PRODUCTION_INFERENCE");

    private static final int GPUS_PER_NODE = 8;

    /** How a tenant's policy is drawn: guarantee and cap in nodes, priority class, lending limit. */
    record Policy(int guaranteedNodes, int extraNodes, int priority, int lending) {}

    sealed interface Step permits Book, Cancel, Quarantine, ChangeGuarantee {}

    /** Hours are counted from a day ahead, so every reservation is further ahead than the preemption notice. */
    record Book(int tenant, int nodes, int startHour, int hours, boolean preemptible) implements Step {}

    record Cancel(int pick) implements Step {}

    record Quarantine(int node) implements Step {}

    record ChangeGuarantee(int tenant, int guaranteedNodes) implements Step {}

    record Scenario(int nodes, List<Policy> policies, List<Step> steps) {}

    private record Booked(String id, Setup tenant) {}

    @Property(tries = 25)
    void guaranteesHoldAgainstBorrowersAndNoRuleOfSharingIsBroken(@ForAll("scenarios") Scenario scenario) {
        String type = newGpuType();
        setRateCard(type);
        String pool = newPool(type, GPUS_PER_NODE);
        List<String> nodes = addNodes(pool, scenario.nodes(), 4);
        List<Setup> tenants = new ArrayList<>();
        int[] guaranteed = new int[scenario.policies().size()];
        for (int i = 0; i < scenario.policies().size(); i++) {
            Policy policy = scenario.policies().get(i);
            Setup tenant = tenantOn(
                    type, pool, nodes, 0, (policy.guaranteedNodes() + policy.extraNodes()) * GPUS_PER_NODE, false);
            tenants.add(tenant);
            guaranteed[i] = changeGuarantee(tenant, policy, policy.guaranteedNodes(), guaranteed, i);
        }
        List<Booked> booked = new ArrayList<>();
        for (Step step : scenario.steps()) {
            switch (step) {
                case Book b -> {
                    Setup tenant = tenants.get(b.tenant());
                    Booked made = book(pool, tenant, b);
                    if (made != null) {
                        booked.add(made);
                    }
                }
                case Cancel c -> {
                    if (!booked.isEmpty()) {
                        Booked victim = booked.remove(c.pick() % booked.size());
                        Api.Response cancelled = api.post(
                                path(victim.tenant(), victim.id()) + "/cancel",
                                victim.tenant().token(),
                                Map.of());
                        assertThat(cancelled.status()).as(cancelled.body()).isIn(200, 409);
                    }
                }
                case Quarantine q -> quarantine(nodes.get(q.node() % nodes.size()));
                case ChangeGuarantee g ->
                    guaranteed[g.tenant()] = changeGuarantee(
                            tenants.get(g.tenant()),
                            scenario.policies().get(g.tenant()),
                            g.guaranteedNodes(),
                            guaranteed,
                            g.tenant());
            }
            assertRulesHold(pool, tenants, step);
        }
        Statistics.label("preempted per scenario")
                .collect(jdbc.sql("SELECT count(*) FROM reservation r JOIN pool p "
                                + "ON p.id = r.pool_id WHERE p.name = ? AND r.lifecycle_status = 'PREEMPTED'")
                        .param(pool)
                        .query(Long.class)
                        .single());
    }

    /**
     * Books; when a booking wholly within its tenant's guarantee (its quote says RESERVED only) and not preemptible is
     * refused for capacity, checks that the pool did not have enough nodes that were free or held only by other
     * tenants' preemptible reservations: those it should have reclaimed.
     */
    private Booked book(String pool, Setup tenant, Book step) {
        Instant start = hour(24 + step.startHour());
        Map<String, Object> body =
                body(tenant, step.nodes() * GPUS_PER_NODE, start, start.plus(Duration.ofHours(step.hours())));
        body.put("preemptible", step.preemptible());
        Api.Response quote = api.post("/api/v1/tenants/" + tenant.tenant() + "/quotes", tenant.token(), body);
        assertThat(quote.status()).as(quote.body()).isEqualTo(200);
        JsonNode split = quote.json().path("quote").path("split");
        boolean reservedOnly = !step.preemptible()
                && split.isArray()
                && !split.isEmpty()
                && split.findValuesAsString("rateClass").stream().allMatch("RESERVED"::equals);
        Api.Response response = book(tenant, body);
        assertThat(response.status()).as(response.body()).isIn(201, 409, 422);
        Statistics.label("bookings")
                .collect((reservedOnly ? "within the guarantee: " : "beyond it: ") + response.status());
        if (response.status() == 201) {
            return new Booked(response.json().get("id").asString(), tenant);
        }
        if (response.status() == 409 && reservedOnly) {
            int couldHave = jdbc.sql("""
					SELECT count(*) FROM node n JOIN pool p ON p.id = n.pool_id
					WHERE p.name = :pool AND n.state = 'AVAILABLE' AND NOT n.spare AND NOT EXISTS (
					    SELECT 1 FROM allocation a JOIN reservation r ON r.id = a.reservation_id
					    WHERE a.node_id = n.id AND a.active
					      AND a.during && tstzrange(CAST(:start AS timestamptz), CAST(:end AS timestamptz))
					      AND NOT (r.preemptible AND r.tenant_slug <> :tenant))""")
                    .param("pool", pool)
                    .param("start", Timestamp.from(start))
                    .param("end", Timestamp.from(start.plus(Duration.ofHours(step.hours()))))
                    .param("tenant", tenant.tenant())
                    .query(Integer.class)
                    .single();
            assertThat(couldHave)
                    .as(
                            "nodes free or held only by borrowers when a booking within the guarantee (%s) "
                                    + "was refused: %s",
                            step, response.body())
                    .isLessThan(step.nodes());
        }
        return null;
    }

    /**
     * Sets the tenant's guarantee; a change that would put the guarantees of the GPU type above its healthy capacity
     * is refused with {@code guarantees_exceed_capacity}, any other is taken. Answers the guarantee now in force.
     */
    private int changeGuarantee(Setup tenant, Policy policy, int guaranteedNodes, int[] guaranteed, int index) {
        int gpus = guaranteedNodes * GPUS_PER_NODE;
        Map<String, Object> body = policy(
                tenant.gpuType(),
                gpus,
                Math.max(gpus, (policy.guaranteedNodes() + policy.extraNodes()) * GPUS_PER_NODE),
                false);
        body.put("priority", PRIORITIES.get(policy.priority()));
        switch (policy.lending()) {
            case 0 -> body.put("lendableGpus", 0);
            case 1 -> body.put("lendableGpus", gpus / 2 / GPUS_PER_NODE * GPUS_PER_NODE);
            default -> {
                // all of it: the default
            }
        }
        int others = 0;
        for (int i = 0; i < guaranteed.length; i++) {
            others += i == index ? 0 : guaranteed[i];
        }
        int capacity = jdbc.sql("""
				SELECT count(*) * :gpus FROM node n JOIN pool p ON p.id = n.pool_id JOIN gpu_type t ON t.id = p.gpu_type_id
				WHERE t.code = :type AND n.state = 'AVAILABLE' AND NOT n.spare""")
                .param("gpus", GPUS_PER_NODE)
                .param("type", tenant.gpuType())
                .query(Integer.class)
                .single();
        Api.Response put = api.put(
                "/api/v1/tenants/" + tenant.tenant() + "/quota", adminToken(), Map.of("policies", List.of(body)));
        if (gpus > guaranteed[index] && others + gpus > capacity) {
            assertThat(put.status()).as(put.body()).isEqualTo(422);
            assertThat(put.json().get("code").asString()).isEqualTo("guarantees_exceed_capacity");
            return guaranteed[index];
        }
        if (gpus <= guaranteed[index] || others + gpus <= capacity) {
            assertThat(put.status())
                    .as(
                            "guarantee %d with %d guaranteed to others, capacity %d: %s",
                            gpus, others, capacity, put.body())
                    .isEqualTo(200);
        }
        return gpus;
    }

    /** Quarantines the node and waits until its replacement in the reservations holding it has run. */
    private void quarantine(String hostname) {
        Api.Response quarantined =
                api.post("/api/v1/nodes/" + hostname + "/quarantine", adminToken(), Map.of("reason", "property test"));
        assertThat(quarantined.status()).as(quarantined.body()).isIn(200, 409);
        awaitListenersDone(NodeStateChanged.class, hostname);
    }

    private void assertRulesHold(String pool, List<Setup> tenants, Step after) {
        String[] slugs = tenants.stream().map(Setup::tenant).toArray(String[]::new);
        assertThat(jdbc.sql("""
				SELECT count(*) FROM allocation a JOIN allocation b
				  ON a.node_id = b.node_id AND a.id < b.id AND a.active AND b.active AND a.during && b.during
				WHERE a.pool_id = (SELECT id FROM pool WHERE name = ?)""").param(pool).query(Integer.class).single())
                .as("node-instants held twice after %s", after)
                .isZero();
        assertThat(jdbc.sql("SELECT count(*) FROM reservation WHERE tenant_slug = ANY(?) "
                                + "AND lifecycle_status = 'PREEMPTED' AND NOT preemptible")
                        .param(slugs)
                        .query(Long.class)
                        .single())
                .as("reservations preempted although not preemptible, after %s", after)
                .isZero();
        // every reservation here starts a day ahead, further than the notice: a preempted one is released at once,
        // so nothing of it can be charged
        assertThat(jdbc.sql("""
				SELECT count(*) FROM reservation r WHERE r.tenant_slug = ANY(?) AND r.lifecycle_status = 'PREEMPTED'
				  AND (EXISTS (SELECT 1 FROM allocation a WHERE a.reservation_id = r.id AND a.active)
				       OR EXISTS (SELECT 1 FROM quota_usage u WHERE u.reservation_id = r.id))""").param(slugs).query(Long.class).single())
                .as("preempted reservations still holding nodes or charged usage, after %s", after)
                .isZero();
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Policy> policies = Combinators.combine(
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(0, PRIORITIES.size() - 1),
                        Arbitraries.integers().between(0, 2))
                .as(Policy::new);
        Arbitrary<Step> book = Combinators.combine(
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(0, 8),
                        Arbitraries.integers().between(1, 4),
                        Arbitraries.of(false, false, true))
                .as(Book::new);
        Arbitrary<Step> cancel = Arbitraries.integers().between(0, 100).map(Cancel::new);
        Arbitrary<Step> quarantine = Arbitraries.integers().between(0, 10).map(Quarantine::new);
        Arbitrary<Step> change = Combinators.combine(
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(0, 3))
                .as(ChangeGuarantee::new);
        Arbitrary<Step> steps = Arbitraries.frequencyOf(
                Tuple.of(8, book), Tuple.of(2, cancel), Tuple.of(1, quarantine), Tuple.of(1, change));
        return Combinators.combine(
                        Arbitraries.integers().between(3, 5),
                        policies.list().ofSize(3),
                        steps.list().ofMinSize(8).ofMaxSize(24))
                .as(Scenario::new);
    }
}
