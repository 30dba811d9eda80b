package dev.allot.provisioning.driver.slurm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Slurm's nodes: their states from {@code sinfo --json} (in 22.05 {@code scontrol} has no JSON output), and
 * hostlists expanded by {@code scontrol show hostnames}.
 */
final class SlurmNodes {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final SlurmCommands slurm;

    private final SlurmErrors errors;

    SlurmNodes(SlurmCommands slurm, SlurmErrors errors) {
        this.slurm = slurm;
        this.errors = errors;
    }

    /** Every node's state, e.g. {@code IDLE}, {@code DOWN}, {@code IDLE+DRAIN}. */
    Map<String, String> states() {
        Map<String, String> states = new LinkedHashMap<>();
        for (JsonNode node : nodes()) {
            StringBuilder state =
                    new StringBuilder(node.path("state").asString("unknown").toUpperCase(Locale.ROOT));
            node.path("state_flags")
                    .forEach(flag -> state.append('+').append(flag.asString().toUpperCase(Locale.ROOT)));
            states.put(node.path("name").asString(), state.toString());
        }
        return states;
    }

    /** Every node's {@code RealMemory} in MiB, as slurm.conf declares it and slurmd reports it. */
    Map<String, Long> realMemoryMiB() {
        Map<String, Long> memory = new LinkedHashMap<>();
        for (JsonNode node : nodes()) {
            memory.put(node.path("name").asString(), node.path("real_memory").asLong(0));
        }
        return memory;
    }

    /** Whether a node in this state cannot run a job: down, not responding, failing or unknown. */
    static boolean unreachable(String state) {
        return state.startsWith("DOWN")
                || state.contains("NOT_RESPONDING")
                || state.startsWith("FAIL")
                || state.contains("+FAIL")
                || state.startsWith("UNKNOWN");
    }

    /** Expands a Slurm hostlist such as {@code gpu-[001-003]} exactly as Slurm does. */
    List<String> hostnames(String hostlist) {
        if (hostlist.isBlank()) {
            return List.of();
        }
        SlurmCommands.Result expanded = slurm.run("scontrol", "show", "hostnames", hostlist);
        if (!expanded.ok()) {
            throw errors.failed("scontrol show hostnames", expanded, List.of());
        }
        return expanded.stdout()
                .lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .toList();
    }

    private JsonNode nodes() {
        SlurmCommands.Result result = slurm.run("sinfo", "--json");
        if (!result.ok()) {
            throw errors.failed("sinfo --json", result, List.of());
        }
        return JSON.readTree(result.stdout()).path("nodes");
    }
}
