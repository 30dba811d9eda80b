package dev.allot.cli;

import dev.allot.client.ApiException;
import dev.allot.client.api.CapacityApi;
import dev.allot.client.model.Bucket;
import dev.allot.client.model.Calendar;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "capacity", description = "Show a pool's free and allocated GPUs per hour or day.")
class CapacityCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Option(names = "--pool", required = true)
    String pool;

    @Option(names = "--from", description = "ISO-8601 instant (default: now).")
    Instant from;

    @Option(names = "--to", description = "ISO-8601 instant.")
    Instant to;

    @Option(names = "--step", description = "HOUR or DAY.")
    String step;

    @Override
    public Integer call() throws ApiException {
        Calendar calendar = new CapacityApi(this.session.client())
                .getCapacity(
                        this.pool,
                        this.from != null ? this.from.toString() : null,
                        this.to != null ? this.to.toString() : null,
                        this.step);
        if (this.session.json()) {
            this.session.printJson(calendar);
            return ExitCodes.OK;
        }
        this.session.println(
                String.format("%-26s %6s %9s %9s %9s", "START", "TOTAL", "AVAILABLE", "ALLOCATED", "UNHEALTHY"));
        for (Bucket bucket : calendar.getBuckets()) {
            this.session.println(String.format(
                    "%-26s %6d %9d %9d %9d",
                    bucket.getStart(),
                    bucket.getTotalGpus(),
                    bucket.getAvailableGpus(),
                    bucket.getAllocatedGpus(),
                    bucket.getUnhealthyGpus()));
        }
        return ExitCodes.OK;
    }
}
