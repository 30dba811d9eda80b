package dev.allot.shared.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReadCacheTests {

    private final AtomicBoolean listening = new AtomicBoolean(true);

    private final ReadCache<String, String> cache = new ReadCache<>("test", Set.of("t"), listening::get);

    private final AtomicInteger reads = new AtomicInteger();

    private Optional<String> read(String key) {
        reads.incrementAndGet();
        return Optional.of(key + "#" + reads.get());
    }

    @Test
    void aRowIsReadOnceUntilItsTableChanges() {
        assertThat(cache.find("a", this::read)).contains("a#1");
        assertThat(cache.find("a", this::read)).contains("a#1");
        cache.drop();
        assertThat(cache.find("a", this::read)).contains("a#2");
    }

    @Test
    void anAbsentRowIsNotKept() {
        assertThat(cache.find("missing", key -> {
                    reads.incrementAndGet();
                    return Optional.empty();
                }))
                .isEmpty();
        assertThat(cache.find("missing", this::read)).contains("missing#2");
    }

    @Test
    void aReadDuringWhichTheTableChangedIsAnsweredButNotKept() {
        assertThat(cache.find("a", key -> {
                    cache.drop(); // the change arrives while the row is being read
                    return read(key);
                }))
                .contains("a#1");
        assertThat(cache.find("a", this::read)).contains("a#2");
    }

    @Test
    void nothingIsKeptWhileChangesCannotBeHeard() {
        listening.set(false);
        cache.find("a", this::read);
        cache.find("a", this::read);
        assertThat(reads).hasValue(2);
    }

    @Test
    void itHoldsABoundedNumberOfRows() {
        for (int i = 0; i < ReadCache.MAX_ENTRIES + 10; i++) {
            cache.find("k" + i, this::read);
        }
        assertThat(cache.size()).isLessThanOrEqualTo(ReadCache.MAX_ENTRIES);
        int before = reads.get();
        cache.find("k" + (ReadCache.MAX_ENTRIES + 9), this::read);
        assertThat(reads.get()).isEqualTo(before); // the latest rows are still held
    }
}
