package dev.allot.demo;

import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Runs the application's own background work at the times the demo's history needs it, while the {@link DemoClock}
 * replays the past: the clusters' lifecycle steps (build, checks, teardown, re-checks), metering and the closing of
 * months. These are the db-scheduler tasks production runs, run here by db-scheduler's {@link ManualScheduler}
 * (real picking, completion, rescheduling, retries) on the demo's clock, one instant after another, each once every
 * asynchronous reaction to the last has finished; db-scheduler's own poller, which goes by the real clock and
 * would find every step of the past due at once, is paused meanwhile.
 */
@Component
class DemoReplay {

	private static final Logger log = LoggerFactory.getLogger(DemoReplay.class);

	/** The recurring tasks the history needs: usage metered, and months closed, as time passes. */
	private static final Set<String> RECURRING = Set.of("billing-meter-usage", "billing-close-months");

	/** Steps whose own reruns are not what the history is about: the watchdog and the reconciler's periodic pass. */
	private static final Set<String> LEFT_OUT = Set.of("cluster-watchdog", "cluster-reconciler");

	/** At most this long between two instants visited, so that metering runs through the history. */
	private static final Duration STRIDE = Duration.ofHours(6);

	/** How long the replay waits for the application's reactions to one instant before it goes on all the same. */
	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private final DataSource dataSource;

	private final List<Task<?>> tasks;

	private final ObjectProvider<Scheduler> poller;

	private final JdbcClient jdbc;

	DemoReplay(DataSource dataSource, List<Task<?>> tasks, ObjectProvider<Scheduler> poller, JdbcClient jdbc) {
		this.dataSource = dataSource;
		this.tasks = tasks;
		this.poller = poller;
		this.jdbc = jdbc;
	}

	/** A replay in progress: the demo moves it from instant to instant. */
	final class Run implements AutoCloseable {

		private final DemoClock clock;

		private final ManualScheduler scheduler;

		private final SettableClock schedulerClock = new SettableClock();

		private final List<String> steps;

		private final Scheduler paused;

		private int visits;

		private Run(DemoClock clock, Instant from) {
			this.clock = clock;
			List<Task<?>> run = tasks.stream()
				.filter(t -> (t.getName().startsWith("cluster-") && !LEFT_OUT.contains(t.getName()))
						|| RECURRING.contains(t.getName()))
				.toList();
			this.steps = run.stream().map(Task::getName).filter(name -> !RECURRING.contains(name)).toList();
			this.paused = poller.getIfAvailable();
			if (paused != null) {
				paused.pause();
			}
			clock.rewind(from);
			schedulerClock.set(from);
			this.scheduler = TestHelper.createManualScheduler(dataSource, run).clock(schedulerClock).build();
			for (Task<?> task : run) {
				if (RECURRING.contains(task.getName())) {
					// the poller scheduled them at the real now: back to the start of the history
					if (!scheduler.reschedule(TaskInstanceId.of(task.getName(), "recurring"), from)) {
						scheduler.schedule(task.instance("recurring"), from);
					}
				}
			}
		}

		Instant now() {
			return clock.instant();
		}

		int visits() {
			return visits;
		}

		/**
		 * Moves time forward to {@code target}, stopping at every instant a step is due (and at least every
		 * {@link #STRIDE}), and there runs what is due once the reactions to what came before are done.
		 */
		void advanceTo(Instant target) {
			settle();
			while (now().isBefore(target)) {
				Instant next = now().plus(STRIDE);
				Instant due = nextStep();
				if (due != null && due.isBefore(next)) {
					next = due.isAfter(now()) ? due : now();
				}
				if (!next.isAfter(now())) {
					// a step that stays due however often it runs: go on without it
					next = now().plusSeconds(1);
				}
				if (next.isAfter(target)) {
					next = target;
				}
				clock.moveTo(next);
				settle();
				if (clock.instant().isBefore(next)) {
					// the real clock: nothing later can be replayed
					return;
				}
			}
		}

		/** Runs whatever is due now, again as long as the reactions to it make more due now. */
		void settle() {
			for (int round = 0; round < 20; round++) {
				awaitReactions();
				visits++;
				schedulerClock.set(now());
				scheduler.runAnyDueExecutions();
				awaitReactions();
				Instant due = nextStep();
				if (due == null || due.isAfter(now())) {
					return;
				}
			}
			log.warn("Demo: lifecycle steps still due at {} after 20 rounds; going on", now());
		}

		private @Nullable Instant nextStep() {
			String names = steps.stream().map(s -> "'" + s + "'").collect(Collectors.joining(","));
			return jdbc.sql("SELECT min(execution_time) FROM scheduled_tasks WHERE NOT picked AND task_name IN (" + names
					+ ")").query((ResultSet rs) -> {
						Timestamp next = rs.next() ? rs.getTimestamp(1) : null;
						return Optional.ofNullable(next).map(Timestamp::toInstant);
					}).orElse(null);
		}

		/** Waits until every asynchronous listener of the events published so far has finished. */
		private void awaitReactions() {
			long deadline = System.nanoTime() + PATIENCE.toNanos();
			while (jdbc.sql("SELECT count(*) FROM event_publication WHERE completion_date IS NULL "
					+ "AND coalesce(status, '') <> 'FAILED'").query(Long.class).single() > 0) {
				if (System.nanoTime() > deadline) {
					log.warn("Demo: some event listeners had not finished after {}; going on", PATIENCE);
					return;
				}
				try {
					Thread.sleep(2);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted while replaying the demo's history", ex);
				}
			}
		}

		/** Back to the real clock, and db-scheduler's poller takes over (it runs what is due by now at once). */
		@Override
		public void close() {
			clock.release();
			if (paused != null) {
				paused.resume();
			}
		}

	}

	/** Starts replaying from {@code from}: the clock is pinned there until {@link Run#close()}. */
	Run start(DemoClock clock, Instant from) {
		return new Run(clock, from);
	}

}
