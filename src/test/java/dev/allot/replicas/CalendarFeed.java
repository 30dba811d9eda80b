package dev.allot.replicas;

import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The live calendar's event stream ({@code /calendar/events}) as a browser holds it open: the names of the
 * events it receives, in order.
 */
final class CalendarFeed implements AutoCloseable {

    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    private final HttpResponse<Stream<String>> stream;

    private final Thread reader;

    /** Opens the feed of {@code base} with a browser that holds a session. */
    CalendarFeed(HttpClient browser, String base) throws Exception {
        stream = browser.send(
                HttpRequest.newBuilder(URI.create(base + "/calendar/events"))
                        .header("Accept", "text/event-stream")
                        .build(),
                HttpResponse.BodyHandlers.ofLines());
        if (stream.statusCode() != 200) {
            throw new AssertionError("The calendar feed answered " + stream.statusCode());
        }
        reader = Thread.ofVirtual().start(() -> {
            try {
                stream.body()
                        .filter(line -> line.startsWith("event:"))
                        .forEach(line ->
                                events.add(line.substring("event:".length()).strip()));
            } catch (UncheckedIOException closed) {
                // the test closed the stream
            }
        });
    }

    /** Waits for an event of that name, skipping others; false when none came within {@code max}. */
    boolean await(String name, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        for (long left = max.toNanos(); left > 0; left = deadline - System.nanoTime()) {
            String next = events.poll(left, TimeUnit.NANOSECONDS);
            if (name.equals(next)) {
                return true;
            }
        }
        return false;
    }

    /** Forgets the events received so far. */
    void clear() {
        events.clear();
    }

    @Override
    public void close() {
        stream.body().close();
        reader.interrupt();
    }
}
