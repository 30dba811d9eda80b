package dev.allot.identity.ui;

import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * Whether the browser's session is still signed in: 204 when it is; a page's script (with {@code HX-Request})
 * gets 401 from the security chain when it is not. The booking form asks before it books, so that a lapsed session
 * keeps the form instead of losing it to a refused post.
 */
@Controller
class SessionCheck {

    @GetMapping("/session")
    ResponseEntity<Void> alive() {
        return ResponseEntity.noContent().build();
    }
}
