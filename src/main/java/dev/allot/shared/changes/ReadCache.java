package dev.allot.shared.changes;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A replica's copy of some reads, keyed, dropped whole whenever one of the tables it reads changes (see
 * {@link TableChanges}). A read that ran while a change arrived is answered but not kept, so a copy is never older
 * than the last change this replica heard of. Holds at most {@value #MAX_ENTRIES} entries and never an absent row,
 * so that requests naming things that do not exist cannot fill it.
 */
public final class ReadCache<K, V> {

    static final int MAX_ENTRIES = 10_000;

    private final String name;

    private final Set<String> tables;

    private final BooleanSupplier trusted;

    private final ConcurrentHashMap<K, V> entries = new ConcurrentHashMap<>();

    private final AtomicLong generation = new AtomicLong();

    ReadCache(String name, Set<String> tables, BooleanSupplier trusted) {
        this.name = name;
        this.tables = Set.copyOf(tables);
        this.trusted = trusted;
    }

    /** The row for the key, read with {@code load} unless a copy is held; an absent row is not kept. */
    public Optional<V> find(K key, Function<? super K, Optional<V>> load) {
        V held = entries.get(key);
        if (held != null) {
            return Optional.of(held);
        }
        long before = generation.get();
        Optional<V> loaded = load.apply(key);
        loaded.ifPresent(value -> keep(key, value, before));
        return loaded;
    }

    /** The value for the key, read with {@code load} unless a copy is held. */
    public V get(K key, Function<? super K, V> load) {
        V held = entries.get(key);
        if (held != null) {
            return held;
        }
        long before = generation.get();
        V loaded = load.apply(key);
        keep(key, loaded, before);
        return loaded;
    }

    private void keep(K key, V value, long generationBefore) {
        if (!trusted.getAsBoolean() || insideWrite()) {
            return;
        }
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
        }
        entries.put(key, value);
        if (generation.get() != generationBefore) {
            // a change arrived while this was read: the copy may predate it
            entries.remove(key, value);
        }
    }

    /** A read inside a transaction that writes may see its own uncommitted change: answered, never kept. */
    private static boolean insideWrite() {
        return TransactionSynchronizationManager.isActualTransactionActive()
                && !TransactionSynchronizationManager.isCurrentTransactionReadOnly();
    }

    int size() {
        return entries.size();
    }

    boolean reads(String table) {
        return tables.contains(table);
    }

    void drop() {
        generation.incrementAndGet();
        entries.clear();
    }

    @Override
    public String toString() {
        return "ReadCache[" + name + " of " + tables + ", " + entries.size() + " held]";
    }
}
