package dev.allot.booking.ui;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.allot.booking.Bookings;
import dev.allot.booking.Capacity;
import dev.allot.booking.Reservation;
import dev.allot.booking.ReservationStatus;
import dev.allot.inventory.Inventory;
import dev.allot.inventory.Pool;
import dev.allot.shared.PageQuery;
import dev.allot.shared.PageResponse;
import dev.allot.shared.security.Caller;
import dev.allot.shared.web.ViewerTimes;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * The calendar as a grid: pools as rows, buckets of time as columns, each cell the GPUs available with the
 * counts behind it. Counts come from the maintained capacity aggregate; the viewer's own tenant's reservations
 * are marked, other tenants' stay anonymous counts.
 */
@Component
class CalendarGrid {

	/** Own reservations read at most this many (a tenant with more in the window sees the first ones marked). */
	static final int MAX_OWN = 2_000;

	private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEE d", Locale.ENGLISH);

	private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("MMMM yyyy", Locale.ENGLISH);

	private static final DateTimeFormatter DAY_LONG = DateTimeFormatter.ofPattern("EEE d MMM", Locale.ENGLISH);

	private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("HH", Locale.ENGLISH);

	private static final DateTimeFormatter LONG = DateTimeFormatter.ofPattern("EEE d MMM HH:mm", Locale.ENGLISH);

	record Column(Instant start, Instant end, String label, String group) {
	}

	/** Spans of the header row above the columns: months (daily) or days (hourly). */
	record Group(String label, int span) {
	}

	record Cell(String id, Instant start, Instant end, int total, int available, int allocated, int unhealthy,
			int mine, int level, String description) {
	}

	record Row(Pool pool, List<Cell> cells) {

		public String id() {
			return "row-" + pool.name();
		}

	}

	record Grid(CalendarView view, Instant from, Instant to, List<Column> columns, List<Group> groups, List<Row> rows) {
	}

	private final Capacity capacity;

	private final Inventory inventory;

	private final Bookings bookings;

	private final Clock clock;

	CalendarGrid(Capacity capacity, Inventory inventory, Bookings bookings, Clock clock) {
		this.capacity = capacity;
		this.inventory = inventory;
		this.bookings = bookings;
		this.clock = clock;
	}

	Grid grid(Caller caller, @Nullable String tenant, CalendarView view, ViewerTimes times) {
		Instant now = clock.instant();
		Instant from = view.from(now, times);
		Instant to = view.to(now, times);
		List<Reservation> own = own(caller, tenant, from, to);
		List<Column> columns = columns(view, from, to, times);
		List<Row> rows = inventory.pools(new PageQuery(0, PageQuery.MAX_SIZE)).items().stream()
			.map(pool -> row(caller, pool, view, from, to, own, times))
			.toList();
		return new Grid(view, from, to, columns, groups(columns), rows);
	}

	Optional<Row> row(Caller caller, @Nullable String tenant, String poolName, CalendarView view, ViewerTimes times) {
		Instant now = clock.instant();
		Instant from = view.from(now, times);
		Instant to = view.to(now, times);
		return inventory.pool(poolName).map(pool -> row(caller, pool, view, from, to, own(caller, tenant, from, to), times));
	}

	private Row row(Caller caller, Pool pool, CalendarView view, Instant from, Instant to, List<Reservation> own,
			ViewerTimes times) {
		Duration step = view.stepDuration();
		Capacity.Calendar calendar = capacity.calendar(caller, pool.name(), from, to, step);
		List<Reservation> mineHere = own.stream().filter(r -> r.pool().equals(pool.name())).toList();
		List<Cell> cells = new ArrayList<>();
		int index = 0;
		for (Capacity.Bucket bucket : calendar.buckets()) {
			Instant end = bucket.start().plus(step);
			int mine = mineHere.stream()
				.filter(r -> r.startsAt().isBefore(end) && r.endsAt().isAfter(bucket.start()))
				.mapToInt(Reservation::gpus)
				.sum();
			String when = view.hourly() ? LONG.format(bucket.start().atZone(times.zone()))
					: DAY_LONG.format(bucket.start().atZone(times.zone()));
			String description = pool.name() + ", " + when + ": " + bucket.availableGpus() + " of " + bucket.totalGpus()
					+ " GPUs available, " + bucket.allocatedGpus() + " allocated, " + bucket.unhealthyGpus() + " unhealthy"
					+ (mine > 0 ? "; your reservations hold " + mine : "");
			cells.add(new Cell("c-" + pool.name() + "-" + index++, bucket.start(), end, bucket.totalGpus(),
					bucket.availableGpus(), bucket.allocatedGpus(), bucket.unhealthyGpus(), mine,
					level(bucket.availableGpus(), bucket.totalGpus()), description));
		}
		return new Row(pool, cells);
	}

	/** 0: none free; 1-4: up to a quarter, half, three quarters, more. Colour follows it, text always shows it. */
	static int level(int available, int total) {
		if (total <= 0 || available <= 0) {
			return 0;
		}
		return Math.min(4, 1 + (int) Math.floor(4.0 * available / total - 1e-9));
	}

	private List<Reservation> own(Caller caller, @Nullable String tenant, Instant from, Instant to) {
		if (tenant == null) {
			return List.of();
		}
		List<Reservation> own = new ArrayList<>();
		for (int page = 0; own.size() < MAX_OWN; page++) {
			PageResponse<Reservation> batch = bookings.list(caller, tenant, null, from, to,
					new PageQuery(page, PageQuery.MAX_SIZE));
			batch.items().stream().filter(r -> r.status(clock.instant()) != ReservationStatus.CANCELLED)
				.forEach(own::add);
			if ((long) (page + 1) * PageQuery.MAX_SIZE >= batch.totalItems()) {
				break;
			}
		}
		return own;
	}

	private static List<Column> columns(CalendarView view, Instant from, Instant to, ViewerTimes times) {
		List<Column> columns = new ArrayList<>();
		Duration step = view.stepDuration();
		for (Instant start = from; start.isBefore(to); start = start.plus(step)) {
			var local = start.atZone(times.zone());
			columns.add(view.hourly() ? new Column(start, start.plus(step), HOUR.format(local), DAY_LONG.format(local))
					: new Column(start, start.plus(step), DAY.format(local), MONTH.format(local)));
		}
		return columns;
	}

	private static List<Group> groups(List<Column> columns) {
		List<Group> groups = new ArrayList<>();
		for (Column column : columns) {
			if (!groups.isEmpty() && groups.getLast().label().equals(column.group())) {
				Group last = groups.removeLast();
				groups.add(new Group(last.label(), last.span() + 1));
			}
			else {
				groups.add(new Group(column.group(), 1));
			}
		}
		return groups;
	}

}
