package dev.allot.quota;

import dev.allot.inventory.Inventory.PoolCapacity;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How much of the tenants' guarantees of one GPU type its pools can cover, when a dedicated pool's capacity counts
 * only for its own tenants and a shared pool's for all: a maximum flow from each tenant (its guarantee) through the
 * pools open to it (their healthy GPUs). All guarantees are covered exactly when it equals their sum; with shared
 * pools only, it is the smaller of the sum and the capacity, as before pools could be dedicated.
 */
final class GuaranteeCover {

    private GuaranteeCover() {}

    /** The GPUs of {@code guarantees} (per tenant slug) that {@code pools} can cover at once. */
    static int coverable(Map<String, Integer> guarantees, List<PoolCapacity> pools) {
        List<String> tenants = new ArrayList<>(guarantees.keySet());
        int t = tenants.size();
        int p = pools.size();
        int source = t + p;
        int sink = source + 1;
        long[][] capacity = new long[sink + 1][sink + 1];
        for (int i = 0; i < t; i++) {
            capacity[source][i] =
                    Math.max(0, Objects.requireNonNull(guarantees.get(tenants.get(i)), "one of its keys"));
            for (int j = 0; j < p; j++) {
                PoolCapacity pool = pools.get(j);
                if (pool.dedicatedTo().isEmpty() || pool.dedicatedTo().contains(tenants.get(i))) {
                    capacity[i][t + j] = Long.MAX_VALUE / 4;
                }
            }
        }
        for (int j = 0; j < p; j++) {
            capacity[t + j][sink] = Math.max(0, pools.get(j).healthyGpus());
        }
        return (int) maxFlow(capacity, source, sink);
    }

    /** Edmonds-Karp: augmenting paths found breadth-first, on the residual capacities (changed in place). */
    private static long maxFlow(long[][] residual, int source, int sink) {
        int n = residual.length;
        long flow = 0;
        int[] parent = new int[n];
        while (true) {
            Arrays.fill(parent, -1);
            parent[source] = source;
            ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(source));
            while (!queue.isEmpty() && parent[sink] < 0) {
                int u = queue.poll();
                for (int v = 0; v < n; v++) {
                    if (parent[v] < 0 && residual[u][v] > 0) {
                        parent[v] = u;
                        queue.add(v);
                    }
                }
            }
            if (parent[sink] < 0) {
                return flow;
            }
            long push = Long.MAX_VALUE;
            for (int v = sink; v != source; v = parent[v]) {
                push = Math.min(push, residual[parent[v]][v]);
            }
            for (int v = sink; v != source; v = parent[v]) {
                residual[parent[v]][v] -= push;
                residual[v][parent[v]] += push;
            }
            flow += push;
        }
    }
}
