package dev.allot.quota.api;

import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.security.Caller;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Prices per GPU-hour and rate class; a PUT adds (or replaces) the card in effect from its date on. */
@RestController
@RequestMapping("/api/v1/rate-cards/{gpuType}")
class RateCardsController {

    /** {@code storagePerGiMonth}: the storage line, per GiB of volume held for a month (730 hours). */
    record CardBody(
            LocalDate effectiveFrom, String currency, Map<RateClass, BigDecimal> prices, BigDecimal storagePerGiMonth) {
        static CardBody of(RateCard card) {
            return new CardBody(card.effectiveFrom(), card.currency(), card.prices(), card.storagePerGiMonth());
        }
    }

    /** {@code storagePerGiMonth}: absent is 0 (storage not charged). */
    record PutCard(
            @Nullable LocalDate effectiveFrom,
            @NotBlank String currency,
            @NotNull Map<RateClass, BigDecimal> prices,
            @Nullable BigDecimal storagePerGiMonth) {}

    /** {@code current} is the card in effect today; {@code cards} every card, oldest first. */
    record RateCardsBody(String gpuType, @Nullable CardBody current, List<CardBody> cards) {}

    private final Quotas quotas;

    private final Clock clock;

    RateCardsController(Quotas quotas, Clock clock) {
        this.quotas = quotas;
        this.clock = clock;
    }

    @GetMapping
    RateCardsBody get(Caller caller, @PathVariable String gpuType) {
        return body(gpuType, quotas.rateCards(gpuType));
    }

    @PutMapping
    RateCardsBody put(Caller caller, @PathVariable String gpuType, @Valid @RequestBody PutCard body) {
        LocalDate from = body.effectiveFrom() != null ? body.effectiveFrom() : today();
        return body(
                gpuType,
                quotas.putRateCard(
                        caller,
                        new RateCard(
                                gpuType,
                                from,
                                body.currency(),
                                body.prices(),
                                Objects.requireNonNullElse(body.storagePerGiMonth(), BigDecimal.ZERO))));
    }

    private RateCardsBody body(String gpuType, List<RateCard> cards) {
        LocalDate today = today();
        CardBody current = cards.stream()
                .filter(c -> !c.effectiveFrom().isAfter(today))
                .reduce((a, b) -> b)
                .map(CardBody::of)
                .orElse(null);
        return new RateCardsBody(
                gpuType, current, cards.stream().map(CardBody::of).toList());
    }

    private LocalDate today() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC));
    }
}
