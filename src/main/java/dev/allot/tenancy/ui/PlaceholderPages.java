package dev.allot.tenancy.ui;

import dev.allot.shared.web.UiController;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * Calendar, Reservations and Usage, until the booking and billing modules bring their own pages: then their
 * controllers take these paths and this class goes.
 */
@UiController
class PlaceholderPages {

	@GetMapping("/calendar")
	String calendar(Model model) {
		return placeholder(model, "calendar", "Capacity calendar",
				"A live heatmap of free GPUs per pool and day, where you pick a window and book it.");
	}

	@GetMapping("/reservations")
	String reservations(Model model) {
		return placeholder(model, "reservations", "Reservations",
				"Your tenant's bookings with their status, nodes and cluster access, and actions to extend or cancel.");
	}

	@GetMapping("/usage")
	String usage(Model model) {
		return placeholder(model, "usage", "Usage",
				"GPU-hours and cost per project, GPU type and rate class, monthly statements and budget alerts.");
	}

	private static String placeholder(Model model, String section, String title, String coming) {
		model.addAttribute("section", section);
		model.addAttribute("title", title);
		model.addAttribute("coming", coming);
		return "placeholder";
	}

}
