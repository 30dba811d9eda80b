package dev.allot.booking;

import dev.allot.booking.allocation.FreeNodeRepository;
import dev.allot.booking.spec.ClusterChoices;
import dev.allot.booking.spec.OrchestratorCheck;
import dev.allot.booking.spec.SshPublicKeys;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.NodeMemory;
import dev.allot.inventory.Pool;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.tenancy.Project;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The validation booking and quoting share: everything a request can be refused for before any write, and what it
 * names once checked ({@link BookingTarget}).
 */
@Component
class RequestValidation {

    private final Inventory inventory;

    private final Tenancy tenancy;

    private final OrchestratorCheck orchestrators;

    private final List<ClusterChoices> choices;

    private final NodeMemory nodeMemory;

    private final FreeNodeRepository freeNodes;

    private final Clock clock;

    RequestValidation(
            Inventory inventory,
            Tenancy tenancy,
            OrchestratorCheck orchestrators,
            List<ClusterChoices> choices,
            NodeMemory nodeMemory,
            FreeNodeRepository freeNodes,
            Clock clock) {
        this.inventory = inventory;
        this.tenancy = tenancy;
        this.orchestrators = orchestrators;
        this.choices = List.copyOf(choices);
        this.nodeMemory = nodeMemory;
        this.freeNodes = freeNodes;
        this.clock = clock;
    }

    BookingTarget target(Tenant tenant, BookingRequest request) {
        List<InvalidInputException.FieldError> errors = new ArrayList<>();
        Optional<Pool> pool = inventory.pool(request.pool());
        if (pool.isPresent() && !pool.get().openTo(tenant.slug())) {
            // dedicated to other tenants: to this one, as if it were not there (API.md)
            throw AllotException.notFound("Pool " + request.pool());
        }
        if (pool.isEmpty()) {
            errors.add(new InvalidInputException.FieldError("pool", "no such pool"));
        }
        Optional<Project> project = tenancy.project(tenant.slug(), request.project());
        if (project.isEmpty()) {
            errors.add(new InvalidInputException.FieldError("project", "no such project in tenant " + tenant.slug()));
        }
        pool.flatMap(found -> orchestrators.refusal(found, request.cluster().orchestrator()))
                .ifPresent(errors::add);
        String driver = request.cluster().cudaDriver();
        if (pool.isPresent() && driver != null) {
            List<String> offered = inventory.cudaDrivers(pool.get());
            if (!offered.contains(driver)) {
                errors.add(new InvalidInputException.FieldError(
                        "cluster.cudaDriver",
                        "is not offered by pool " + request.pool() + " (offered: " + String.join(", ", offered) + ")"));
            }
        }
        errors.addAll(SshPublicKeys.refusals(request.cluster().sshPublicKeys()));
        if (pool.isPresent()) {
            choices.forEach(choice -> errors.addAll(choice.refusals(pool.get().name(), request.cluster())));
        }
        Integer shm = request.cluster().sharedMemoryGi();
        int nodeGi = pool.isPresent() && shm != null ? nodeMemory.of(pool.get()) : Integer.MAX_VALUE;
        if (shm != null && shm > nodeGi) {
            errors.add(new InvalidInputException.FieldError(
                    "cluster.sharedMemoryGi",
                    "is above the memory of pool " + request.pool() + "'s nodes (" + nodeGi + " GiB)"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        Inventory.PoolSize size = inventory.size(pool.get());
        request.requireFits(pool.get(), size.withoutSpares(), clock.instant());
        // read here, outside the booking's transaction, so that this replica keeps them
        return new BookingTarget(
                tenant,
                project.get(),
                pool.get(),
                request.nodes(pool.get()),
                freeNodes.blocks(pool.get().id()));
    }
}
