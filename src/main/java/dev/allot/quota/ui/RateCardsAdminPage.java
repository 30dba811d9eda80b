package dev.allot.quota.ui;

import dev.allot.inventory.GpuType;
import dev.allot.inventory.Inventory;
import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import jakarta.servlet.http.HttpServletResponse;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Admin → Rate cards: prices per GPU-hour of each GPU type and rate class, each in effect from a date (UTC). */
@UiController
class RateCardsAdminPage {

    /** A GPU type's cards, oldest first, and the one in effect today. */
    record TypeCards(
            GpuType type, List<RateCard> cards, @Nullable RateCard current) {}

    record CardForm(
            @Nullable String gpuType,
            @Nullable String effectiveFrom,
            @Nullable String currency,
            @Nullable String reserved,
            @Nullable String borrowed,
            @Nullable String onDemand) {

        static CardForm empty(LocalDate today) {
            return new CardForm("", today.toString(), "USD", "", "", "");
        }

        @Nullable
        RateCard toCard(FormErrors errors) {
            String type = QuotaForm.clean(gpuType);
            if (type.isEmpty()) {
                errors.add("gpuType", "Choose a GPU type");
            }
            LocalDate from = null;
            try {
                from = LocalDate.parse(QuotaForm.clean(effectiveFrom));
            } catch (DateTimeParseException ex) {
                errors.add("effectiveFrom", "Enter a date such as 2027-01-01");
            }
            String code = QuotaForm.clean(currency).toUpperCase(Locale.ROOT);
            if (!code.matches("^[A-Z]{3}$")) {
                errors.add("currency", "Enter a three-letter currency code such as USD");
            }
            Map<RateClass, BigDecimal> prices = new EnumMap<>(RateClass.class);
            price(reserved, "reserved", RateClass.RESERVED, prices, errors);
            price(borrowed, "borrowed", RateClass.BORROWED, prices, errors);
            price(onDemand, "onDemand", RateClass.ON_DEMAND, prices, errors);
            if (!errors.isEmpty() || from == null) {
                return null;
            }
            try {
                return new RateCard(type, from, code, prices);
            } catch (InvalidInputException invalid) {
                errors.add(invalid, "form");
                return null;
            }
        }

        private static void price(
                @Nullable String value,
                String field,
                RateClass rateClass,
                Map<RateClass, BigDecimal> prices,
                FormErrors errors) {
            try {
                BigDecimal price = new BigDecimal(QuotaForm.clean(value));
                if (price.signum() < 0 || price.scale() > RateCard.SCALE || price.precision() - price.scale() > 10) {
                    errors.add(field, "Enter a price of 0 or more with at most 4 decimals");
                } else {
                    prices.put(rateClass, price);
                }
            } catch (NumberFormatException ex) {
                errors.add(field, "Enter a price per GPU-hour such as 2.50");
            }
        }
    }

    private final Quotas quotas;

    private final Inventory inventory;

    private final Clock clock;

    RateCardsAdminPage(Quotas quotas, Inventory inventory, Clock clock) {
        this.quotas = quotas;
        this.inventory = inventory;
        this.clock = clock;
    }

    @GetMapping("/admin/rate-cards")
    String list(Caller caller, Model model) {
        return render(caller, model, CardForm.empty(today()), new FormErrors());
    }

    @PostMapping("/admin/rate-cards")
    String put(
            Caller caller,
            Model model,
            HttpServletResponse response,
            @ModelAttribute CardForm form,
            RedirectAttributes redirect) {
        caller.requirePlatformAdmin();
        FormErrors errors = new FormErrors();
        RateCard card = form.toCard(errors);
        if (card != null) {
            try {
                // The form has no storage line: a card saved here keeps the one in effect at its date.
                RateCard kept = card;
                card = quotas.rateCards(card.gpuType()).stream()
                        .filter(c -> !c.effectiveFrom().isAfter(kept.effectiveFrom()))
                        .reduce((a, b) -> b)
                        .map(c -> new RateCard(
                                kept.gpuType(),
                                kept.effectiveFrom(),
                                kept.currency(),
                                kept.prices(),
                                c.storagePerGiMonth()))
                        .orElse(card);
                quotas.putRateCard(caller, card);
                redirect.addFlashAttribute(
                        "notice",
                        "Saved the " + card.gpuType() + " rate card in effect from " + card.effectiveFrom() + ".");
                return "redirect:/admin/rate-cards";
            } catch (AllotException refused) {
                errors.add(refused, "gpuType");
            }
        }
        response.setStatus(400);
        return render(caller, model, form, errors);
    }

    private String render(Caller caller, Model model, CardForm form, FormErrors errors) {
        caller.requireReadsEverything();
        LocalDate today = today();
        List<TypeCards> types = inventory.gpuTypes(new PageQuery(0, PageQuery.MAX_SIZE)).items().stream()
                .map(type -> {
                    List<RateCard> cards = quotas.rateCards(type.code());
                    RateCard current = cards.stream()
                            .filter(c -> !c.effectiveFrom().isAfter(today))
                            .reduce((a, b) -> b)
                            .orElse(null);
                    return new TypeCards(type, cards, current);
                })
                .toList();
        model.addAttribute("section", "admin");
        model.addAttribute("types", types);
        model.addAttribute("rateClasses", RateClass.values());
        model.addAttribute("canChange", caller.isPlatformAdmin());
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        return "admin/rate-cards";
    }

    private LocalDate today() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC));
    }
}
