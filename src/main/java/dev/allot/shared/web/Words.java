package dev.allot.shared.web;

import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * A code of the API ({@code NOT_CHECKED}, {@code PRODUCTION_INFERENCE}, {@code ON_DEMAND}) in the words a page shows
 * for it: "Not checked yet", "Production inference", "On-demand". Pages call it as {@code ${@words.of(code)}}, so
 * that every template words a code the same way and none shows the code itself.
 */
@Component("words")
public class Words {

    /** Codes whose words are not the code in lower case: tool names, and states that read better with a word more. */
    private static final Map<String, String> SPECIAL = Map.of(
            "NOT_CHECKED",
            "Not checked yet",
            "ON_DEMAND",
            "On-demand",
            "NVIDIA_SMI",
            "nvidia-smi",
            "DCGM_DIAG",
            "DCGM diagnostic",
            "NCCL_ALL_REDUCE",
            "NCCL all-reduce",
            "GPU_BURN",
            "gpu_burn",
            "NVBANDWIDTH",
            "nvbandwidth");

    /** The words for {@code code} (an enum or its name); empty for null. */
    public String of(@Nullable Object code) {
        return word(code);
    }

    public static String word(@Nullable Object code) {
        if (code == null) {
            return "";
        }
        String name = code instanceof Enum<?> e ? e.name() : code.toString();
        String special = SPECIAL.get(name);
        if (special != null) {
            return special;
        }
        String words = name.replace('_', ' ').toLowerCase(Locale.ROOT);
        return words.isEmpty() ? words : Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }
}
