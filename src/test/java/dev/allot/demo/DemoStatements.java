package dev.allot.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.time.YearMonth;
import tools.jackson.databind.JsonNode;

/** What the demo's statements show, checked the same way whatever the clock of the test. */
final class DemoStatements {

    private DemoStatements() {}

    /** The month before {@code current} is closed with lines on acme-ml's statement; {@code current} is open. */
    static void lastMonthClosedAndThisOneOpen(Api api, String adminToken, YearMonth current) {
        JsonNode statement = api.get("/api/v1/tenants/acme-ml/statements/" + current.minusMonths(1), adminToken)
                .json();
        assertThat(statement.get("status").asString()).isEqualTo("CLOSED");
        assertThat(statement.get("lines").size()).isGreaterThanOrEqualTo(3);
        assertThat(api.get("/api/v1/tenants/acme-ml/statements/" + current, adminToken)
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("OPEN");
    }
}
