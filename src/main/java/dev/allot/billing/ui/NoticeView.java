package dev.allot.billing.ui;

import java.util.List;

import dev.allot.billing.budgets.Notification;
import org.jspecify.annotations.Nullable;

/**
 * A notice as a page shows it: what happened, in a word or two, the notice itself, and the page of the reservation
 * it concerns (null when it concerns none, as a budget alert).
 */
record NoticeView(String headline, Notification notice, @Nullable String reservationPage) {

	static List<NoticeView> of(List<Notification> notices, String tenantSlug) {
		return notices.stream().map(n -> new NoticeView(headline(n.kind()), n, page(n, tenantSlug))).toList();
	}

	private static @Nullable String page(Notification notice, String tenantSlug) {
		var reservation = notice.details().get("reservationId");
		return reservation == null || !reservation.isString() ? null
				: "/tenants/" + tenantSlug + "/reservations/" + reservation.asString();
	}

	private static String headline(String kind) {
		return switch (kind) {
			case "BUDGET_THRESHOLD" -> "Budget";
			case "IDLE_RESERVATION" -> "Idle";
			case "IDLE_RECLAIM_NOTICE" -> "To be released: idle";
			case "IDLE_RELEASED" -> "Released: idle";
			case "RESERVATION_PREEMPTED" -> "Preempted";
			case "NODE_NOT_REPLACED" -> "A node is out of service";
			case "RESERVATION_FAILED" -> "Failed";
			case "QUOTA_REQUEST_DECIDED" -> "Quota request decided";
			default -> "Notice";
		};
	}

}
