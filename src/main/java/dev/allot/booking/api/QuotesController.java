package dev.allot.booking.api;

import dev.allot.booking.Bookings;
import dev.allot.booking.api.ReservationBodies.QuoteBody;
import dev.allot.booking.api.ReservationBodies.ReservationRequest;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Answers whether a reservation would fit and what it would cost, without booking. */
@RestController
@RequestMapping("/api/v1/tenants/{tenant}/quotes")
class QuotesController {

    record Capacity(boolean fits, int freeNodes, int neededNodes) {}

    /** {@code needsApproval}: booked, it would wait as PENDING_APPROVAL for a tenant admin's approval. */
    record QuoteAnswer(
            boolean fits,
            Capacity capacity,
            @Nullable QuoteBody quote,
            @Nullable Map<String, Object> refusal,
            boolean needsApproval) {}

    private final Bookings bookings;

    QuotesController(Bookings bookings) {
        this.bookings = bookings;
    }

    @PostMapping
    QuoteAnswer quote(Caller caller, @PathVariable String tenant, @Valid @RequestBody ReservationRequest body) {
        Bookings.Quote quote = bookings.quote(caller, tenant, body.toRequest());
        Map<String, Object> refusal = null;
        AllotException refused = quote.refusal() != null ? quote.refusal() : quote.heldBack();
        if (refused != null) {
            refusal = new LinkedHashMap<>();
            refusal.put("code", refused.code());
            refusal.put("detail", refused.getMessage());
            refusal.putAll(refused.properties());
        }
        boolean capacityFits = quote.freeNodes() >= quote.neededNodes();
        return new QuoteAnswer(
                quote.fits(),
                new Capacity(capacityFits, quote.freeNodes(), quote.neededNodes()),
                quote.decision() == null ? null : QuoteBody.of(quote.decision()),
                refusal,
                quote.needsApproval());
    }
}
