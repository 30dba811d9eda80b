package dev.allot.booking.ui;

import dev.allot.booking.Bookings;
import dev.allot.booking.NowAndNext;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.booking.queue.BookingQueue;
import dev.allot.quota.QuotaExceededException;
import dev.allot.shared.AllotException;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.PageQuery;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.ViewerTimes;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** A tenant's reservations: the list with filters, and one reservation with its cancel and extend actions. */
@UiController
class ReservationsPage {

    private static final int PAGE_SIZE = 25;

    /** The list's filters as typed; days are the viewer's, {@code to} included. */
    record Filters(
            @Nullable String status,
            @Nullable String project,
            @Nullable String pool,
            @Nullable String from,
            @Nullable String to,
            @Nullable String sort,
            @Nullable String dir,
            @Nullable Integer page) {

        public String poolValue() {
            return pool == null ? "" : pool.strip();
        }

        public ReservationReads.Sort sorting() {
            return ReservationReads.Sort.named(sort);
        }

        public boolean descending() {
            return "desc".equalsIgnoreCase(dir == null ? "" : dir.strip());
        }

        /** The sort a column's header link asks for: that column ascending, or descending when it is sorted so. */
        public String dirFor(String column) {
            return sorting().param().equals(column) && !descending() ? "desc" : "asc";
        }

        /** The list's address with these filters, the sort given and a page: what the URL keeps. */
        public String query(String sortBy, String direction, int pageNumber) {
            StringBuilder query = new StringBuilder();
            append(query, "status", statusValue());
            append(query, "project", projectValue());
            append(query, "pool", poolValue());
            append(query, "from", fromValue());
            append(query, "to", toValue());
            if (!ReservationReads.Sort.UPCOMING.param().equals(sortBy)) {
                append(query, "sort", sortBy);
                append(query, "dir", direction);
            }
            if (pageNumber > 0) {
                append(query, "page", String.valueOf(pageNumber));
            }
            return query.toString();
        }

        /** The address of another page of the list as it is sorted now. */
        public String pageQuery(int pageNumber) {
            return query(sorting().param(), descending() ? "desc" : "asc", pageNumber);
        }

        private static void append(StringBuilder query, String name, String value) {
            if (!value.isEmpty()) {
                query.append(query.isEmpty() ? "" : "&")
                        .append(name)
                        .append('=')
                        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
        }

        /** {@code aria-sort} of a column's header. */
        public String ariaSort(String column) {
            if (!sorting().param().equals(column)) {
                return "none";
            }
            return descending() ? "descending" : "ascending";
        }

        public String statusValue() {
            return status == null ? "" : status.strip();
        }

        public String projectValue() {
            return project == null ? "" : project.strip();
        }

        public String fromValue() {
            return from == null ? "" : from.strip();
        }

        public String toValue() {
            return to == null ? "" : to.strip();
        }

        public int pageNumber() {
            return page == null || page < 0 ? 0 : page;
        }
    }

    /** A column of the list: its sort's name in the URL, its heading, whether it holds numbers. */
    record Column(String key, String label, boolean numeric) {}

    private static final List<Column> COLUMNS = List.of(
            new Column("reservation", "Reservation", false),
            new Column("status", "Status", false),
            new Column("project", "Project", false),
            new Column("pool", "Pool", false),
            new Column("gpus", "GPUs", true),
            new Column("starts", "Starts", false),
            new Column("ends", "Ends", false),
            new Column("price", "Price", true));

    record ExtendForm(
            @Nullable String end,
            @Nullable String tz,
            @Nullable String version) {}

    private final Bookings bookings;

    private final ReservationReads reads;

    private final Tenancy tenancy;

    private final BookingAccess access;

    private final Clock clock;

    private final BookingQueue queue;

    ReservationsPage(
            Bookings bookings,
            ReservationReads reads,
            Tenancy tenancy,
            BookingAccess access,
            Clock clock,
            BookingQueue queue) {
        this.queue = queue;
        this.bookings = bookings;
        this.reads = reads;
        this.tenancy = tenancy;
        this.access = access;
        this.clock = clock;
    }

    @GetMapping("/reservations")
    String mine(Caller caller, Model model, HttpSession session) {
        return access.current(caller, session)
                .map(tenant -> "redirect:/tenants/" + tenant.slug() + "/reservations")
                .orElseGet(() -> {
                    model.addAttribute("section", "reservations");
                    return "booking/no-tenant";
                });
    }

    @GetMapping("/tenants/{tenant}/reservations")
    String list(
            Caller caller,
            Model model,
            HttpServletRequest request,
            @PathVariable String tenant,
            @ModelAttribute Filters filters,
            @RequestHeader(name = "HX-Request", required = false) @Nullable String htmx,
            @RequestHeader(name = "HX-Boosted", required = false) @Nullable String boosted) {
        Tenant t = tenancy.readableInProjects(caller, tenant);
        ViewerTimes times = ViewerTimes.of(request);
        FormErrors errors = new FormErrors();
        ReservationStatus status = null;
        if (!filters.statusValue().isEmpty()) {
            try {
                status = ReservationStatus.valueOf(filters.statusValue());
            } catch (IllegalArgumentException ex) {
                errors.add("status", "Choose a status from the list");
            }
        }
        Instant from = day(filters.fromValue(), times, "from", errors);
        Instant toDay = day(filters.toValue(), times, "to", errors);
        Instant to = toDay == null ? null : toDay.plus(Duration.ofDays(1));
        if (from != null && to != null && !to.isAfter(from)) {
            errors.add("to", "Choose a day on or after the first day");
        }
        model.addAttribute("section", "reservations");
        model.addAttribute("tenant", t);
        model.addAttribute("filters", filters);
        model.addAttribute("errors", errors);
        model.addAttribute("statuses", ReservationStatus.values());
        model.addAttribute(
                "projects",
                tenancy.projects(caller, tenant, new PageQuery(0, PageQuery.MAX_SIZE))
                        .items());
        model.addAttribute("canBook", BookingAccess.canBook(caller, t));
        model.addAttribute("pools", reads.pools(t.id()));
        model.addAttribute("columns", COLUMNS);
        var page = errors.isEmpty()
                ? reads.list(
                        t.id(),
                        new ReservationReads.Filter(
                                status,
                                filters.projectValue().isEmpty() ? null : filters.projectValue(),
                                filters.poolValue().isEmpty() ? null : filters.poolValue(),
                                from,
                                to,
                                clock.instant()),
                        filters.sorting(),
                        filters.descending(),
                        new PageQuery(filters.pageNumber(), PAGE_SIZE))
                : null;
        model.addAttribute("reservations", page);
        model.addAttribute("lastPage", page == null ? 0 : Math.max(0, (page.totalItems() - 1) / PAGE_SIZE));
        return htmx != null && boosted == null ? "booking/reservations :: results" : "booking/reservations";
    }

    @GetMapping("/tenants/{tenant}/reservations/{id}")
    String detail(
            Caller caller,
            Model model,
            HttpServletRequest request,
            @PathVariable String tenant,
            @PathVariable UUID id) {
        return render(caller, model, tenant, id, new FormErrors(), null, ViewerTimes.of(request));
    }

    @PostMapping("/tenants/{tenant}/reservations/{id}/cancel")
    String cancel(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpServletResponse response,
            @PathVariable String tenant,
            @PathVariable UUID id,
            RedirectAttributes redirect) {
        try {
            Reservation cancelled = bookings.cancel(caller, tenant, id);
            redirect.addFlashAttribute(
                    "notice",
                    "Cancelled the reservation of " + cancelled.gpus() + " GPUs of " + cancelled.pool()
                            + "; its nodes are free again.");
            return "redirect:/tenants/" + tenant + "/reservations/" + id;
        } catch (AllotException refused) {
            FormErrors errors = new FormErrors().add(refused, "cancel");
            response.setStatus(refused.status());
            return render(caller, model, tenant, id, errors, null, ViewerTimes.of(request));
        }
    }

    @PostMapping("/tenants/{tenant}/reservations/{id}/extend")
    String extend(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpServletResponse response,
            @PathVariable String tenant,
            @PathVariable UUID id,
            @ModelAttribute ExtendForm form,
            RedirectAttributes redirect) {
        ViewerTimes times = new ViewerTimes(ViewerTimes.zone(form.tz()));
        FormErrors errors = new FormErrors();
        Instant end = times.parse(form.end());
        if (end == null) {
            errors.add("end", "Enter the new end date and time");
        } else {
            try {
                Reservation extended = bookings.extend(
                        caller, tenant, id, end.truncatedTo(ChronoUnit.MINUTES), "\"" + form.version() + "\"");
                redirect.addFlashAttribute(
                        "notice",
                        "Extended the reservation to " + times.local(extended.endsAt()) + " (" + times.zoneName()
                                + ").");
                return "redirect:/tenants/" + tenant + "/reservations/" + id;
            } catch (InvalidInputException invalid) {
                invalid.errors().forEach(e -> errors.add("end", BookingForm.capitalised(e.message())));
            } catch (QuotaExceededException refused) {
                errors.add("end", "Your quota refuses it: " + refused.getMessage() + ".");
            } catch (AllotException refused) {
                if (refused.status() == 412) {
                    errors.add(
                            "end",
                            "The reservation changed since you opened this page; see it as it is now and "
                                    + "try again.");
                } else if ("capacity_not_available".equals(refused.code())) {
                    errors.add(
                            "end",
                            "Its nodes are not all free until " + times.local(end) + " " + times.zoneName()
                                    + "; choose an earlier end, or book more time separately.");
                } else {
                    errors.add(refused, "end");
                }
            }
        }
        response.setStatus(400);
        return render(caller, model, tenant, id, errors, form.end(), ViewerTimes.of(request));
    }

    private String render(
            Caller caller,
            Model model,
            String tenant,
            UUID id,
            FormErrors errors,
            @Nullable String typedEnd,
            ViewerTimes times) {
        Tenant t = tenancy.readableInProjects(caller, tenant);
        Reservation reservation = bookings.get(caller, tenant, id);
        Instant now = clock.instant();
        ReservationStatus status = reservation.status(now);
        model.addAttribute("section", "reservations");
        model.addAttribute("tenant", t);
        model.addAttribute("r", reservation);
        model.addAttribute("status", status);
        model.addAttribute(
                "warning", NowAndNext.warning(status, status == ReservationStatus.ACTIVE && reads.degraded(id)));
        model.addAttribute(
                "changeable",
                t.isActive()
                        && caller.canBookIn(tenant, reservation.project())
                        && (status == ReservationStatus.CONFIRMED
                                || status == ReservationStatus.ACTIVE
                                || status == ReservationStatus.QUEUED));
        model.addAttribute(
                "queuePosition", queue.positions(List.of(reservation)).get(id));
        model.addAttribute("errors", errors);
        model.addAttribute(
                "extendTo",
                typedEnd != null ? typedEnd : times.input(reservation.endsAt().plus(Duration.ofHours(24))));
        model.addAttribute(
                "keys",
                reservation.cluster().sshPublicKeys().stream()
                        .map(ReservationsPage::keySummary)
                        .toList());
        return "booking/reservation";
    }

    /** A key as people recognise it: its type and comment, not its base64. */
    static String keySummary(String key) {
        String[] parts = key.strip().split("\\s+", 3);
        return parts.length == 3
                ? parts[0] + " " + parts[2]
                : parts[0] + " …" + key.substring(Math.max(0, key.length() - 12));
    }

    private static @Nullable Instant day(String value, ViewerTimes times, String field, FormErrors errors) {
        if (value.isEmpty()) {
            return null;
        }
        try {
            return LocalDate.parse(value).atStartOfDay(times.zone()).toInstant();
        } catch (DateTimeParseException ex) {
            errors.add(field, "Enter a date such as 2027-01-31");
            return null;
        }
    }
}
