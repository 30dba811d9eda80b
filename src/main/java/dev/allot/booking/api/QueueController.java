package dev.allot.booking.api;

import dev.allot.booking.queue.BookingQueue;
import dev.allot.quota.Priority;
import dev.allot.shared.security.Caller;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** A pool's booking queue, for platform admins; a tenant sees its own queued bookings in its reservation list. */
@RestController
class QueueController {

    private final BookingQueue queue;

    QueueController(BookingQueue queue) {
        this.queue = queue;
    }

    /** One queued booking: {@code duration} as ISO-8601, the start window it accepts, its tenant's priority class. */
    record QueuedBody(
            int position,
            UUID id,
            String tenant,
            String project,
            int gpus,
            String duration,
            Instant earliestStart,
            Instant latestStart,
            Instant queuedAt,
            Priority priority) {}

    record PoolQueueBody(String pool, List<QueuedBody> items) {}

    @GetMapping("/api/v1/pools/{pool}/queue")
    PoolQueueBody queue(Caller caller, @PathVariable String pool) {
        return new PoolQueueBody(
                pool,
                queue.queue(caller, pool).stream()
                        .map(e -> new QueuedBody(
                                e.position(),
                                e.id(),
                                e.tenant(),
                                e.project(),
                                e.gpus(),
                                e.duration().toString(),
                                e.earliestStart(),
                                e.latestStart(),
                                e.queuedAt(),
                                e.priority()))
                        .toList());
    }
}
