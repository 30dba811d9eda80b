package dev.allot.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.allot.shared.security.PlatformRole;
import dev.allot.support.Api;
import dev.allot.support.Axe;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Issue 30's bar on every page: axe-core finds no violation at all (WCAG 2.0-2.2 A and AA and Deque's best practices,
 * whatever the impact) on each browser page the application maps, at 1440x900 and at 390x844, seen by the role that
 * uses it. The pages are read from Spring MVC's own mappings, so a new page that this test cannot fill fails it.
 */
class EveryPageAccessibilityBrowserTests extends ConsoleBrowserTest {

    /** Mapped GET routes that are not pages of their own, each with the reason; every other one must be visited. */
    private static final Map<String, String> SKIPPED = Map.of(
            "/tenants/{tenant}/reservations/{id}/notices",
            "an htmx fragment the reservation page loads into itself (checked there, on that page)",
            "/tenants/{tenant}/reservations/notices",
            "an htmx fragment the reservations list loads into itself (checked there, on that page)",
            "/admin/pools/{pool}/nodes/preview",
            "an htmx fragment the pool page's add-nodes form loads as one types (checked on that page)");

    private static final List<Dimension> SIZES = List.of(new Dimension(1440, 900), new Dimension(390, 844));

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Autowired
    DataSource dataSource;

    @Autowired
    List<Task<?>> tasks;

    private enum Role {
        SIGNED_OUT,
        MEMBER,
        TENANT_ADMIN,
        PLATFORM_ADMIN
    }

    private record Visit(Role role, String path) {}

    @Test
    void axeCoreFindsNoViolationOnAnyPageAtEitherSize() {
        Set<String> routes = pageRoutes();
        Fixture f = fixture();
        Map<String, List<Visit>> visits = visits(f);

        List<String> failures = new ArrayList<>();
        for (String route : routes) {
            if (!visits.containsKey(route) && !SKIPPED.containsKey(route)) {
                failures.add(
                        "A page route this test cannot fill (add it to visits, or to SKIPPED with a reason): " + route);
            }
        }
        for (String route : visits.keySet()) {
            if (!routes.contains(route)) {
                failures.add("A route this test visits is no longer mapped: " + route);
            }
        }
        for (String route : SKIPPED.keySet()) {
            if (!routes.contains(route)) {
                failures.add("A skipped route is no longer mapped: " + route);
            }
        }

        // grouped by role, so that each role signs in once
        List<Map.Entry<String, Visit>> ordered = new ArrayList<>();
        visits.forEach((route, list) -> list.forEach(v -> ordered.add(Map.entry(route, v))));
        ordered.sort(Comparator.comparing(e -> e.getValue().role()));
        Role current = null;
        int checked = 0;
        for (Map.Entry<String, Visit> entry : ordered) {
            Visit visit = entry.getValue();
            if (visit.role() != current) {
                signInAs(visit.role(), f);
                current = visit.role();
            }
            for (Dimension size : SIZES) {
                browser.manage().window().setSize(size);
                browser.get(url(visit.path()));
                settle();
                String shown = browser.getCurrentUrl();
                String contentType = String.valueOf(browser.executeScript("return document.contentType"));
                if (!"text/html".equals(contentType)) {
                    failures.add(entry.getKey() + " as " + visit.role() + " at " + size + ": not an HTML page ("
                            + contentType + ") at " + shown);
                    continue;
                }
                String landed = landedWrong(entry.getKey(), visit);
                if (landed != null) {
                    failures.add(
                            entry.getKey() + " as " + visit.role() + " at " + size + ": " + landed + " at " + shown);
                    continue;
                }
                List<String> violations = Axe.allViolations(browser);
                checked++;
                if (!violations.isEmpty()) {
                    failures.add(entry.getKey() + " as " + visit.role() + " at " + size.getWidth() + "x"
                            + size.getHeight() + " (" + shown + "):\n    " + String.join("\n    ", violations));
                }
            }
        }
        // the check can fail: a field without a label, put in the page shown last, is found
        browser.executeScript("var i = document.createElement('input'); i.type = 'text'; i.id = 'unlabelled';"
                + " document.querySelector('main').appendChild(i);");
        assertThat(Axe.allViolations(browser))
                .as("axe-core on a page with an unlabelled field")
                .anySatisfy(v -> assertThat(v).startsWith("label "));
        browser.executeScript("document.getElementById('unlabelled').remove();");
        System.out.println("axe-core (every rule of issue 30's bar) checked " + checked + " page views of "
                + visits.size() + " routes; skipped " + SKIPPED.keySet());
        assertThat(failures).as(String.join("\n", failures)).isEmpty();
        browser.manage().window().setSize(new Dimension(1280, 900));
    }

    /** Why the page shown is not the one the visit meant (the sign-in form, or an error page), or null. */
    private String landedWrong(String route, Visit visit) {
        if (visit.role() != Role.SIGNED_OUT && exists("#sign-in")) {
            return "the sign-in form instead of the page";
        }
        boolean error = exists("#error-status");
        if (route.equals("/error")) {
            return error && find("#error-status").getText().equals("404") ? null : "not the 404 page";
        }
        return error ? "an error page (" + find("#error-status").getText() + ")" : null;
    }

    /**
     * The GET routes of Allot's own HTML pages: not the API, nor an answer written as a body (JSON, a download, a
     * 204), nor an event stream; Spring Boot's {@code /error} stays in (the error page a person sees).
     */
    private Set<String> pageRoutes() {
        Set<String> routes = new TreeSet<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> entry :
                mappings.getHandlerMethods().entrySet()) {
            RequestMappingInfo info = entry.getKey();
            HandlerMethod handler = entry.getValue();
            Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
            if (!methods.isEmpty() && !methods.contains(RequestMethod.GET)) {
                continue;
            }
            Set<MediaType> produces = info.getProducesCondition().getProducibleMediaTypes();
            if (!produces.isEmpty() && produces.stream().noneMatch(MediaType.TEXT_HTML::isCompatibleWith)) {
                continue;
            }
            Method method = handler.getMethod();
            if (AnnotatedElementUtils.hasAnnotation(method, ResponseBody.class)
                    || AnnotatedElementUtils.hasAnnotation(handler.getBeanType(), ResponseBody.class)
                    || ResponseEntity.class.isAssignableFrom(method.getReturnType())
                    || method.getReturnType() == void.class) {
                continue;
            }
            for (String pattern : info.getPatternValues()) {
                if (!pattern.startsWith("/api/") && !pattern.equals("/api")) {
                    routes.add(pattern);
                }
            }
        }
        return routes;
    }

    private record Fixture(
            Team team, String tenantAdmin, String platformAdmin, String node, String reservation, String check) {}

    /**
     * A team on a pool of one node with a member and a tenant admin, a ready cluster with a health check run on it,
     * a pending approval and a preempted reservation with its notice (so that warnings and notices are drawn), a
     * budget, and a platform admin.
     */
    private Fixture fixture() {
        Team team = team(1, 0, 8, false);
        String tenantAdmin = newUser();
        addMember(team.tenant(), tenantAdmin, "TENANT_ADMIN");
        Api.Response budget = api.put(
                "/api/v1/tenants/" + team.tenant() + "/budget",
                adminToken(),
                Map.of("amount", 1000, "currency", "USD"));
        assertThat(budget.status()).as(budget.body()).isEqualTo(200);
        Team rival = teamOn(team.gpuType(), team.pool(), 8, 8, false);
        preempted(rival, team);

        // a cluster made ready by the provisioning task, as ClusterSectionBrowserTests does, then a check on it
        Instant start = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofDays(2));
        jdbc.sql("DELETE FROM scheduled_tasks WHERE task_name LIKE 'cluster-%'").update();
        jdbc.sql("UPDATE cluster SET open = false, state = 'DELETED' WHERE open")
                .update();
        String reservation = bookByApi(team, 8, start, start.plus(Duration.ofHours(2)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.sql("SELECT count(*) FROM scheduled_tasks WHERE task_instance = ?")
                                .param(reservation)
                                .query(Long.class)
                                .single()
                        == 2);
        SettableClock clock = new SettableClock();
        clock.set(start.minus(Duration.ofMinutes(15)));
        TestHelper.createManualScheduler(
                        dataSource,
                        tasks.stream()
                                .filter(t -> t.getName().equals("cluster-provision"))
                                .toList())
                .clock(clock)
                .build()
                .runAnyDueExecutions();
        Api.Response asked = api.post(
                "/api/v1/tenants/" + team.tenant() + "/reservations/" + reservation + "/health-checks",
                team.token(),
                Map.of("kind", "NVIDIA_SMI"));
        assertThat(asked.status()).as(asked.body()).isEqualTo(202);
        String check = asked.json().get("id").asString();
        SettableClock later = new SettableClock();
        later.set(Instant.now().plus(Duration.ofMinutes(1)));
        TestHelper.createManualScheduler(
                        dataSource,
                        tasks.stream()
                                .filter(t -> t.getName().equals("cluster-health-check"))
                                .toList())
                .clock(later)
                .build()
                .runAnyDueExecutions();

        return new Fixture(
                team, tenantAdmin, newUser(PlatformRole.PLATFORM_ADMIN), team.pool() + "-n0", reservation, check);
    }

    /** Each route, filled from the fixture, with the role that uses it (in order: one sign-in per role). */
    private Map<String, List<Visit>> visits(Fixture f) {
        String t = f.team().tenant();
        String r = "/tenants/" + t + "/reservations/" + f.reservation();
        Map<String, List<Visit>> visits = new LinkedHashMap<>();
        visits.put("/login", List.of(new Visit(Role.SIGNED_OUT, "/login")));
        // the home page and the error page differ by role: a member's, then a platform admin's (below)
        visits.put("/", new ArrayList<>(List.of(new Visit(Role.MEMBER, "/"))));
        visits.put("/calendar", List.of(new Visit(Role.MEMBER, "/calendar")));
        visits.put(
                "/book", List.of(new Visit(Role.MEMBER, "/book?pool=" + f.team().pool())));
        visits.put("/reservations", List.of(new Visit(Role.MEMBER, "/reservations")));
        visits.put("/usage", List.of(new Visit(Role.MEMBER, "/usage")));
        visits.put("/invitations", List.of(new Visit(Role.MEMBER, "/invitations")));
        visits.put("/error", new ArrayList<>(List.of(new Visit(Role.MEMBER, "/tenants/" + t + "/no-such-page"))));
        visits.put("/tenants/{tenant}", List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t)));
        visits.put("/tenants/{tenant}/home", List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t + "/home")));
        visits.put("/tenants/{tenant}/projects", List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t + "/projects")));
        visits.put("/tenants/{tenant}/members", List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t + "/members")));
        visits.put(
                "/tenants/{tenant}/service-accounts",
                List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t + "/service-accounts")));
        visits.put(
                "/tenants/{tenant}/approvals", List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t + "/approvals")));
        visits.put(
                "/tenants/{tenant}/reservations",
                List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t + "/reservations")));
        visits.put("/tenants/{tenant}/reservations/{id}", List.of(new Visit(Role.TENANT_ADMIN, r)));
        visits.put(
                "/tenants/{tenant}/reservations/{id}/cluster", List.of(new Visit(Role.TENANT_ADMIN, r + "/cluster")));
        visits.put(
                "/tenants/{tenant}/reservations/{id}/cluster/health-checks/{check}",
                List.of(new Visit(Role.TENANT_ADMIN, r + "/cluster/health-checks/" + f.check())));
        visits.put("/tenants/{tenant}/quota", List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t + "/quota")));
        visits.put("/tenants/{tenant}/notices", List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t + "/notices")));
        visits.put("/tenants/{tenant}/usage", List.of(new Visit(Role.TENANT_ADMIN, "/tenants/" + t + "/usage")));
        visits.get("/").add(new Visit(Role.PLATFORM_ADMIN, "/"));
        visits.put("/admin", List.of(new Visit(Role.PLATFORM_ADMIN, "/admin")));
        visits.put("/admin/tenants", List.of(new Visit(Role.PLATFORM_ADMIN, "/admin/tenants")));
        visits.put("/admin/pools", List.of(new Visit(Role.PLATFORM_ADMIN, "/admin/pools")));
        visits.put(
                "/admin/pools/{pool}",
                List.of(new Visit(
                        Role.PLATFORM_ADMIN, "/admin/pools/" + f.team().pool())));
        visits.put("/admin/nodes", List.of(new Visit(Role.PLATFORM_ADMIN, "/admin/nodes")));
        visits.put("/admin/nodes/{hostname}", List.of(new Visit(Role.PLATFORM_ADMIN, "/admin/nodes/" + f.node())));
        visits.put("/admin/quotas", List.of(new Visit(Role.PLATFORM_ADMIN, "/admin/quotas")));
        visits.put("/admin/quotas/{tenant}", List.of(new Visit(Role.PLATFORM_ADMIN, "/admin/quotas/" + t)));
        visits.put("/admin/rate-cards", List.of(new Visit(Role.PLATFORM_ADMIN, "/admin/rate-cards")));
        visits.put("/admin/audit", List.of(new Visit(Role.PLATFORM_ADMIN, "/admin/audit")));
        visits.get("/error").add(new Visit(Role.PLATFORM_ADMIN, "/admin/no-such-page"));
        return visits;
    }

    private void signInAs(Role role, Fixture f) {
        browser.manage().window().setSize(new Dimension(1440, 900));
        switch (role) {
            case SIGNED_OUT -> browser.manage().deleteAllCookies();
            case MEMBER -> signIn(f.team().member());
            case TENANT_ADMIN -> signIn(f.tenantAdmin());
            case PLATFORM_ADMIN -> signIn(f.platformAdmin());
        }
    }

    /** Waits until the page and the fragments it loads at once (htmx, the calendar's data) are drawn. */
    private void settle() {
        waitFor(ExpectedConditions.presenceOfElementLocated(By.tagName("body")));
        waitFor(driver -> "complete".equals(browser.executeScript("return document.readyState")));
        // no request out, nothing being swapped in or settling, and two frames drawn since
        waitFor(driver -> Boolean.TRUE.equals(browser.executeScript(
                "return document.querySelectorAll('.htmx-request, .htmx-swapping, .htmx-settling').length === 0")));
        twoFramesDrawn();
    }
}
