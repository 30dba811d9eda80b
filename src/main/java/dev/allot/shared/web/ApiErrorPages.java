package dev.allot.shared.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.web.ErrorProperties;
import org.springframework.boot.autoconfigure.web.WebProperties;
import org.springframework.boot.webmvc.autoconfigure.error.BasicErrorController;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.servlet.ModelAndView;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the container sends to {@code /error} for an API request (a method Tomcat refuses, such as TRACE, or a
 * failure outside any controller) is a problem like every other API answer, not Boot's plain JSON or the HTML
 * page; pages keep Boot's error page.
 */
@Configuration(proxyBeanMethods = false)
class ApiErrorPages {

    @Bean
    BasicErrorController basicErrorController(
            ErrorAttributes attributes,
            WebProperties web,
            ObjectProvider<ErrorViewResolver> resolvers,
            JsonMapper json) {
        return new ProblemErrorController(
                attributes, web.getError(), resolvers.orderedStream().toList(), json);
    }

    static class ProblemErrorController extends BasicErrorController {

        private final JsonMapper json;

        ProblemErrorController(
                ErrorAttributes attributes, ErrorProperties error, List<ErrorViewResolver> resolvers, JsonMapper json) {
            super(attributes, error, resolvers);
            this.json = json;
        }

        @Override
        public ResponseEntity<Map<String, Object>> error(HttpServletRequest request) {
            if (!isApi(request)) {
                return super.error(request);
            }
            HttpStatus status = getStatus(request);
            return ResponseEntity.status(status)
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(problem(status));
        }

        // null tells Spring MVC the response is written (as its own handlers do); Boot's signature omits @Nullable
        @SuppressWarnings("NullAway")
        @Override
        public @Nullable ModelAndView errorHtml(HttpServletRequest request, HttpServletResponse response) {
            if (!isApi(request)) {
                return super.errorHtml(request, response);
            }
            // a browser's Accept does not turn an API failure into a page
            HttpStatus status = getStatus(request);
            response.setStatus(status.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            try {
                json.writeValue(response.getOutputStream(), problem(status));
            } catch (IOException ex) {
                // the client is gone
            }
            return null;
        }

        private static Map<String, Object> problem(HttpStatus status) {
            ProblemDetail problem = ApiProblems.problem(
                    status.value(),
                    ApiProblems.code(status.value()),
                    status.getReasonPhrase(),
                    status.is5xxServerError()
                            ? "Something went wrong on our side"
                            : "The request was refused before it reached the API: " + status.getReasonPhrase());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put(
                    "type",
                    Objects.requireNonNull(problem.getType(), "about:blank unless set")
                            .toString());
            body.put("title", problem.getTitle());
            body.put("status", problem.getStatus());
            body.put("detail", problem.getDetail());
            if (problem.getProperties() != null) {
                body.putAll(problem.getProperties());
            }
            return body;
        }

        private static boolean isApi(HttpServletRequest request) {
            Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
            return uri != null && uri.toString().startsWith("/api/");
        }
    }
}
