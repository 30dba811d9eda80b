package dev.allot.billing.ui;

import java.util.List;

import dev.allot.billing.budgets.Notification;

/** A notice as a page shows it: what happened, in a word or two, and the notice itself. */
record NoticeView(String headline, Notification notice) {

	static List<NoticeView> of(List<Notification> notices) {
		return notices.stream().map(n -> new NoticeView(headline(n.kind()), n)).toList();
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
			default -> "Notice";
		};
	}

}
