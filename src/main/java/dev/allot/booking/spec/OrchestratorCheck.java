package dev.allot.booking.spec;

import dev.allot.booking.spec.ClusterSpec.Orchestrator;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.shared.InvalidInputException.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Refuses a cluster whose orchestrator the pool's driver does not build, naming the pools that build it. Without
 * a {@link PoolOrchestrators} (a test of booking alone) every orchestrator passes.
 */
@Component
public class OrchestratorCheck {

    private final ObjectProvider<PoolOrchestrators> orchestrators;

    private final Inventory inventory;

    OrchestratorCheck(ObjectProvider<PoolOrchestrators> orchestrators, Inventory inventory) {
        this.orchestrators = orchestrators;
        this.inventory = inventory;
    }

    /** The refusal of {@code asked} on {@code pool}, if any, naming the pools that offer it. */
    public Optional<FieldError> refusal(Pool pool, Orchestrator asked) {
        PoolOrchestrators offered = orchestrators.getIfAvailable();
        if (offered == null || offered.offeredBy(pool.name()).contains(asked)) {
            return Optional.empty();
        }
        List<String> offering = offered.configuredFor(asked).stream()
                .filter(name -> inventory.pool(name).isPresent())
                .toList();
        String builds = offered.offeredBy(pool.name()).stream()
                .map(Enum::name)
                .sorted()
                .reduce((a, b) -> a + " or " + b)
                .map(o -> "builds " + o + " clusters only")
                .orElse("has no cluster driver");
        List<String> where = new ArrayList<>();
        if (!offering.isEmpty()) {
            where.add(String.join(", ", offering));
        }
        if (offered.byDefault().contains(asked)) {
            where.add("any pool without a driver of its own (the fake driver simulates it)");
        }
        return Optional.of(new FieldError(
                "cluster.orchestrator",
                "pool " + pool.name() + " " + builds + "; "
                        + (where.isEmpty()
                                ? "no pool offers " + asked
                                : "pools offering " + asked + ": " + String.join(", and ", where))));
    }
}
