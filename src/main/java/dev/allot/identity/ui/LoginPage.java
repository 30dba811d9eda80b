package dev.allot.identity.ui;

import jakarta.servlet.http.HttpSession;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.web.WebAttributes;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The sign-in page of Allot's own issuer, and where a refused sign-in at an external issuer says why. */
@Controller
class LoginPage {

    @GetMapping("/login")
    String login(@Nullable HttpSession session, Model model) {
        // an external issuer's user that Allot refused (its username is linked to another subject, say): the
        // reason, instead of "wrong password" for a password that was right
        Object failure = session == null ? null : session.getAttribute(WebAttributes.AUTHENTICATION_EXCEPTION);
        if (failure instanceof OAuth2AuthenticationException refused
                && "identity_conflict".equals(refused.getError().getErrorCode())) {
            model.addAttribute("refusedReason", refused.getError().getDescription());
        }
        return "login";
    }
}
