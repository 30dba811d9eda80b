package dev.allot.booking;

import dev.allot.inventory.Pool;
import dev.allot.tenancy.Project;
import dev.allot.tenancy.Tenant;
import java.util.List;

/**
 * What a request names, checked ({@link RequestValidation}); {@code blocks}: the pool's InfiniBand blocks, in the order
 * a booking searches them.
 */
record BookingTarget(Tenant tenant, Project project, Pool pool, int nodes, List<String> blocks) {}
