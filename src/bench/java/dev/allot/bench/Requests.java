package dev.allot.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;

/**
 * The booking requests both load generators send: 1-8 nodes for 1-72 hours, starting at a whole minute between
 * one hour and 90 days ahead, for a random tenant (a tenth of them on a tight quota). A share ({@link #HOT}) asks
 * for one of a few hot windows (8 nodes, 24 hours, the same start) so that clients race for the same nodes.
 */
final class Requests {

    static final double HOT = 0.2;

    record Request(int tenant, int pool, int nodes, Instant start, Instant end, boolean hot) {

        int gpus() {
            return nodes * Settings.GPUS_PER_NODE;
        }

        String json() {
            return "{\"project\":\"" + Fleet.PROJECT + "\",\"pool\":\"" + Settings.POOLS[pool] + "\",\"gpus\":" + gpus()
                    + ",\"startsAt\":\"" + start + "\",\"endsAt\":\"" + end
                    + "\",\"cluster\":{\"orchestrator\":\"KUBERNETES\"}}";
        }
    }

    private final int tenants;

    private final Instant now;

    Requests(int tenants, Instant now) {
        this.tenants = tenants;
        this.now = now.truncatedTo(ChronoUnit.MINUTES);
    }

    Request next(SplittableRandom random) {
        int tenant = random.nextInt(tenants);
        if (random.nextDouble() < HOT) {
            int pool = random.nextInt(Settings.POOLS.length);
            Instant start = now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofDays(7 + random.nextInt(2)));
            return new Request(tenant, pool, 8, start, start.plus(Duration.ofHours(24)), true);
        }
        Instant start = now.plus(
                Duration.ofMinutes(60 + random.nextLong(Duration.ofDays(90).toMinutes())));
        return new Request(
                tenant,
                random.nextInt(Settings.POOLS.length),
                1 + random.nextInt(8),
                start,
                start.plus(Duration.ofHours(1 + random.nextInt(72))),
                false);
    }
}
