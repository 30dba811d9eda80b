package dev.allot.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What one client saw: latency of every attempt and the count of each outcome; merged after the phase. */
final class Tally {

    long[] nanos = new long[4096];

    int attempts;

    long accepted;

    long replayed;

    long conflicts;

    long quota;

    long otherClient;

    long server;

    long errors;

    long replayMismatches;

    final List<String> samples = new ArrayList<>();

    void record(long latencyNanos) {
        if (attempts == nanos.length) {
            nanos = Arrays.copyOf(nanos, attempts * 2);
        }
        nanos[attempts++] = latencyNanos;
    }

    /** Counts an answer that booked nothing: a 409, a 422, another 4xx or a 5xx (the last two sampled). */
    void refused(int status, String body) {
        if (status == 409) {
            conflicts++;
        } else if (status == 422) {
            quota++;
        } else {
            if (status >= 500) {
                server++;
            } else {
                otherClient++;
            }
            sample(status + " " + body);
        }
    }

    /** Counts a request that got no answer, with how long it took. */
    void failed(long latencyNanos, Exception ex) {
        record(latencyNanos);
        errors++;
        sample(ex.toString());
    }

    void sample(String what) {
        if (samples.size() < 5) {
            samples.add(what.length() > 400 ? what.substring(0, 400) : what);
        }
    }

    static Tally merge(List<Tally> tallies) {
        Tally all = new Tally();
        for (Tally t : tallies) {
            for (int i = 0; i < t.attempts; i++) {
                all.record(t.nanos[i]);
            }
            all.accepted += t.accepted;
            all.replayed += t.replayed;
            all.conflicts += t.conflicts;
            all.quota += t.quota;
            all.otherClient += t.otherClient;
            all.server += t.server;
            all.errors += t.errors;
            all.replayMismatches += t.replayMismatches;
            t.samples.forEach(all::sample);
        }
        return all;
    }

    /** Milliseconds at quantile {@code q} (0..1) of the recorded latencies. */
    double millis(double q) {
        if (attempts == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(nanos, attempts);
        Arrays.sort(sorted);
        int index = (int) Math.min(attempts - 1, Math.max(0, Math.ceil(q * attempts) - 1));
        return sorted[index] / 1e6;
    }

    /** The figures of a booking phase. */
    record Figures(
            String mode,
            int clients,
            double seconds,
            long attempts,
            long accepted,
            double acceptedPerSecond,
            double p50,
            double p95,
            double p99,
            double max,
            long replayed,
            long conflicts,
            long quota,
            long other4xx,
            long server5xx,
            long errors,
            long replayMismatches,
            List<String> samples) {}

    Figures figures(String mode, int clients, double seconds) {
        return new Figures(
                mode,
                clients,
                seconds,
                attempts,
                accepted,
                accepted / seconds,
                millis(0.5),
                millis(0.95),
                millis(0.99),
                millis(1.0),
                replayed,
                conflicts,
                quota,
                otherClient,
                server,
                errors,
                replayMismatches,
                List.copyOf(samples));
    }
}
