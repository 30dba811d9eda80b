package dev.allot.provisioning.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Judges {@code dcgmi diag -r N -j}: a JSON object whose {@code "DCGM Diagnostic"} (DCGM 4; {@code "DCGM GPU
 * Diagnostic"} in DCGM 3) holds {@code test_categories[].tests[].results[]}, each result with a {@code status}
 * ({@code Pass}, {@code Fail}, {@code Warn}, {@code Skip}), the GPU ({@code entity_id}, or {@code gpu_ids} in
 * DCGM 3) and {@code warnings[]} with an {@code error_category} from {@code dcgm_errors.h}; a diagnostic that
 * could not run says so in {@code runtime_error}.
 * <p>
 * A failed result's category chooses the fault: {@code DCGM_FR_EC_HARDWARE_*} (9 to 15) is hardware; the
 * software categories (3 to 8), the performance ones (1, 2) and an unknown one are software.
 */
public final class DcgmDiagOutput {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private DcgmDiagOutput() {}

    public static Verdict judge(String output, int level) {
        JsonNode root;
        try {
            int start = output.indexOf('{');
            root = JSON.readTree(start < 0 ? output : output.substring(start));
        } catch (JacksonException ex) {
            return new Verdict(
                    Verdict.Fault.SOFTWARE,
                    "dcgmi diag printed no JSON report",
                    List.of(NvidiaSmiOutput.firstLine(output)));
        }
        JsonNode diag = root.has("DCGM Diagnostic") ? root.get("DCGM Diagnostic") : root.path("DCGM GPU Diagnostic");
        if (diag.isMissingNode() || diag.isNull()) {
            return new Verdict(
                    Verdict.Fault.SOFTWARE,
                    "dcgmi diag printed no diagnostic report",
                    List.of(NvidiaSmiOutput.firstLine(output)));
        }
        List<Verdict.Finding> findings = new ArrayList<>();
        String runtimeError = diag.path("runtime_error").asString("");
        if (!runtimeError.isBlank()) {
            findings.add(new Verdict.Finding(Verdict.Fault.SOFTWARE, "the diagnostic could not run: " + runtimeError));
        }
        int tests = 0;
        for (JsonNode category : diag.path("test_categories")) {
            for (JsonNode test : category.path("tests")) {
                tests++;
                String name = test.path("name").asString("?");
                for (JsonNode result : test.path("results")) {
                    String status = result.path("status").asString("").toLowerCase(Locale.ROOT);
                    if (!status.equals("fail")) {
                        continue;
                    }
                    String gpu = result.has("entity_id")
                            ? result.get("entity_id").asString()
                            : result.path("gpu_ids").asString("");
                    List<String> messages = new ArrayList<>();
                    Verdict.Fault fault = Verdict.Fault.SOFTWARE;
                    for (JsonNode warning : result.path("warnings")) {
                        messages.add(warning.path("warning").asString("").strip());
                        if (isHardware(warning.path("error_category").asInt(-1))) {
                            fault = Verdict.Fault.HARDWARE;
                        }
                    }
                    findings.add(new Verdict.Finding(
                            fault,
                            name
                                    + (gpu.isBlank() ? "" : " on GPU " + gpu)
                                    + (messages.isEmpty() ? "" : ": " + String.join(" ", messages))));
                }
            }
        }
        if (tests == 0 && findings.isEmpty()) {
            findings.add(new Verdict.Finding(Verdict.Fault.SOFTWARE, "the report lists no test"));
        }
        return Verdict.of(
                "DCGM diagnostic level " + level,
                findings,
                "DCGM diagnostic level " + level + ": " + tests + " tests passed");
    }

    /** {@code DCGM_FR_EC_HARDWARE_THERMAL} (9) to {@code DCGM_FR_EC_HARDWARE_OTHER} (15). */
    public static boolean isHardware(int errorCategory) {
        return errorCategory >= 9 && errorCategory <= 15;
    }
}
