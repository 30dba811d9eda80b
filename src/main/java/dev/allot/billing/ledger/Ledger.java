package dev.allot.billing.ledger;

import dev.allot.audit.AuditLog;
import dev.allot.audit.AuditRecord;
import dev.allot.billing.budgets.Budgets;
import dev.allot.billing.config.BillingProperties;
import dev.allot.shared.AllotException;
import dev.allot.shared.CursorPage;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.ListQuery;
import dev.allot.shared.security.Caller;
import dev.allot.tenancy.Tenancy;
import dev.allot.tenancy.Tenant;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.modulith.NamedInterface;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The double-entry ledger. Postings are exactly-once by key, balanced by construction and checked by
 * PostgreSQL at commit; nothing posted changes: a correction is a reversing transaction with a reason and an
 * actor, audited, in the current open month with a reference to what it reverses.
 */
@Service
@Transactional
@NamedInterface("ledger") // the demo closes the month that ended without waiting for close-month-after
public class Ledger {

    /**
     * A page of the ledger, newest first. {@code next} is the cursor of the following page: the base64url text
     * {@code v1:<id>} of the last transaction of this page; null on the last page.
     */
    private final LedgerRepository repository;

    private final LedgerAccounts accounts;

    private final Tenancy tenancy;

    private final AuditLog audit;

    private final Budgets budgets;

    private final BillingProperties properties;

    private final Clock clock;

    Ledger(
            LedgerRepository repository,
            LedgerAccounts accounts,
            Tenancy tenancy,
            AuditLog audit,
            Budgets budgets,
            BillingProperties properties,
            Clock clock) {
        this.repository = repository;
        this.accounts = accounts;
        this.tenancy = tenancy;
        this.audit = audit;
        this.budgets = budgets;
        this.properties = properties;
        this.clock = clock;
    }

    /** Posts once: empty when a transaction with the same key was already posted. */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<Long> post(Posting posting) {
        return post(posting, null, null, null);
    }

    private Optional<Long> post(
            Posting posting, @Nullable Long reverses, @Nullable String reason, @Nullable String actor) {
        Instant now = clock.instant();
        YearMonth month = openMonth(posting.month(), now);
        String description = month.equals(posting.month())
                ? posting.description()
                : posting.description() + " (late: belongs to closed month " + posting.month() + ")";
        Optional<Long> id = repository.insertTransaction(posting, month, description, now, reverses, reason, actor);
        id.ifPresent(tx -> {
            Account receivable = Account.receivable(posting.tenantId());
            Map<LedgerAccounts.Key, Long> ids = accounts.ids(posting.charges().stream()
                    .flatMap(charge -> Stream.of(
                            new LedgerAccounts.Key(receivable, charge.currency()),
                            new LedgerAccounts.Key(charge.counter(), charge.currency())))
                    .toList());
            for (Charge charge : posting.charges()) {
                repository.insertEntry(
                        tx, id(ids, new LedgerAccounts.Key(receivable, charge.currency())), charge.amount(), charge);
                repository.insertEntry(
                        tx,
                        id(ids, new LedgerAccounts.Key(charge.counter(), charge.currency())),
                        charge.amount().negate(),
                        charge);
            }
            budgets.afterPosting(posting.tenantId(), month, now);
        });
        return id;
    }

    /**
     * The month a posting wanted, or, when that has closed (or is due to close), the first open month from the current
     * one on. A replica whose clock runs ahead may have closed the current month already; the posting then goes to the
     * next open one rather than failing on every retry.
     */
    YearMonth openMonth(YearMonth wanted, Instant now) {
        boolean due = !now.isBefore(wanted.plusMonths(1)
                .atDay(1)
                .atStartOfDay()
                .toInstant(ZoneOffset.UTC)
                .plus(properties.closeMonthAfter()));
        if (!due && !repository.isClosed(wanted)) {
            return wanted;
        }
        YearMonth current = YearMonth.from(now.atOffset(ZoneOffset.UTC));
        return repository.firstOpenMonthFrom(wanted.isAfter(current) ? wanted : current);
    }

    /** Closes the months whose closing time has passed; a closed month never takes another posting. */
    public int closeMonths() {
        Instant now = clock.instant();
        YearMonth current =
                YearMonth.from(now.minus(properties.closeMonthAfter()).atOffset(ZoneOffset.UTC));
        return repository.closeMonthsBefore(current, now);
    }

    /**
     * Closes every month before {@code month} at once, without waiting {@code close-month-after}: for the demo, whose
     * first start in a month's first hours would otherwise have no closed statement of the month that ended. Later
     * postings for a closed month go to the next open one, as after any closing.
     */
    public int closeMonthsBefore(YearMonth month) {
        return repository.closeMonthsBefore(month, clock.instant());
    }

    /** A correction: reverses a whole transaction of the tenant (platform admin), audited. */
    public LedgerTransaction reverse(Caller caller, String tenantSlug, long transactionId, String reason) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        caller.requirePlatformAdmin();
        if (reason.isBlank() || reason.length() > 500) {
            throw InvalidInputException.of("reason", "must be 1-500 characters");
        }
        LedgerRepository.Header header = repository
                .header(tenant.id(), transactionId)
                .orElseThrow(() -> AllotException.notFound("Ledger transaction " + transactionId));
        if (header.kind().equals("REVERSAL") || header.reversed()) {
            throw AllotException.conflict(
                    "already_reversed", "Ledger transaction " + transactionId + " is a reversal or has been reversed");
        }
        long id = reverse(header, reason, caller.subject()).orElseThrow();
        LedgerTransaction reversal = repository.page(tenant.id(), id + 1, 0, 1).getFirst();
        audit.record(new AuditRecord(
                tenantSlug, "ledger.reversed", "ledger-transaction", String.valueOf(transactionId), null, reversal));
        return reversal;
    }

    /** Reverses for the system (a failed provisioning costs nothing); exactly once per transaction. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void reverseAllOf(UUID tenantId, UUID reservationId, String reason) {
        for (long transactionId : repository.openTransactionsOf(reservationId)) {
            repository.header(tenantId, transactionId).ifPresent(header -> reverse(header, reason, "system"));
        }
    }

    private Optional<Long> reverse(LedgerRepository.Header original, String reason, String actor) {
        // Every entry negated on its own account, with its dimensions (GPU time too, so reports net it out).
        List<LedgerRepository.RawEntry> entries = repository.entriesOf(original.id());
        Posting posting = new Posting(
                original.tenantId(),
                Posting.Kind.REVERSAL,
                "reversal:" + original.id(),
                original.month(),
                "Reversal of transaction " + original.id() + " (" + original.month() + "): " + reason,
                List.of());
        Instant now = clock.instant();
        YearMonth month = openMonth(original.month(), now);
        Optional<Long> id =
                repository.insertTransaction(posting, month, posting.description(), now, original.id(), reason, actor);
        id.ifPresent(tx -> {
            for (LedgerRepository.RawEntry entry : entries) {
                Charge d = entry.dimensions();
                Charge negatedDims = new Charge(
                        d.line(),
                        d.counter(),
                        d.currency(),
                        d.amount(),
                        d.reservationId(),
                        d.project(),
                        d.gpuType(),
                        d.rateClass(),
                        d.periodStart(),
                        -d.gpuSeconds(),
                        d.unitPrice());
                repository.insertEntry(tx, entry.accountId(), entry.amount().negate(), negatedDims);
            }
            budgets.afterPosting(original.tenantId(), month, now);
        });
        return id;
    }

    @Transactional(readOnly = true)
    public CursorPage<LedgerTransaction> page(Caller caller, String tenantSlug, ListQuery query) {
        Tenant tenant = tenancy.readable(caller, tenantSlug);
        Long before = query.after() == null ? null : query.key(0, Long::parseLong);
        List<LedgerTransaction> rows = repository.page(tenant.id(), before, query.offset(), query.rowsToRead());
        return query.answer(rows, repository.count(tenant.id()), tx -> List.of(Long.toString(tx.id())));
    }

    /** The id of an account {@link LedgerAccounts#ids} was asked for, which answers every key it is given. */
    private static long id(Map<LedgerAccounts.Key, Long> ids, LedgerAccounts.Key key) {
        return Objects.requireNonNull(ids.get(key), "the ledger has an id for every account asked for");
    }
}
