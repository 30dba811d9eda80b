package dev.allot.billing.api;

import dev.allot.billing.metering.GpuSample;
import dev.allot.billing.metering.Telemetry;
import dev.allot.shared.security.Caller;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * GPU-utilisation samples as a DCGM exporter scrape gives them (node, GPU index, utilisation in percent,
 * time), posted by a platform client. Samples are idempotent (a repeated sample is ignored).
 */
@RestController
class TelemetryController {

    record Samples(@NotNull List<GpuSample> samples) {}

    private final Telemetry telemetry;

    TelemetryController(Telemetry telemetry) {
        this.telemetry = telemetry;
    }

    @PostMapping("/api/v1/telemetry/gpu-utilisation")
    @ResponseStatus(HttpStatus.ACCEPTED)
    Telemetry.Ingested ingest(Caller caller, @RequestBody Samples body) {
        return telemetry.ingest(caller, body.samples() == null ? List.of() : body.samples());
    }
}
