package dev.allot.shared.web;

import dev.allot.shared.AllotException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

/** Writes a problem straight to the response, for refusals made before any controller runs. */
public final class ProblemResponses {

    private ProblemResponses() {}

    public static void write(HttpServletResponse response, AllotException refusal, JsonMapper json) throws IOException {
        ProblemDetail problem =
                ApiProblems.problem(refusal.status(), refusal.code(), refusal.title(), refusal.getMessage());
        refusal.properties().forEach(problem::setProperty);
        response.setStatus(refusal.status());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), problem);
    }
}
