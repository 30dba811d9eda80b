package dev.allot.provisioning.driver.fake;

import dev.allot.provisioning.driver.ClusterDriverException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** A queue of faults, one consumed per call. */
final class Faults {

    private final Deque<Fault> queue = new ArrayDeque<>();

    synchronized void add(int count, Fault fault) {
        for (int i = 0; i < count; i++) {
            queue.addLast(fault);
        }
    }

    synchronized @Nullable Fault next() {
        return queue.pollFirst();
    }

    synchronized void clear() {
        queue.clear();
    }

    record Fault(boolean afterWork, Supplier<? extends ClusterDriverException> error) {}
}
