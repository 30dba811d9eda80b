package dev.allot.quota.ui;

import dev.allot.quota.QuotaPolicy;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What a quota request asks for one GPU type against the quota held now, in words: a request carries the whole
 * policy list, so only the GPU types whose GPUs it changes are worth a platform admin's reading.
 */
record QuotaAsk(String gpuType, String asked, String held) {

    /** The GPU types whose guaranteed or maximum GPUs the request changes (all of them when it changes none). */
    static List<QuotaAsk> of(List<QuotaPolicy> asked, List<QuotaPolicy> held) {
        Map<String, QuotaPolicy> wanted = byType(asked);
        Map<String, QuotaPolicy> now = byType(held);
        TreeMap<String, QuotaAsk> all = new TreeMap<>();
        TreeMap<String, QuotaAsk> changed = new TreeMap<>();
        TreeSet<String> types = new TreeSet<>(wanted.keySet());
        types.addAll(now.keySet());
        for (String type : types) {
            QuotaAsk ask = new QuotaAsk(type, words(wanted.get(type)), words(now.get(type)));
            all.put(type, ask);
            if (!ask.asked().equals(ask.held())) {
                changed.put(type, ask);
            }
        }
        return List.copyOf((changed.isEmpty() ? all : changed).values());
    }

    /** A policy's GPUs in words, such as "8 guaranteed, up to 16"; "no quota" for none. */
    static String words(@Nullable QuotaPolicy policy) {
        return policy == null ? "no quota" : policy.guaranteedGpus() + " guaranteed, up to " + policy.maxGpus();
    }

    private static Map<String, QuotaPolicy> byType(List<QuotaPolicy> policies) {
        return policies.stream().collect(Collectors.toMap(QuotaPolicy::gpuType, Function.identity()));
    }
}
