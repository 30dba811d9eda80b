package dev.allot.shared.web;

import dev.allot.shared.AllotException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.ModelAndView;

/**
 * Failures of pages become the friendly error page with the right status; the REST API keeps its
 * problem+json ({@link ApiProblems} covers only {@code @RestController}s, this only {@link UiController}s).
 */
@ControllerAdvice(annotations = UiController.class)
class UiErrors {

    private static final Logger log = LoggerFactory.getLogger(UiErrors.class);

    @ExceptionHandler(AllotException.class)
    ModelAndView refused(AllotException ex) {
        return page(ex.status() == 401 ? 404 : ex.status());
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ModelAndView badPath(MethodArgumentTypeMismatchException ex) {
        return page(404);
    }

    /**
     * The browser went away (a calendar tab closed while its event stream was open): nobody is left to answer, and
     * it is not a failure of ours.
     */
    @ExceptionHandler(AsyncRequestNotUsableException.class)
    void clientGone(AsyncRequestNotUsableException ex) {
        log.debug("Client gone: {}", ex.getMessage());
    }

    @ExceptionHandler(Exception.class)
    ModelAndView unexpected(Exception ex) throws Exception {
        if (ex instanceof ErrorResponse) {
            // Spring's own 4xx (missing parameter, method not allowed): let Spring answer them as usual.
            throw ex;
        }
        if (DatabaseUnavailable.causedBy(ex)) {
            DatabaseUnavailable.logged(ex);
            return page(503);
        }
        log.error("Unexpected failure of a page", ex);
        return page(500);
    }

    private static ModelAndView page(int status) {
        HttpStatus resolved = HttpStatus.resolve(status);
        ModelAndView view = new ModelAndView("error");
        view.setStatus(resolved != null ? resolved : HttpStatus.INTERNAL_SERVER_ERROR);
        view.addObject("status", status);
        view.addObject("requestId", RequestIds.current());
        return view;
    }
}
