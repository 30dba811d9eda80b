package dev.allot.booking.ui;

import dev.allot.booking.BookingRequest;
import dev.allot.booking.Bookings;
import dev.allot.booking.calendar.Capacity;
import dev.allot.booking.queue.BookingQueue;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.quota.QuotaExceededException;
import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.Quotas;
import dev.allot.shared.AllotException;
import dev.allot.shared.IdempotencyKey;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.ViewerTimes;
import dev.allot.tenancy.Project;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import tools.jackson.databind.json.JsonMapper;

/**
 * Book GPUs: the form, its live quote (htmx posts the form to {@code /book/quote} as it changes), one-click
 * suggestions of the earliest windows that fit, and the booking itself, with the form's idempotency key so that
 * a double click or a resubmitted page books once. A refusal re-renders the form with the reason and fresh
 * suggestions; it is never an error page.
 */
@UiController
class BookingPage {

    private final Bookings bookings;

    private final Capacity capacity;

    private final Inventory inventory;

    private final Quotas quotas;

    private final Tenancy tenancy;

    private final PoolCatalog catalog;

    private final BookingAccess access;

    private final TransactionTemplate readOnly;

    private final JsonMapper json;

    BookingPage(
            Bookings bookings,
            Capacity capacity,
            Inventory inventory,
            Quotas quotas,
            Tenancy tenancy,
            PoolCatalog catalog,
            BookingAccess access,
            PlatformTransactionManager transactions,
            JsonMapper json) {
        this.bookings = bookings;
        this.capacity = capacity;
        this.inventory = inventory;
        this.quotas = quotas;
        this.tenancy = tenancy;
        this.catalog = catalog;
        this.access = access;
        this.json = json;
        this.readOnly = new TransactionTemplate(transactions);
        this.readOnly.setReadOnly(true);
    }

    @GetMapping("/book")
    String form(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpSession session,
            @RequestParam(required = false) @Nullable String pool,
            @RequestParam(required = false) @Nullable String start,
            @RequestParam(required = false) @Nullable String end,
            @RequestParam(required = false) @Nullable String gpus,
            @RequestParam(required = false) @Nullable String project) {
        Optional<Tenant> tenant = access.current(caller, session);
        Instant from = instant(start);
        Instant to = instant(end);
        String chosenPool = pool;
        List<Pool> offered = pools(caller, tenant.orElse(null));
        if (chosenPool == null || offered.stream().noneMatch(p -> p.name().equals(pool))) {
            Set<String> types = quotaTypes(caller, tenant.orElse(null));
            chosenPool = offered.stream()
                    .sorted(Comparator.comparing((Pool p) ->
                            types != null && !types.contains(p.gpuType().code())))
                    .findFirst()
                    .map(Pool::name)
                    .orElse(null);
        }
        String defaultGpus = gpus != null
                ? gpus
                : chosenPool == null
                        ? ""
                        : String.valueOf(inventory
                                .pool(chosenPool)
                                .map(Pool::gpusPerNode)
                                .orElse(8));
        String chosenProject = project;
        if (chosenProject == null && tenant.isPresent() && BookingAccess.canBook(caller, tenant.get())) {
            chosenProject = tenancy.projects(caller, tenant.get().slug(), new PageQuery(0, 1)).items().stream()
                    .findFirst()
                    .map(Project::slug)
                    .orElse(null);
        }
        BookingForm form =
                BookingForm.prefill(ViewerTimes.of(request), chosenProject, chosenPool, defaultGpus, from, to);
        FormErrors errors = new FormErrors();
        QuoteView quote =
                tenant.isPresent() && BookingAccess.canBook(caller, tenant.get()) && from != null && to != null
                        ? quote(caller, tenant.get(), form)
                        : null;
        return render(caller, model, tenant.orElse(null), form, errors, quote);
    }

    /** The quote alone, for htmx as the form changes. */
    @PostMapping("/book/quote")
    String quote(Caller caller, Model model, HttpSession session, @ModelAttribute BookingForm form) {
        Tenant tenant = bookable(caller, session);
        model.addAttribute("quote", quote(caller, tenant, form));
        model.addAttribute("form", form);
        model.addAttribute("canBook", true);
        return "booking/book :: quote";
    }

    /** The form again for another pool (its drivers, its limits) with a fresh quote, for htmx. */
    @PostMapping("/book/form")
    String changePool(Caller caller, Model model, HttpSession session, @ModelAttribute BookingForm form) {
        Tenant tenant = bookable(caller, session);
        render(caller, model, tenant, form, new FormErrors(), quote(caller, tenant, form));
        return "booking/book :: area";
    }

    /** One click on a suggested window: the same form with that window. */
    @PostMapping("/book/take")
    String take(
            Caller caller,
            Model model,
            HttpSession session,
            @ModelAttribute BookingForm form,
            @RequestParam(required = false) @Nullable String take) {
        Tenant tenant = bookable(caller, session);
        BookingForm chosen = form;
        if (take != null && take.contains("/")) {
            Instant from = instant(take.substring(0, take.indexOf('/')));
            Instant to = instant(take.substring(take.indexOf('/') + 1));
            if (from != null && to != null) {
                chosen = form.withWindow(from, to);
            }
        }
        return render(caller, model, tenant, chosen, new FormErrors(), quote(caller, tenant, chosen));
    }

    @PostMapping("/book")
    String book(
            Caller caller,
            Model model,
            HttpServletResponse response,
            HttpSession session,
            @ModelAttribute BookingForm form,
            RedirectAttributes redirect) {
        Tenant tenant = bookable(caller, session);
        FormErrors errors = new FormErrors();
        BookingRequest request = form.toRequest(drivers(form.pool()), errors);
        BookingQueue.StartWindow queueWithin = form.queueWithin(errors);
        BookingForm shown = form;
        if (request != null && errors.isEmpty()) {
            try {
                // the form's key, generated when the form was first shown: a double click or a resubmit books once
                IdempotencyKey key = IdempotencyKey.of(
                        caller.subject(), form.key(), "booking-form", json.writeValueAsBytes(request));
                Bookings.Booked booked = bookings.book(caller, tenant.slug(), key, request, queueWithin);
                redirect.addFlashAttribute(
                        "notice",
                        booked.replayed()
                                ? "This form had already booked the reservation below."
                                : booked.queued()
                                        ? "Nothing was free for the whole window, so the booking waits in the queue of "
                                                + request.pool() + "."
                                        : "Booked " + request.gpus() + " GPUs of " + request.pool() + ".");
                return "redirect:/tenants/" + tenant.slug() + "/reservations/"
                        + booked.reservation().id();
            } catch (InvalidInputException invalid) {
                BookingForm.addRefusal(invalid, errors);
                response.setStatus(400);
            } catch (QuotaExceededException refused) {
                errors.add(
                        field(refused.properties().get("field")),
                        "Your quota refuses this booking: " + refused.getMessage() + ".");
                response.setStatus(422);
            } catch (AllotException refused) {
                if ("capacity_not_available".equals(refused.code())) {
                    errors.add(
                            FormErrors.FORM,
                            "Not enough nodes are free for the whole window (someone may have booked "
                                    + "them a moment ago), so nothing was booked. The quote is fresh: take one of the windows it "
                                    + "suggests, or change the form.");
                } else if ("idempotency_key_reused".equals(refused.code())) {
                    errors.add(
                            FormErrors.FORM,
                            "This form already booked a reservation with other values; nothing new "
                                    + "was booked. Check your reservations, or book again with the values below.");
                    shown = form.withNewKey();
                } else {
                    errors.add(refused, FormErrors.FORM);
                }
                response.setStatus(refused.status());
            }
        } else {
            response.setStatus(400);
        }
        return render(caller, model, tenant, shown, errors, quote(caller, tenant, shown));
    }

    /** The form's field a quota refusal names. */
    private static String field(@Nullable Object named) {
        return switch (String.valueOf(named)) {
            case "startsAt" -> "start";
            case "endsAt" -> "end";
            case "gpus" -> "gpus";
            default -> FormErrors.FORM;
        };
    }

    private QuoteView quote(Caller caller, Tenant tenant, BookingForm form) {
        FormErrors errors = new FormErrors();
        BookingRequest request = form.toRequest(drivers(form.pool()), errors);
        if (request == null) {
            return QuoteView.incomplete(List.copyOf(errors.asMap().values()));
        }
        try {
            Bookings.Quote quote = bookings.quote(caller, tenant.slug(), request);
            List<Capacity.Fit> suggestions = quote.fits() ? List.of() : suggestions(caller, tenant, request);
            return QuoteView.of(quote, request.cluster().cudaDriver(), suggestions);
        } catch (InvalidInputException invalid) {
            List<String> problems = new ArrayList<>();
            invalid.errors().forEach(e -> problems.add(BookingForm.labelled(e.field(), e.message())));
            return QuoteView.incomplete(problems);
        } catch (AllotException refused) {
            if (refused.status() == 404) {
                throw refused;
            }
            return QuoteView.incomplete(List.of(String.valueOf(refused.getMessage())));
        }
    }

    private List<Capacity.Fit> suggestions(Caller caller, Tenant tenant, BookingRequest request) {
        try {
            Duration length = request.window().duration();
            // Capacity.earliest skips windows the quota refuses by catching the refusal inside its read-only
            // transaction, which the refusal has already marked rollback-only; committing it would then fail. In a
            // transaction of our own that we roll back ourselves, the answer comes through.
            return readOnly.execute(status -> {
                status.setRollbackOnly();
                return capacity.earliest(
                        caller,
                        request.pool(),
                        request.gpus(),
                        length,
                        request.window().start(),
                        tenant.slug());
            });
        } catch (AllotException cannot) {
            // A refusal no window can cure (window too long, too far ahead, no quota): no suggestions.
            return List.of();
        }
    }

    private String render(
            Caller caller,
            Model model,
            @Nullable Tenant tenant,
            BookingForm form,
            FormErrors errors,
            @Nullable QuoteView quote) {
        model.addAttribute("section", "calendar");
        model.addAttribute("tenant", tenant);
        boolean canBook = tenant != null && BookingAccess.canBook(caller, tenant);
        model.addAttribute("canBook", canBook);
        model.addAttribute("form", form);
        model.addAttribute("errors", errors);
        model.addAttribute("quote", quote);
        List<Pool> pools = pools(caller, tenant);
        // the team's pools first; those of a GPU type it has no quota for apart, marked
        Set<String> types = quotaTypes(caller, tenant);
        model.addAttribute(
                "ownPools",
                pools.stream()
                        .filter(p -> types == null || types.contains(p.gpuType().code()))
                        .toList());
        model.addAttribute(
                "otherPools",
                pools.stream()
                        .filter(p ->
                                types != null && !types.contains(p.gpuType().code()))
                        .toList());
        Pool pool = pools.stream()
                .filter(p -> p.name().equals(form.pool()))
                .findFirst()
                .orElse(null);
        model.addAttribute("pool", pool);
        model.addAttribute("drivers", pool == null ? List.of() : catalog.drivers(pool.name()));
        if (canBook && tenant != null) {
            model.addAttribute(
                    "projects",
                    tenancy.projects(caller, tenant.slug(), new PageQuery(0, PageQuery.MAX_SIZE)).items().stream()
                            .filter(project -> caller.canBookIn(tenant.slug(), project.slug()))
                            .toList());
            QuotaPolicy policy = pool == null
                    ? null
                    : quotas.quota(caller, tenant.slug()).policies().stream()
                            .filter(p -> p.gpuType().equals(pool.gpuType().code()))
                            .findFirst()
                            .orElse(null);
            model.addAttribute("policy", policy == null ? null : new Limits(policy));
        }
        return "booking/book";
    }

    /** The tenant's quota for the pool's GPU type, as the form shows it. */
    record Limits(QuotaPolicy policy) {

        public String window() {
            return Durations.text(policy.maxWindow());
        }

        public String advance() {
            return Durations.text(policy.maxAdvance());
        }
    }

    private Tenant bookable(Caller caller, HttpSession session) {
        Tenant tenant =
                access.current(caller, session).orElseThrow(() -> AllotException.forbidden("Not a member of a tenant"));
        if (!BookingAccess.canBook(caller, tenant)) {
            throw AllotException.forbidden("Your role in " + tenant.slug() + " does not book");
        }
        return tenant;
    }

    /** The pools the form offers: those open to the tenant it books for, else those the caller may see. */
    private List<Pool> pools(Caller caller, @Nullable Tenant tenant) {
        return tenant != null ? inventory.poolsOpenTo(tenant.slug()) : inventory.allPools(caller);
    }

    /** The GPU types the tenant has a quota for; null when the caller books for no tenant (no pool is set apart). */
    private @Nullable Set<String> quotaTypes(Caller caller, @Nullable Tenant tenant) {
        if (tenant == null || !BookingAccess.canBook(caller, tenant)) {
            return null;
        }
        return quotas.quota(caller, tenant.slug()).policies().stream()
                .map(QuotaPolicy::gpuType)
                .collect(Collectors.toSet());
    }

    private List<String> drivers(@Nullable String pool) {
        return pool == null || pool.isBlank() ? List.of() : catalog.drivers(pool.strip());
    }

    private static @Nullable Instant instant(@Nullable String value) {
        try {
            return value == null || value.isBlank() ? null : Instant.parse(value.strip());
        } catch (DateTimeParseException ex) {
            return null;
        }
    }
}
