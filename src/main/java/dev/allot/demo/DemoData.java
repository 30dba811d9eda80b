package dev.allot.demo;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.identity.UserDirectory;
import dev.allot.inventory.Inventory;
import dev.allot.quota.Priority;
import dev.allot.quota.QuotaPolicy;
import dev.allot.quota.Quotas;
import dev.allot.quota.pricing.RateCard;
import dev.allot.quota.pricing.RateClass;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.PlatformRole;
import dev.allot.shared.security.TenantRole;
import dev.allot.tenancy.Tenancy;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    private final Tenancy tenancy;

    private final Inventory inventory;

    private final Quotas quotas;

    private final TransactionTemplate transactions;

    private final String fixedPassword;

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
            Tenancy tenancy,
            Inventory inventory,
            Quotas quotas,
            TransactionTemplate transactions,
            DemoBookings bookings,
            DemoHistory history,
            DemoReplay replay,
            Clock clock,
            AuditLog audit,
            JdbcClient jdbc,
            @Value("${allot.demo.password:}") String fixedPassword,
            @Value("${allot.embedded-postgres.data-directory:.allot/pgdata}") String dataDirectory) {
        this.audit = audit;
        this.jdbc = jdbc;
        this.dataDirectory = dataDirectory;
        this.bookings = bookings;
        this.history = history;
        this.replay = replay;
        this.clock = clock;
        this.users = users;
        this.tenancy = tenancy;
        this.inventory = inventory;
        this.quotas = quotas;
        this.transactions = transactions;
        this.fixedPassword = fixedPassword;
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
                setUp(passwords);
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
            setUp(passwords);
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

    private void setUp(Map<String, String> passwords) {
        transactions.executeWithoutResult(status -> {
            user(passwords, "admin", "Platform Admin", EnumSet.of(PlatformRole.PLATFORM_ADMIN));
            user(passwords, "alice", "Alice Example", Set.of());
            user(passwords, "bob", "Bob Example", Set.of());
            user(passwords, "auditor", "Audrey Auditor", EnumSet.of(PlatformRole.AUDITOR));
            tenancy.createTenant(SEED, new Tenancy.NewTenant("acme-ml", "Acme ML Research"));
            tenancy.createTenant(SEED, new Tenancy.NewTenant("globex-ai", "Globex AI"));
            tenancy.addMember(SEED, "acme-ml", "alice", TenantRole.TENANT_ADMIN);
            tenancy.addMember(SEED, "globex-ai", "bob", TenantRole.MEMBER);
            tenancy.createProject(SEED, "acme-ml", new Tenancy.NewProject("llm-pretrain", "LLM pre-training"));
            tenancy.createProject(SEED, "acme-ml", new Tenancy.NewProject("vision", "Vision models"));
            tenancy.createProject(SEED, "globex-ai", new Tenancy.NewProject("recsys", "Recommender systems"));
            fleet();
            prices();
        });
    }

    /** Three pools of 8-GPU nodes, 32 nodes in all, in InfiniBand blocks of 4 nodes, two racks per block. */
    private void fleet() {
        inventory.createGpuType(SEED, new Inventory.NewGpuType("H100", 80, "NVLink 4 / SXM5"));
        inventory.createGpuType(SEED, new Inventory.NewGpuType("H200", 141, "NVLink 4 / SXM5"));
        inventory.createGpuType(SEED, new Inventory.NewGpuType("A100", 80, "NVLink 3 / SXM4"));
        pool("h100-eu", "H100", "eu-west-1", 16, List.of("535.183", "550.90", "560.35"));
        pool("h200-eu", "H200", "eu-west-1", 8, List.of("550.90", "560.35"));
        pool("a100-us", "A100", "us-east-1", 8, List.of("535.183", "550.90"));
    }

    /** Rate cards for every GPU type, and quotas for both demo tenants. */
    private void prices() {
        LocalDate since = LocalDate.of(2026, 1, 1);
        quotas.putRateCard(SEED, card("H100", since, "2.4900", "1.7400", "3.9900"));
        quotas.putRateCard(SEED, card("H200", since, "3.2900", "2.3000", "4.9900"));
        quotas.putRateCard(SEED, card("A100", since, "1.2900", "0.9000", "1.9900"));
        quotas.replace(
                SEED,
                "acme-ml",
                List.of(
                        new QuotaPolicy(
                                        "H100",
                                        32,
                                        64,
                                        true,
                                        Duration.ofDays(14),
                                        Duration.ofDays(90),
                                        new BigDecimal("250000.00"),
                                        Priority.TRAINING)
                                .withApproval(new QuotaPolicy.Approval(2000, false)),
                        new QuotaPolicy(
                                "H200",
                                16,
                                32,
                                false,
                                Duration.ofDays(7),
                                Duration.ofDays(60),
                                new BigDecimal("100000.00"),
                                Priority.PRODUCTION_FINE_TUNE),
                        new QuotaPolicy(
                                "A100",
                                16,
                                16,
                                false,
                                Duration.ofDays(7),
                                Duration.ofDays(30),
                                null,
                                Priority.PRODUCTION_FINE_TUNE)),
                null);
        quotas.replace(
                SEED,
                "globex-ai",
                List.of(
                        new QuotaPolicy(
                                "H100",
                                16,
                                32,
                                false,
                                Duration.ofDays(7),
                                Duration.ofDays(30),
                                new BigDecimal("80000.00"),
                                Priority.EXPERIMENT),
                        new QuotaPolicy(
                                "A100",
                                16,
                                48,
                                true,
                                Duration.ofDays(30),
                                Duration.ofDays(90),
                                null,
                                Priority.PRODUCTION_INFERENCE)),
                null);
    }

    private static RateCard card(String gpuType, LocalDate since, String reserved, String borrowed, String onDemand) {
        return new RateCard(
                gpuType,
                since,
                "USD",
                Map.of(
                        RateClass.RESERVED,
                        new BigDecimal(reserved),
                        RateClass.BORROWED,
                        new BigDecimal(borrowed),
                        RateClass.ON_DEMAND,
                        new BigDecimal(onDemand)));
    }

    private void pool(String name, String gpuType, String region, int nodes, List<String> drivers) {
        inventory.createPool(SEED, new Inventory.NewPool(name, gpuType, 8, region));
        for (int i = 1; i <= nodes; i++) {
            int block = (i - 1) / 4;
            String rack = name + "-r" + (block * 2 + ((i - 1) % 4) / 2 + 1);
            inventory.addNode(
                    SEED,
                    name,
                    new Inventory.NewNode(
                            String.format("%s-%03d", name, i), rack, name + "-ib" + (block + 1), drivers));
        }
    }

    private void user(Map<String, String> passwords, String username, String displayName, Set<PlatformRole> roles) {
        String password = fixedPassword.isBlank() ? randomPassword() : fixedPassword;
        users.create(username, displayName, password, roles);
        passwords.put(username, password);
    }

    private static String randomPassword() {
        String alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder();
        for (int i = 0; i < 14; i++) {
            password.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return password.toString();
    }
}
