package dev.allot.tenancy.ui;

import dev.allot.shared.web.UiController;

import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** Usage, until the billing module brings its own page: then its controller takes the path and this class goes. */
@UiController
class PlaceholderPages {

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
