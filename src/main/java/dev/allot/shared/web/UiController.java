package dev.allot.shared.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.stereotype.Controller;

/**
 * A controller of signed-in pages: it gets the page shell (navigation, user, tenant switcher) in its model,
 * and its failures become the friendly HTML error page rather than problem+json.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Controller
public @interface UiController {}
