package dev.allot.provisioning.lifecycle;

import static dev.allot.provisioning.lifecycle.ClusterState.CREATING;
import static dev.allot.provisioning.lifecycle.ClusterState.DEGRADED;
import static dev.allot.provisioning.lifecycle.ClusterState.DELETED;
import static dev.allot.provisioning.lifecycle.ClusterState.DELETING;
import static dev.allot.provisioning.lifecycle.ClusterState.FAILED;
import static dev.allot.provisioning.lifecycle.ClusterState.INSTALLING_DRIVERS;
import static dev.allot.provisioning.lifecycle.ClusterState.PENDING;
import static dev.allot.provisioning.lifecycle.ClusterState.READY;
import static dev.allot.provisioning.lifecycle.ClusterState.RUNNING_ACCEPTANCE_TESTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.provisioning.driver.Endpoints;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

class ClusterRulesTests {

    private static final Instant BOOKED = Instant.parse("2027-01-04T09:00:00Z");

    private static final Instant NOW = Instant.parse("2027-01-05T08:45:00Z");

    /** A transition, as a step asks for it. */
    private record Transition(String name, ClusterState to, BiFunction<Cluster, Instant, Cluster> apply) {}

    private static final List<Transition> TRANSITIONS = List.of(
            new Transition("startBuilding", CREATING, Cluster::startBuilding),
            new Transition("installingDrivers", INSTALLING_DRIVERS, Cluster::installingDrivers),
            new Transition("runningAcceptanceTests", RUNNING_ACCEPTANCE_TESTS, Cluster::runningAcceptanceTests),
            new Transition("handOver", READY, Cluster::handOver),
            new Transition("degrade", DEGRADED, (c, now) -> c.degrade("node gpu-003 failed NVIDIA_SMI", now)),
            new Transition("recover", READY, Cluster::recover),
            new Transition("startDeleting", DELETING, (c, now) -> c.startDeleting("the window ended", now)),
            new Transition("deleted", DELETED, Cluster::deleted),
            new Transition("fail", FAILED, (c, now) -> c.fail("the driver gave up", now)));

    /** The lifecycle as users of such platforms see it, written out once more, independently of the aggregate. */
    private static final Map<String, Set<ClusterState>> ALLOWED_FROM = Map.of(
            "startBuilding", EnumSet.of(PENDING, CREATING, INSTALLING_DRIVERS, RUNNING_ACCEPTANCE_TESTS),
            "installingDrivers", EnumSet.of(CREATING),
            "runningAcceptanceTests", EnumSet.of(INSTALLING_DRIVERS),
            "handOver", EnumSet.of(RUNNING_ACCEPTANCE_TESTS),
            "degrade", EnumSet.of(READY, DEGRADED),
            "recover", EnumSet.of(DEGRADED),
            "startDeleting",
                    EnumSet.of(PENDING, CREATING, INSTALLING_DRIVERS, RUNNING_ACCEPTANCE_TESTS, READY, DEGRADED),
            "deleted", EnumSet.of(DELETING),
            "fail", EnumSet.complementOf(EnumSet.of(DELETED)));

    @Test
    void everyAllowedTransitionMovesTheClusterAndRecordsWhenAndWhy() {
        int checked = 0;
        for (Transition transition : TRANSITIONS) {
            for (ClusterState from : ALLOWED_FROM.get(transition.name())) {
                Cluster moved = transition.apply().apply(cluster(from), NOW);

                assertThat(moved.state())
                        .as(transition.name() + " from " + from)
                        .isEqualTo(transition.to());
                assertThat(moved.stateChangedAt()).isEqualTo(NOW);
                assertThat(moved.reservationId()).isEqualTo(cluster(from).reservationId());
                checked++;
            }
        }
        assertThat(checked)
                .isEqualTo(ALLOWED_FROM.values().stream().mapToInt(Set::size).sum());
    }

    @Test
    void everyOtherTransitionIsRefusedAndNamesBothStates() {
        int refused = 0;
        for (Transition transition : TRANSITIONS) {
            for (ClusterState from : EnumSet.complementOf(EnumSet.copyOf(ALLOWED_FROM.get(transition.name())))) {
                assertThatThrownBy(() -> transition.apply().apply(cluster(from), NOW))
                        .as(transition.name() + " from " + from)
                        .isInstanceOfSatisfying(ClusterTransitionRefusedException.class, refusal -> {
                            assertThat(refusal.state()).isEqualTo(from);
                            assertThat(refusal.requested()).isEqualTo(transition.to());
                        })
                        .hasMessageContaining(from.name())
                        .hasMessageContaining(transition.to().name());
                refused++;
            }
        }
        assertThat(refused)
                .isEqualTo(TRANSITIONS.size() * ClusterState.values().length
                        - ALLOWED_FROM.values().stream().mapToInt(Set::size).sum());
    }

    @Test
    void aDegradationCarriesItsReasonAndRecoveringClearsIt() {
        Cluster degraded = cluster(READY).degrade("node gpu-003 failed NVIDIA_SMI", NOW);
        assertThat(degraded.stateReason()).isEqualTo("node gpu-003 failed NVIDIA_SMI");

        assertThat(degraded.recover(NOW.plusSeconds(60)).stateReason()).isNull();
    }

    @Test
    void failingKeepsTheReasonAsTheFailureTooAndChangesNothingElse() {
        Cluster building = cluster(CREATING);

        Cluster failed = building.fail("the driver gave up after 5 attempts", NOW);

        assertThat(failed.failureReason()).isEqualTo("the driver gave up after 5 attempts");
        assertThat(failed.stateReason()).isEqualTo("the driver gave up after 5 attempts");
        assertThat(failed.open()).isTrue();
        assertThat(failed.endsAt()).isEqualTo(building.endsAt());
    }

    @Test
    void aTeardownStartedByItsWindowEndingSaysSo() {
        assertThat(cluster(READY).startDeleting("the window ended", NOW).stateReason())
                .isEqualTo("the window ended");
    }

    private static Cluster cluster(ClusterState state) {
        return new Cluster(
                UUID.fromString("6a1f4f7c-95c4-4d39-9bb8-2d7c1d3f0b11"),
                "acme-ml",
                "h100-eu",
                Orchestrator.SLURM,
                state,
                null,
                BOOKED,
                NOW,
                NOW.plusSeconds(86_400),
                null,
                null,
                null,
                null,
                true,
                Endpoints.NONE,
                List.of());
    }
}
