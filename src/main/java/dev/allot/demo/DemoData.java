package dev.allot.demo;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.identity.UserDirectory;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Seeds the demo once: on the embedded database by default, elsewhere only with {@code allot.demo.enabled=true}.
 * The fleet, teams and users are made as they were {@link DemoHistory#SPAN} ago, then the application lives through
 * the month since on a rewound clock ({@link DemoHistory}, {@link DemoReplay}), then today's bookings are made
 * ({@link DemoBookings}). Passwords are random and printed at the first start only (they are stored hashed), unless
 * {@code allot.demo.password} fixes one for all demo users.
 *
 * <p>It seeds as the application context starts, before the web server takes requests and before db-scheduler's
 * poller starts ({@link DemoSchedulerStart}), so that no caller ever sees the rewound clock and the application
 * reports ready only once the demo is whole. The audit trail marks the seeding's start and its end: a first start
 * that stopped half-way (the process killed mid-replay) is reported at every later start, with what to do.
 */
@Component
@ConditionalOnExpression(DemoData.ENABLED)
class DemoData implements SmartLifecycle {

    /** Before the web server starts taking requests ({@code Integer.MAX_VALUE - 2048}); after the caches listen. */
    static final int PHASE = Integer.MAX_VALUE - 4096;

    static final String STARTED = "demo.seeding.started";

    static final String FINISHED = "demo.seeding.finished";

    /** What an earlier start left. */
    enum Previous {
        /** Nothing: this is the first start (or the first one stopped before the demo users were made). */
        NONE,
        /** A whole demo. */
        FINISHED,
        /** A first start that stopped half-way: the demo's history is incomplete. */
        HALF_DONE,
        /** A demo seeded by a version that did not mark its seeding. */
        UNMARKED
    }

    /** Where the demo is seeded: on the embedded database by default, elsewhere when asked for. */
    static final String ENABLED = "${allot.demo.enabled:false} or '${spring.datasource.url:}'.isEmpty()";

    private static final Logger log = LoggerFactory.getLogger(DemoData.class);

    static final Caller SEED = new Caller(
            "demo-seed", "Demo seed", Caller.Kind.SERVICE_ACCOUNT, EnumSet.of(PlatformRole.PLATFORM_ADMIN), Map.of());

    private final UserDirectory users;

    private final TransactionTemplate transactions;

    private final DemoSetUp setUp;

    private final DemoBookings bookings;

    private final DemoHistory history;

    private final DemoReplay replay;

    private final Clock clock;

    private final AuditLog audit;

    private final JdbcClient jdbc;

    private final String dataDirectory;

    private volatile @Nullable Duration seeding;

    private volatile boolean running;

    DemoData(
            UserDirectory users,
            TransactionTemplate transactions,
            DemoBookings bookings,
            DemoHistory history,
            DemoReplay replay,
            DemoSetUp setUp,
            Clock clock,
            AuditLog audit,
            JdbcClient jdbc,
            @Value("${allot.embedded-postgres.data-directory:.allot/pgdata}") String dataDirectory) {
        this.audit = audit;
        this.jdbc = jdbc;
        this.dataDirectory = dataDirectory;
        this.bookings = bookings;
        this.history = history;
        this.replay = replay;
        this.clock = clock;
        this.users = users;
        this.transactions = transactions;
        this.setUp = setUp;
    }

    @Override
    public void start() {
        seed();
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** Seeds the demo unless an earlier start did (or began to: then says so); answers what it found. */
    Previous seed() {
        Previous previous = previous();
        switch (previous) {
            case FINISHED, UNMARKED -> {
                return previous;
            }
            case HALF_DONE -> {
                log.warn("""

						Demo: the first start of this database stopped before the demo was whole (it was killed while it \
						replayed the demo's history), so its history is incomplete and the demo users' passwords were \
						never shown. Allot does not replay it again over what is there. For the whole demo, stop Allot, \
						delete the embedded database's folder ({}) and start again; or set allot.demo.password before \
						that first start to fix the demo users' password.
						""", dataDirectory);
                return previous;
            }
            case NONE -> {
                if (jdbc.sql("SELECT count(*) FROM audit_event WHERE object_type = 'demo' AND action = ?")
                                .param(STARTED)
                                .query(Long.class)
                                .single()
                        > 0) {
                    log.warn("Demo: an earlier first start stopped before the demo users were made; seeding afresh");
                }
            }
        }
        long started = System.nanoTime();
        mark(STARTED, Map.of());
        Map<String, String> passwords = new LinkedHashMap<>();
        String made;
        if (clock instanceof DemoClock demo) {
            Instant today = demo.realInstant().truncatedTo(ChronoUnit.DAYS);
            try (DemoReplay.Run run = replay.start(demo, today.minus(DemoHistory.SPAN))) {
                transactions.executeWithoutResult(status -> setUp.setUp(passwords));
                DemoHistory.Made past = history.live(run, today);
                run.advanceTo(demo.realInstant());
                run.closeEndedMonths();
                int booked = bookings.seed();
                log.info("Demo replay: {}", run.profile());
                made = past.reservations() + booked + " reservations booked (" + past.reservations()
                        + " of them over the " + "last " + DemoHistory.SPAN.toDays() + " days, replayed at "
                        + past.visits() + " instants)";
            }
        } else {
            // a clock the demo cannot rewind: today's bookings only
            transactions.executeWithoutResult(status -> setUp.setUp(passwords));
            made = bookings.seed() + " reservations booked";
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        mark(FINISHED, Map.of("made", made, "seconds", took.toMillis() / 1000.0));
        seeding = took;
        StringBuilder banner = new StringBuilder(String.format(
                "%n%nDemo: %s in %.1f s. Demo users (shown once; " + "stored hashed):%n",
                made, took.toMillis() / 1000.0));
        passwords.forEach((user, password) -> banner.append(String.format("  %-8s %s%n", user, password)));
        log.info(banner.toString());
        return Previous.NONE;
    }

    /** What the demo's marks in the audit trail (and its users) say an earlier start left. */
    Previous previous() {
        if (!users.exists("admin")) {
            return Previous.NONE;
        }
        return jdbc.sql("SELECT action FROM audit_event WHERE object_type = 'demo' AND action IN (?, ?) "
                        + "ORDER BY id DESC LIMIT 1")
                .params(STARTED, FINISHED)
                .query(String.class)
                .optional()
                .map(action -> action.equals(FINISHED) ? Previous.FINISHED : Previous.HALF_DONE)
                .orElse(Previous.UNMARKED);
    }

    private void mark(String action, Map<String, Object> detail) {
        transactions.executeWithoutResult(status ->
                audit.recordAs(SEED.subject(), new AuditRecord(null, action, "demo", "quick-start", null, detail)));
    }

    /** How long seeding took, once it has run. */
    Optional<Duration> seeding() {
        return Optional.ofNullable(seeding);
    }
}
