package dev.allot.provisioning.driver.slurm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Node states from {@code sinfo --json} (in 22.05 {@code scontrol} has no JSON output). */
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

    private JsonNode nodes() {
        SlurmCommands.Result result = slurm.run("sinfo", "--json");
        if (!result.ok()) {
            throw errors.failed("sinfo --json", result, List.of());
        }
        return JSON.readTree(result.stdout()).path("nodes");
    }
}
