package dev.allot.shared.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Failures that happen before any controller is chosen (no such path, wrong method): under {@code /api/} they
 * are problems too; elsewhere they fall through to the HTML error page.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class ApiRoutingProblems {

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ProblemDetail> noSuchPath(NoResourceFoundException ex, HttpServletRequest request)
            throws NoResourceFoundException {
        if (!isApi(request)) {
            throw ex;
        }
        return respond(ApiProblems.problem(404, "not_found", "Not found", "No endpoint " + request.getRequestURI()));
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ProblemDetail> wrongMethod(HttpRequestMethodNotSupportedException ex, HttpServletRequest request)
            throws HttpRequestMethodNotSupportedException {
        if (!isApi(request)) {
            throw ex;
        }
        return ResponseEntity.status(405)
                .headers(headers -> headers.setAllow(
                        ex.getSupportedHttpMethods() == null ? Set.of() : ex.getSupportedHttpMethods()))
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(ApiProblems.problem(405, "method_not_allowed", "Method not allowed", ex.getMessage()));
    }

    private static boolean isApi(HttpServletRequest request) {
        return request.getRequestURI().startsWith("/api/");
    }

    private static ResponseEntity<ProblemDetail> respond(ProblemDetail problem) {
        return ResponseEntity.status(problem.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
