package dev.allot.billing.api;

import dev.allot.billing.ledger.Ledger;
import dev.allot.billing.ledger.LedgerTransaction;
import dev.allot.shared.CursorPage;
import dev.allot.shared.ListQuery;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The tenant's ledger, newest transaction first. Keyset pagination: pass the {@code next} of a page as
 * {@code ?cursor=} to get the following one (stable while new transactions are posted); {@code ?page=} still
 * works as an offset for clients that only know the common list shape.
 */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/ledger")
class LedgerController {

    record ReversalRequest(@NotBlank @Size(max = 500) String reason) {}

    private final Ledger ledger;

    LedgerController(Ledger ledger) {
        this.ledger = ledger;
    }

    @GetMapping
    CursorPage<LedgerTransaction> list(
            Caller caller,
            @PathVariable String tenant,
            @RequestParam(required = false) @Nullable Integer limit,
            @RequestParam(required = false) @Nullable String cursor,
            @RequestParam(required = false) @Nullable Integer page,
            @RequestParam(required = false) @Nullable Integer size) {
        return ledger.page(caller, tenant, ListQuery.of(page, size, limit, cursor, 1));
    }

    /** A correction (platform admin): the whole transaction reversed, with the reason and the actor recorded. */
    @PostMapping("/{transactionId}/reversal")
    @ResponseStatus(HttpStatus.CREATED)
    LedgerTransaction reverse(
            Caller caller,
            @PathVariable String tenant,
            @PathVariable long transactionId,
            @Valid @RequestBody ReversalRequest body) {
        return ledger.reverse(caller, tenant, transactionId, body.reason());
    }
}
