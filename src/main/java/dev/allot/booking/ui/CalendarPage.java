package dev.allot.booking.ui;

import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.ViewerTimes;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.time.LocalDate;
import java.time.ZoneId;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The capacity calendar, for everyone signed in: a page that carries its heatmap's data (read once, in the same
 * request, so the heatmap is drawn without a second round trip), {@code /calendar/data}, which answers the same for
 * one changed pool or another zone, and {@code /calendar/events}, which tells open pages which pools to read again.
 * The data is in the zone the browser names ({@code tz}, or the cookie it set before the first page), so the
 * calendar is in the viewer's zone from the first page.
 */
@UiController
class CalendarPage {

    static final int MAX_FILTER = 50;

    private final Heatmap heatmap;

    private final CapacityFeed feed;

    private final BookingAccess access;

    private final JsonMapper json;

    CalendarPage(Heatmap heatmap, CapacityFeed feed, BookingAccess access, JsonMapper json) {
        this.heatmap = heatmap;
        this.feed = feed;
        this.access = access;
        this.json = json;
    }

    @GetMapping("/calendar")
    String calendar(
            Caller caller,
            Model model,
            HttpServletRequest request,
            HttpSession session,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable Integer days,
            @RequestParam(required = false) @Nullable String step,
            @RequestParam(required = false) @Nullable String q) {
        Tenant tenant = access.current(caller, session).orElse(null);
        ZoneId zone = ViewerTimes.of(request).zone();
        boolean canBook = tenant != null && BookingAccess.canBook(caller, tenant);
        CalendarView view = CalendarView.of(from, days, step, LocalDate.now(zone));
        // Marked before the read: the page's event stream then names every pool changed after it.
        String since = feed.mark();
        Heatmap.Data data = heatmap.data(
                caller,
                tenant == null ? null : tenant.slug(),
                tenant == null ? null : tenant.displayName(),
                canBook,
                view,
                zone,
                filter(q),
                null);
        model.addAttribute("section", "calendar");
        model.addAttribute("tenant", tenant);
        model.addAttribute("canBook", canBook);
        model.addAttribute("view", view);
        model.addAttribute("fromAsked", from != null && !from.isBlank());
        model.addAttribute("cut", CalendarView.cut(days, step));
        model.addAttribute("q", filter(q));
        // In a <script> element: "<" as its JSON escape, so no "</script>" in a pool's name can end it.
        model.addAttribute("heatmapData", json.writeValueAsString(data).replace("<", "\\u003c"));
        model.addAttribute("since", since);
        return "booking/calendar";
    }

    @GetMapping(path = "/calendar/data", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    Heatmap.Data data(
            Caller caller,
            HttpServletRequest request,
            HttpSession session,
            @RequestParam(required = false) @Nullable String from,
            @RequestParam(required = false) @Nullable Integer days,
            @RequestParam(required = false) @Nullable String step,
            @RequestParam(required = false) @Nullable String tz,
            @RequestParam(required = false) @Nullable String q,
            @RequestParam(required = false) @Nullable String pool) {
        Tenant tenant = access.current(caller, session).orElse(null);
        // The browser's zone as it names it; the cookie's (or UTC) when it names none or one unknown here.
        ZoneId zone = tz != null && !tz.isBlank()
                ? ViewerTimes.zone(tz)
                : ViewerTimes.of(request).zone();
        CalendarView view = CalendarView.of(from, days, step, LocalDate.now(zone));
        Heatmap.Data data = heatmap.data(
                caller,
                tenant == null ? null : tenant.slug(),
                tenant == null ? null : tenant.displayName(),
                tenant != null && BookingAccess.canBook(caller, tenant),
                view,
                zone,
                filter(q),
                pool);
        if (pool != null && data.pools().isEmpty()) {
            throw AllotException.notFound("Pool " + pool);
        }
        return data;
    }

    /** What to look for in pools' names, GPU types and regions: at most {@value #MAX_FILTER} characters. */
    private static String filter(@Nullable String q) {
        String value = q == null ? "" : q.strip();
        return value.length() > MAX_FILTER ? value.substring(0, MAX_FILTER) : value;
    }

    @GetMapping(path = "/calendar/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter events(HttpServletResponse response, @RequestParam(required = false) @Nullable String since) {
        // Proxies must pass each event on at once rather than buffer the stream.
        response.setHeader("X-Accel-Buffering", "no");
        response.setHeader("Cache-Control", "no-cache");
        return feed.subscribe(since);
    }
}
