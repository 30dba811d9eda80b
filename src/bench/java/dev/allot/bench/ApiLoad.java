package dev.allot.bench;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Booking through the API: each client a thread with its own HTTP connection, booking back to back with a fresh
 * Idempotency-Key; one request in fifty resends the client's previous request with its key, which must answer
 * the same reservation ({@code Idempotent-Replayed}).
 */
final class ApiLoad {

    private final String base;

    private final List<String> tokens;

    private final List<Fleet.Tenant> tenants;

    ApiLoad(String base, List<String> tokens, List<Fleet.Tenant> tenants) {
        this.base = base;
        this.tokens = tokens;
        this.tenants = tenants;
    }

    Tally.Figures run(Requests requests, int clients, int seconds, long seed, Runnable sampler)
            throws InterruptedException {
        List<Tally> tallies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        long started = System.nanoTime();
        for (int i = 0; i < clients; i++) {
            Tally tally = new Tally();
            tallies.add(tally);
            SplittableRandom random = new SplittableRandom(seed * 1000 + i);
            threads.add(
                    Thread.ofPlatform().name("api-client-" + i).start(() -> client(requests, random, tally, deadline)));
        }
        while (System.nanoTime() < deadline) {
            sampler.run();
            Thread.sleep(500);
        }
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        return Tally.merge(tallies).figures("API", clients, elapsed);
    }

    private void client(Requests requests, SplittableRandom random, Tally tally, long deadline) {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        Requests.Request previous = null;
        String previousKey = null;
        String previousId = null;
        while (System.nanoTime() < deadline) {
            boolean replay = previousId != null && random.nextInt(50) == 0;
            Requests.Request request = replay ? previous : requests.next(random);
            String key = replay ? previousKey : UUID.randomUUID().toString();
            Fleet.Tenant tenant = tenants.get(request.tenant());
            HttpRequest post = Http.booking(base, tenant.slug(), tokens.get(request.tenant()), key, request.json());
            long start = System.nanoTime();
            try {
                HttpResponse<String> answer = http.send(post, HttpResponse.BodyHandlers.ofString());
                tally.record(System.nanoTime() - start);
                int status = answer.statusCode();
                if (status == 201) {
                    String id = Http.field(answer.body(), "id");
                    if (answer.headers().firstValue("Idempotent-Replayed").isPresent()) {
                        tally.replayed++;
                        if (!replay || !id.equals(previousId)) {
                            tally.replayMismatches++;
                            tally.sample(
                                    "replay answered " + id + " for key " + key + " (expected " + previousId + ")");
                        }
                    } else {
                        tally.accepted++;
                        if (replay) {
                            tally.replayMismatches++;
                            tally.sample("a replay of " + previousId + " booked anew: " + id);
                        }
                    }
                    previous = request;
                    previousKey = key;
                    previousId = id;
                } else {
                    tally.refused(status, answer.body());
                }
            } catch (Exception ex) {
                tally.failed(System.nanoTime() - start, ex);
            }
        }
    }

    /** Calendar reads in a loop until stopped; each sample is one or more GETs, timed together. */
    static Tally calendar(Http http, String token, List<String> gets, AtomicBoolean stop, int maxSamples)
            throws Exception {
        Tally tally = new Tally();
        while (!stop.get() && tally.attempts < maxSamples) {
            long start = System.nanoTime();
            boolean ok = true;
            for (String get : gets) {
                int status = http.get(get, token);
                if (status != 200) {
                    ok = false;
                    tally.sample("GET " + get + " answered " + status);
                }
            }
            tally.record(System.nanoTime() - start);
            if (ok) {
                tally.accepted++;
            } else {
                tally.errors++;
            }
        }
        return tally;
    }
}
