package dev.allot.billing.ledger;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Account ids, each account created on first use by the posting that needs it, in that posting's transaction.
 * A posting creates its new accounts in one global order (code, then currency), so postings creating accounts at
 * once wait for each other at most in a line, never in a cycle; and it needs no second connection while it holds
 * one (a transaction of its own per account did: a pool full of such postings hung). Ids never change, so they are
 * cached once their transaction has committed.
 */
@Component
class LedgerAccounts {

    record Key(Account account, String currency) {

        static final Comparator<Key> ORDER =
                Comparator.comparing((Key key) -> key.account().code()).thenComparing(Key::currency);

        String name() {
            return account.code() + "/" + currency;
        }
    }

    private final LedgerRepository repository;

    private final Map<String, Long> committed = new ConcurrentHashMap<>();

    LedgerAccounts(LedgerRepository repository) {
        this.repository = repository;
    }

    @Transactional(propagation = Propagation.MANDATORY)
    Map<Key, Long> ids(Collection<Key> keys) {
        Map<Key, Long> ids = new LinkedHashMap<>();
        Map<String, Long> created = new LinkedHashMap<>();
        keys.stream().distinct().sorted(Key.ORDER).forEach(key -> {
            Long id = committed.get(key.name());
            if (id == null) {
                id = repository.account(key.account(), key.currency());
                created.put(key.name(), id);
            }
            ids.put(key, id);
        });
        if (!created.isEmpty()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    committed.putAll(created);
                }
            });
        }
        return ids;
    }
}
