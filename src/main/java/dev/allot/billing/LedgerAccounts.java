package dev.allot.billing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Account ids, each account created on first use in a short transaction of its own: postings of one tenant
 * running at once then never wait on each other's uncommitted account row. Ids never change, so they are
 * cached once committed.
 */
@Component
class LedgerAccounts {

	private final LedgerRepository repository;

	private final TransactionTemplate newTransaction;

	private final Map<String, Long> ids = new ConcurrentHashMap<>();

	LedgerAccounts(LedgerRepository repository, TransactionTemplate transactions) {
		this.repository = repository;
		this.newTransaction = new TransactionTemplate(transactions.getTransactionManager());
		this.newTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	long id(Account account, String currency) {
		return ids.computeIfAbsent(account.code() + "/" + currency,
				key -> newTransaction.execute(status -> repository.account(account, currency)));
	}

}
