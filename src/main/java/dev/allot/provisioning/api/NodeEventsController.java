package dev.allot.provisioning.api;

import dev.allot.provisioning.health.NodeEvents;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Passive health signals (Xid, ECC, DCGM health events) from an exporter; platform admins only. */
@RestController
class NodeEventsController {

    private final NodeEvents events;

    NodeEventsController(NodeEvents events) {
        this.events = events;
    }

    record NodeEventBody(
            @NotNull NodeEvents.Type type,
            @Nullable Integer xid,
            @Nullable Integer uncorrectedErrors,
            @Nullable Integer errorCategory,
            @Nullable @Size(max = 1000) String message) {}

    /** Classifies the event and remediates (202): the answer says the fault class and what was done. */
    @ResponseStatus(HttpStatus.ACCEPTED)
    @PostMapping("/api/v1/nodes/{hostname}/events")
    NodeEvents.NodeEventOutcome report(
            Caller caller, @PathVariable String hostname, @Valid @RequestBody NodeEventBody body) {
        return events.report(
                caller,
                hostname,
                new NodeEvents.Event(
                        body.type(), body.xid(), body.uncorrectedErrors(), body.errorCategory(), body.message()));
    }
}
