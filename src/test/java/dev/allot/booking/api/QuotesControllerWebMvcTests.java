package dev.allot.booking.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import dev.allot.booking.BookingRequest;
import dev.allot.booking.Bookings;
import dev.allot.shared.AllotException;
import dev.allot.shared.security.Caller;
import dev.allot.shared.security.TenantRole;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.Filter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.context.annotation.Import;
import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The quote endpoint's request and response shapes as a web slice (issue 32's test layers): the controller, the
 * problem advice and the strict JSON reader, with {@link Bookings} mocked and a fixed caller in place of sign-in.
 * That the numbers are right is the booking tests' business; here: the names and nesting clients read, a refusal
 * folded into the answer, and bad input answered as problem+json before booking is asked. The slice starts in
 * about 3 s, where the whole application takes 15 or more.
 */
@WebMvcTest(
        controllers = QuotesController.class,
        includeFilters =
                @ComponentScan.Filter(type = FilterType.REGEX, pattern = "dev\\.allot\\.shared\\.web\\.StrictJson"),
        excludeFilters = {
            @ComponentScan.Filter(
                    type = FilterType.ASSIGNABLE_TYPE,
                    classes = {Filter.class, HandlerMethodArgumentResolver.class}),
            @ComponentScan.Filter(type = FilterType.REGEX, pattern = "dev\\.allot\\..*\\.ui\\..*")
        })
@AutoConfigureMockMvc(addFilters = false)
@Import(QuotesControllerWebMvcTests.SignedIn.class)
class QuotesControllerWebMvcTests {

    static final Caller MEMBER =
            new Caller("alice", "Alice", Caller.Kind.USER, Set.of(), Map.of("acme", TenantRole.MEMBER), Map.of());

    private static final String REQUEST = """
            {"project":"training","pool":"h100","gpus":8,
             "startsAt":"2030-01-01T10:00:00Z","endsAt":"2030-01-01T12:00:00Z"}""";

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    Bookings bookings;

    @Test
    void aQuoteThatFitsAnswersWithTheCapacityItCountedAndNoRefusal() {
        when(bookings.quote(eq(MEMBER), eq("acme"), any(BookingRequest.class)))
                .thenReturn(new Bookings.Quote(
                        true, 3, 1, null, null, null, new Bookings.Reclaim(0, Duration.ZERO), false));

        MvcTestResult answer = post(REQUEST);

        assertThat(answer).hasStatusOk().hasContentType(MediaType.APPLICATION_JSON);
        assertThat(answer).bodyJson().isLenientlyEqualTo("""
                        {"fits":true,"capacity":{"fits":true,"freeNodes":3,"neededNodes":1},
                         "quote":null,"refusal":null,"needsApproval":false}""");
    }

    @Test
    void aRefusalIsFoldedIntoTheAnswerWithItsCodeDetailAndProperties() {
        AllotException heldBack = new AllotException(409, "capacity_not_available", "Capacity not available", "full")
                .with("earliestStart", "2030-01-01T14:00:00Z");
        when(bookings.quote(eq(MEMBER), eq("acme"), any(BookingRequest.class)))
                .thenReturn(new Bookings.Quote(
                        false, 0, 1, null, null, heldBack, new Bookings.Reclaim(0, Duration.ZERO), false));

        MvcTestResult answer = post(REQUEST);

        assertThat(answer).hasStatusOk();
        assertThat(answer).bodyJson().isLenientlyEqualTo("""
                        {"fits":false,"capacity":{"fits":false,"freeNodes":0,"neededNodes":1},
                         "refusal":{"code":"capacity_not_available","detail":"full",
                                    "earliestStart":"2030-01-01T14:00:00Z"}}""");
    }

    @Test
    void aFieldTheContractDoesNotKnowIsA400ProblemAndBookingIsNotAsked() {
        MvcTestResult answer = post(REQUEST.replace("\"gpus\":8", "\"gpus\":8,\"gpu\":8"));

        assertThat(answer).hasStatus(400).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(answer).bodyJson().extractingPath("$.status").isEqualTo(400);
        assertThat(answer).bodyJson().extractingPath("$.detail").asString().contains("gpu");
        verifyNoInteractions(bookings);
    }

    @Test
    void aMissingRequiredFieldIsA400ProblemNamingItAndBookingIsNotAsked() {
        MvcTestResult answer = post(REQUEST.replace("\"project\":\"training\",", ""));

        assertThat(answer).hasStatus(400).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(answer)
                .bodyJson()
                .extractingPath("$.errors[*].field")
                .asArray()
                .contains("project");
        verifyNoInteractions(bookings);
    }

    private MvcTestResult post(String body) {
        return mvc.post()
                .uri("/api/v1/tenants/acme/quotes")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body)
                .exchange();
    }

    /** Sign-in stands aside: every request is {@link #MEMBER}'s. The problem advice counts into a plain registry. */
    @TestConfiguration
    static class SignedIn implements WebMvcConfigurer {

        @Bean
        MeterRegistry meters() {
            return new SimpleMeterRegistry();
        }

        @Override
        public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
            resolvers.add(new HandlerMethodArgumentResolver() {
                @Override
                public boolean supportsParameter(MethodParameter parameter) {
                    return Caller.class.equals(parameter.getParameterType());
                }

                @Override
                public Object resolveArgument(
                        MethodParameter parameter,
                        ModelAndViewContainer mav,
                        NativeWebRequest request,
                        WebDataBinderFactory binders) {
                    return MEMBER;
                }
            });
        }
    }
}
