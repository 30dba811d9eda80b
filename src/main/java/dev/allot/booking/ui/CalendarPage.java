package dev.allot.booking.ui;

import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.UiController;
import dev.allot.shared.web.ViewerTimes;
import dev.allot.tenancy.Tenant;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The capacity calendar, for everyone signed in. The page, one pool's row and all rows are the same templates;
 * {@code /calendar/events} tells open pages which rows to fetch again.
 */
@UiController
class CalendarPage {

	private final CalendarGrid grid;

	private final CapacityFeed feed;

	private final BookingAccess access;

	CalendarPage(CalendarGrid grid, CapacityFeed feed, BookingAccess access) {
		this.grid = grid;
		this.feed = feed;
		this.access = access;
	}

	@GetMapping("/calendar")
	String calendar(Caller caller, Model model, HttpServletRequest request, HttpSession session,
			@RequestParam(required = false) @Nullable Integer days, @RequestParam(required = false) @Nullable String step,
			@RequestParam(required = false) @Nullable String type, @RequestParam(defaultValue = "0") int page) {
		model.addAttribute("section", "calendar");
		model.addAttribute("cut", CalendarView.cut(days, step));
		grid(caller, model, request, session, days, step, type, page);
		return "booking/calendar";
	}

	@GetMapping("/calendar/rows")
	String rows(Caller caller, Model model, HttpServletRequest request, HttpSession session,
			@RequestParam(required = false) @Nullable Integer days, @RequestParam(required = false) @Nullable String step,
			@RequestParam(required = false) @Nullable String type, @RequestParam(defaultValue = "0") int page) {
		grid(caller, model, request, session, days, step, type, page);
		return "booking/calendar-rows :: rows";
	}

	@GetMapping("/calendar/row")
	String row(Caller caller, Model model, HttpServletRequest request, HttpSession session, @RequestParam String pool,
			@RequestParam(required = false) @Nullable Integer days, @RequestParam(required = false) @Nullable String step) {
		Tenant tenant = access.current(caller, session).orElse(null);
		CalendarView view = CalendarView.of(days, step);
		CalendarGrid.Row row = grid
			.row(caller, tenant == null ? null : tenant.slug(), pool, view, ViewerTimes.of(request), request.getContextPath())
			.orElseThrow(() -> AllotException.notFound("Pool " + pool));
		model.addAttribute("canBook", tenant != null && BookingAccess.canBook(caller, tenant));
		model.addAttribute("view", view);
		model.addAttribute("row", row);
		return "booking/calendar-rows :: row";
	}

	@GetMapping(path = "/calendar/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	SseEmitter events(HttpServletResponse response) {
		// Proxies must pass each event on at once rather than buffer the stream.
		response.setHeader("X-Accel-Buffering", "no");
		response.setHeader("Cache-Control", "no-cache");
		return feed.subscribe();
	}

	private void grid(Caller caller, Model model, HttpServletRequest request, HttpSession session,
			@Nullable Integer days, @Nullable String step, @Nullable String type, int page) {
		Tenant tenant = access.current(caller, session).orElse(null);
		model.addAttribute("tenant", tenant);
		model.addAttribute("canBook", tenant != null && BookingAccess.canBook(caller, tenant));
		model.addAttribute("grid", grid.grid(caller, tenant == null ? null : tenant.slug(), CalendarView.of(days, step),
				new CalendarGrid.Pools(type, page), ViewerTimes.of(request), request.getContextPath()));
	}

}
