package dev.allot.identity.ui;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/** The sign-in page of Allot's own issuer. */
@Controller
class LoginPage {

	@GetMapping("/login")
	String login() {
		return "login";
	}

}
