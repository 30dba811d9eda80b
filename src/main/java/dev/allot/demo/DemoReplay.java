package dev.allot.demo;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.allot.billing.ledger.Ledger;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;
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
 * asynchronous reaction to the last has finished. db-scheduler's own poller, which goes by the real clock and would
 * find every step of the past due at once (and take the replay's executions, whose heartbeats are in the past, for
 * dead), has not started yet: the demo seeds before the application takes requests, and the poller starts after
 * ({@link DemoSchedulerStart}).
 *
 * <p>The replay stops only where something happens: at each instant a lifecycle step is due, at each act of the
 * history, and once a day ({@link #METERING}) for metering and the closing of months. Metering catches up every
 * hour that ended since its last run, as it does in production after an outage, so a day's usage is metered in one
 * run.
 */
@Component
class DemoReplay {

    private static final Logger log = LoggerFactory.getLogger(DemoReplay.class);

    /** The recurring tasks the history needs: usage metered, and months closed, as time passes. */
    private static final Set<String> RECURRING = Set.of("billing-meter-usage", "billing-close-months");

    /** Steps whose own reruns are not what the history is about: the watchdog and the reconciler's periodic pass. */
    private static final Set<String> LEFT_OUT = Set.of("cluster-watchdog", "cluster-reconciler");

    /**
     * When metering and the closing of months run during the replay: daily, ten minutes past midnight UTC (a month's
     * last hours are metered before it closes, {@code close-month-after} later).
     */
    static final Duration METERING = Duration.ofDays(1);

    private static final Duration METERING_OFFSET = Duration.ofMinutes(10);

    /** How long the replay waits for the application's reactions to one instant before it goes on all the same. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final DataSource dataSource;

    private final List<Task<?>> tasks;

    private final ObjectProvider<Scheduler> poller;

    private final JdbcClient jdbc;

    private final Ledger ledger;

    DemoReplay(
            DataSource dataSource,
            List<Task<?>> tasks,
            ObjectProvider<Scheduler> poller,
            JdbcClient jdbc,
            Ledger ledger) {
        this.ledger = ledger;
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

        private final List<Task<?>> recurring;

        /** When metering and the closing of months run next. */
        private Instant nextMetering;

        private int visits;

        private int meterings;

        private long waiting;

        private long running;

        private Run(DemoClock clock, Instant from) {
            Scheduler live = poller.getIfAvailable();
            if (live != null && live.getSchedulerState().isStarted()) {
                throw new IllegalStateException("db-scheduler's poller has started: the demo's history cannot be "
                        + "replayed under it (its executions would be taken for dead)");
            }
            this.clock = clock;
            List<Task<?>> run = tasks.stream()
                    .filter(t -> (t.getName().startsWith("cluster-") && !LEFT_OUT.contains(t.getName()))
                            || RECURRING.contains(t.getName()))
                    .toList();
            this.steps = run.stream()
                    .map(Task::getName)
                    .filter(name -> !RECURRING.contains(name))
                    .toList();
            this.recurring =
                    run.stream().filter(t -> RECURRING.contains(t.getName())).toList();
            clock.rewind(from);
            schedulerClock.set(from);
            this.scheduler = TestHelper.createManualScheduler(dataSource, run)
                    .clock(schedulerClock)
                    .build();
            this.nextMetering = from;
            holdRecurringUntil(from);
        }

        Instant now() {
            return clock.instant();
        }

        int visits() {
            return visits;
        }

        /**
         * Moves time forward to {@code target}, stopping at every instant a step is due and at each day's metering,
         * and there runs what is due once the reactions to what came before are done.
         */
        void advanceTo(Instant target) {
            settle();
            while (now().isBefore(target)) {
                Instant next = nextMetering;
                Instant due = nextStep();
                if (due != null && due.isBefore(next)) {
                    next = due;
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
                boolean metering = !now().isBefore(nextMetering);
                long started = System.nanoTime();
                scheduler.runAnyDueExecutions();
                running += System.nanoTime() - started;
                if (metering) {
                    meterings++;
                    Instant day = now().minus(METERING_OFFSET).truncatedTo(ChronoUnit.DAYS);
                    nextMetering = day.plus(METERING).plus(METERING_OFFSET);
                    holdRecurringUntil(nextMetering);
                }
                awaitReactions();
                Instant due = nextStep();
                if (due == null || due.isAfter(now())) {
                    return;
                }
            }
            log.warn("Demo: lifecycle steps still due at {} after 20 rounds; going on", now());
        }

        /** Metering and the closing of months wait for the next metering instant, whatever their own schedule. */
        private void holdRecurringUntil(Instant at) {
            for (Task<?> task : recurring) {
                TaskInstanceId id = TaskInstanceId.of(task.getName(), "recurring");
                if (scheduler.getScheduledExecution(id).isPresent()) {
                    scheduler.reschedule(id, at);
                } else {
                    scheduler.schedule(task.instance("recurring"), at);
                }
            }
        }

        private @Nullable Instant nextStep() {
            String names = steps.stream().map(s -> "'" + s + "'").collect(Collectors.joining(","));
            return jdbc.sql("SELECT min(execution_time) FROM scheduled_tasks WHERE NOT picked AND task_name IN ("
                            + names + ")")
                    .query((ResultSet rs) -> {
                        Timestamp next = rs.next() ? rs.getTimestamp(1) : null;
                        return Optional.ofNullable(next).map(Timestamp::toInstant);
                    })
                    .orElse(null);
        }

        /** Waits until every asynchronous listener of the events published so far has finished. */
        private void awaitReactions() {
            long started = System.nanoTime();
            try {
                awaitReactionsUntil(started + PATIENCE.toNanos());
            } finally {
                waiting += System.nanoTime() - started;
            }
        }

        /** Where the replay's time went: running the scheduled steps, and waiting for the reactions to them. */
        String profile() {
            return String.format(
                    "%d stops, %d of them metering; %.1f s running scheduled steps, %.1f s waiting for "
                            + "their reactions",
                    visits, meterings, running / 1e9, waiting / 1e9);
        }

        private void awaitReactionsUntil(long deadline) {
            while (jdbc.sql("SELECT count(*) FROM event_publication WHERE completion_date IS NULL "
                                    + "AND coalesce(status, '') <> 'FAILED'")
                            .query(Long.class)
                            .single()
                    > 0) {
                if (System.nanoTime() > deadline) {
                    log.warn("Demo: some event listeners had not finished after {}; going on", PATIENCE);
                    return;
                }
                try {
                    Thread.sleep(2);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while replaying the demo's history", ex);
                }
            }
        }

        /**
         * Meters every hour that has ended, now, and closes the months before the current one: a month closes only
         * {@code close-month-after} (six hours) after it ends, so a first start in a month's first hours would
         * otherwise have no closed statement of the month that just ended.
         */
        void closeEndedMonths() {
            settle();
            nextMetering = now();
            holdRecurringUntil(nextMetering);
            settle();
            int closed = ledger.closeMonthsBefore(YearMonth.from(now().atOffset(ZoneOffset.UTC)));
            log.debug("Demo: {} months closed at {}", closed, now());
        }

        /**
         * Back to the real clock; metering and the closing of months are due at once, for db-scheduler's poller to
         * run when it starts.
         */
        @Override
        public void close() {
            clock.release();
            holdRecurringUntil(clock.instant());
        }
    }

    /** Starts replaying from {@code from}: the clock is pinned there until {@link Run#close()}. */
    Run start(DemoClock clock, Instant from) {
        return new Run(clock, from);
    }
}
