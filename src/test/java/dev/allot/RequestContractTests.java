package dev.allot;

import static org.assertj.core.api.Assertions.assertThat;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.report.ValidationReport;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The request side of {@code openapi.yaml}: requests the server accepts, as the API guide and the CLI send them,
 * are valid against the contract, so a validating proxy or a generated client does not refuse them or force
 * explicit {@code null}s. (The integration tests check every answer against the contract: {@code ContractCheck}.)
 */
class RequestContractTests {

    private static final OpenApiInteractionValidator CONTRACT = OpenApiInteractionValidator.createForSpecificationUrl(
                    Path.of("openapi.yaml").toUri().toString())
            .build();

    @Test
    void anOptionalRequestFieldMayBeLeftOut() {
        assertThat(errors(post("/api/v1/gpu-types", "{\"code\":\"H100\",\"memoryGb\":80}")))
                .isEmpty();
        assertThat(errors(post("/api/v1/tenants/vision-lab/reservations", """
				{"project":"nightly","pool":"h100-us","gpus":8,"startsAt":"2027-01-05T09:00:00Z",
				 "endsAt":"2027-01-05T11:00:00Z"}"""))).isEmpty();
        assertThat(errors(post("/api/v1/tenants/vision-lab/service-accounts", "{\"name\":\"github-actions\"}")))
                .isEmpty();
    }

    /**
     * Schemas that requests share with answers (a quota, its policies, a booking's cluster) leave their nullable
     * fields optional too: the API guide's quota and a booking with a cluster, as written, are valid.
     */
    @Test
    void aSchemaSharedWithAnswersLetsARequestLeaveOutWhatMayBeNull() {
        assertThat(errors(put("/api/v1/tenants/vision-lab/quota", """
				{"policies":[{"gpuType":"H100","guaranteedGpus":8,"maxGpus":16,"burst":true,"maxWindow":"P7D",
				  "maxAdvance":"P90D","monthlyBudget":50000,"priority":"TRAINING"}]}"""))).isEmpty();
        assertThat(errors(post("/api/v1/tenants/vision-lab/reservations", """
				{"project":"nightly","pool":"h100-us","gpus":8,"startsAt":"2027-01-05T09:00:00Z",
				 "endsAt":"2027-01-05T11:00:00Z","cluster":{"orchestrator":"SLURM"}}"""))).isEmpty();
    }

    @Test
    void aTenantRenameNeedsNoStatusAndANullableEnumTakesNull() {
        assertThat(errors(patch("/api/v1/tenants/vision-lab", "{\"displayName\":\"Vision Lab\"}")))
                .isEmpty();
        assertThat(errors(patch("/api/v1/tenants/vision-lab", "{\"displayName\":\"Vision Lab\",\"status\":null}")))
                .isEmpty();
    }

    @Test
    void aRequiredFieldIsStillRequired() {
        assertThat(errors(post("/api/v1/gpu-types", "{\"memoryGb\":80}"))).contains("code");
        assertThat(errors(patch("/api/v1/tenants/vision-lab", "{\"status\":\"ASLEEP\"}")))
                .contains("ASLEEP");
    }

    @Test
    void aRequestInstantIsADateTime() {
        assertThat(errors(post("/api/v1/tenants/vision-lab/reservations", """
				{"project":"nightly","pool":"h100-us","gpus":8,"startsAt":"next tuesday",
				 "endsAt":"2027-01-05T11:00:00Z"}"""))).contains("date-time");
        assertThat(errors(patch(
                        "/api/v1/tenants/vision-lab/reservations/0b7e2f52-5d2a-4c55-9a39-8e0f3f6b1a11",
                        "{\"endsAt\":\"2027-01-05T12:00:00Z\"}")))
                .isEmpty();
    }

    private static SimpleRequest post(String path, String body) {
        return json(SimpleRequest.Builder.post(path).withHeader("Idempotency-Key", "key-1"), body);
    }

    private static SimpleRequest put(String path, String body) {
        return json(SimpleRequest.Builder.put(path).withHeader("If-Match", "\"1\""), body);
    }

    private static SimpleRequest patch(String path, String body) {
        return json(SimpleRequest.Builder.patch(path).withHeader("If-Match", "\"1\""), body);
    }

    private static SimpleRequest json(SimpleRequest.Builder request, String body) {
        return request.withContentType("application/json")
                .withHeader("Authorization", "Bearer token")
                .withBody(body)
                .build();
    }

    /** The contract's errors for the request, one per line; empty when it is valid. */
    private static String errors(SimpleRequest request) {
        ValidationReport report = CONTRACT.validateRequest(request);
        StringBuilder errors = new StringBuilder();
        report.getMessages().stream()
                .filter(message -> message.getLevel() == ValidationReport.Level.ERROR)
                .forEach(message -> errors.append(message.getKey())
                        .append(": ")
                        .append(message.getMessage())
                        .append('\n'));
        return errors.toString();
    }
}
