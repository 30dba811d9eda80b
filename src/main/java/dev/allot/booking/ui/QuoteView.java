package dev.allot.booking.ui;

import java.util.ArrayList;
import java.util.List;

import dev.allot.booking.Bookings;
import dev.allot.booking.Capacity;
import dev.allot.quota.QuotaDecision;
import org.jspecify.annotations.Nullable;

/**
 * What the live quote shows: whether the request fits, its price split by rate class and the budget left, or
 * why it does not fit and the earliest windows that do. {@code problems} are reasons a quote cannot be made yet.
 */
record QuoteView(boolean fits, @Nullable QuotaDecision decision, List<String> reasons, @Nullable String limit,
		List<Capacity.Fit> suggestions, List<String> problems) {

	static QuoteView incomplete(List<String> problems) {
		return new QuoteView(false, null, List.of(), null, List.of(), List.copyOf(problems));
	}

	static QuoteView of(Bookings.Quote quote, @Nullable String driver, List<Capacity.Fit> suggestions) {
		List<String> reasons = new ArrayList<>();
		if (quote.freeNodes() < quote.neededNodes()) {
			reasons.add("Only " + quote.freeNodes() + " of the " + quote.neededNodes() + " nodes needed are free for the "
					+ "whole window" + (driver == null ? "" : " with CUDA driver " + driver) + ".");
		}
		String limit = null;
		if (quote.refusal() != null) {
			limit = quote.refusal().limit();
			reasons.add("Your quota refuses it: " + quote.refusal().getMessage() + ".");
		}
		if (quote.heldBack() != null) {
			reasons.add(quote.heldBack().getMessage() + ".");
		}
		return new QuoteView(quote.fits(), quote.decision(), List.copyOf(reasons), limit,
				quote.fits() ? List.of() : List.copyOf(suggestions), List.of());
	}

	public boolean complete() {
		return problems.isEmpty();
	}

}
