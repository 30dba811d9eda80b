package dev.allot.billing.api;

import dev.allot.billing.webhooks.LifecycleDelivery;
import dev.allot.billing.webhooks.LifecycleWebhook;
import dev.allot.billing.webhooks.LifecycleWebhookRequest;
import dev.allot.billing.webhooks.LifecycleWebhooks;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import java.net.URI;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The tenant's lifecycle webhooks (tenant admins register and delete them; members read); secrets are write-only. */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/webhooks")
class LifecycleWebhooksController {

    private final LifecycleWebhooks webhooks;

    LifecycleWebhooksController(LifecycleWebhooks webhooks) {
        this.webhooks = webhooks;
    }

    @ResponseStatus(HttpStatus.CREATED)
    @PostMapping
    ResponseEntity<LifecycleWebhook> create(
            Caller caller, @PathVariable String tenant, @RequestBody LifecycleWebhookRequest body) {
        LifecycleWebhook webhook = webhooks.create(caller, tenant, body);
        return ResponseEntity.created(URI.create("/api/v1/tenants/" + tenant + "/webhooks/" + webhook.id()))
                .body(webhook);
    }

    @GetMapping
    PageResponse<LifecycleWebhook> list(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return webhooks.list(caller, tenant, PageQuery.of(page, size));
    }

    @GetMapping("/{id}")
    LifecycleWebhook get(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        return webhooks.get(caller, tenant, id);
    }

    @ResponseStatus(HttpStatus.NO_CONTENT)
    @DeleteMapping("/{id}")
    void delete(Caller caller, @PathVariable String tenant, @PathVariable UUID id) {
        webhooks.delete(caller, tenant, id);
    }

    @GetMapping("/{id}/deliveries")
    PageResponse<LifecycleDelivery> deliveries(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return webhooks.deliveries(caller, tenant, id, PageQuery.of(page, size));
    }
}
