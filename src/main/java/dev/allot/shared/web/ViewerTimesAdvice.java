package dev.allot.shared.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** Gives every page {@code times}, the viewer's clock, for the layout's {@code when} fragment. */
@ControllerAdvice(annotations = UiController.class)
class ViewerTimesAdvice {

    @ModelAttribute("times")
    ViewerTimes times(HttpServletRequest request) {
        return ViewerTimes.of(request);
    }
}
