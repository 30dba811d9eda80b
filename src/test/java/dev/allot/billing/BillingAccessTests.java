package dev.allot.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Who may see what, the ledger's pages, and bad input on the tenant endpoints. */
class BillingAccessTests extends BillingTest {

    @Test
    void anotherTenantGets404OnEveryBillingEndpointOfATenant() {
        Instant t0 = newMonth();
        Setup s = setup(1, 8, 8, false);
        String month = YearMonth.from(t0.atOffset(ZoneOffset.UTC)).toString();
        assertThat(api.put(path(s, "/budget"), s.token(), Map.of("amount", 100, "currency", "USD"))
                        .status())
                .isEqualTo(200);
        String stranger = tenantToken(newTenant(), "TENANT_ADMIN");

        for (String read : List.of("/ledger", "/statements/" + month, "/budget", "/notifications", "/usage")) {
            assertThat(api.get(path(s, read), s.token()).status()).as(read).isEqualTo(200);
            assertThat(api.get(path(s, read), stranger).status()).as(read).isEqualTo(404);
            assertThat(api.get(path(s, read), stranger, "Accept", "text/csv").status())
                    .as(read)
                    .isIn(404, 406);
        }
        assertThat(api.put(path(s, "/budget"), stranger, Map.of("amount", 1, "currency", "USD"))
                        .status())
                .isEqualTo(404);
        assertThat(api.post(path(s, "/ledger/1/reversal"), stranger, Map.of("reason", "x"))
                        .status())
                .isEqualTo(404);
        assertThat(api.get("/api/v1/tenants/no-such-tenant/ledger", adminToken())
                        .status())
                .isEqualTo(404);
    }

    @Test
    void theLedgerPagesByCursorNewestFirstWithoutGapsOrRepeats() {
        Instant t0 = newMonth();
        Setup s = setup(1, 8, 8, false);
        book(s, 8, t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(6)).plus(Duration.ofMinutes(30)));
        CLOCK.set(t0.plus(Duration.ofHours(8)));
        metering.meterDue(CLOCK.instant());

        List<Long> ids = new ArrayList<>();
        String next = null;
        int pages = 0;
        do {
            Api.Response page = api.get(path(s, "/ledger?size=2" + (next == null ? "" : "&cursor=" + next)), s.token());
            JsonNode body = page.json();
            assertThat(body.get("totalItems").asLong()).isEqualTo(6);
            body.get("items").forEach(item -> {
                ids.add(item.get("id").asLong());
                assertThat(item.get("entries")).hasSizeGreaterThanOrEqualTo(2);
            });
            next = body.get("next").isNull() ? null : body.get("next").asString();
            pages++;
        } while (next != null && pages < 10);

        assertThat(ids).hasSize(6).doesNotHaveDuplicates();
        assertThat(ids).isSortedAccordingTo((a, b) -> Long.compare(b, a));
        assertThat(api.get(path(s, "/ledger?page=1&size=4"), s.token()).json().get("items"))
                .hasSize(2);
        Api.Response bad = api.get(path(s, "/ledger?cursor=not-a-cursor"), s.token());
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("errors").get(0).get("field").asString()).isEqualTo("cursor");
    }

    @Test
    void aStatementOfAMalformedOrFutureMonthIsRefusedNamingTheMonth() {
        Instant t0 = newMonth();
        Setup s = setup(1, 8, 8, false);
        for (String month : List.of(
                "2027-13",
                "2027-1",
                "january",
                YearMonth.from(t0.atOffset(ZoneOffset.UTC)).plusMonths(1).toString())) {
            Api.Response refused = api.get(path(s, "/statements/" + month), s.token());
            assertThat(refused.status()).as(month).isEqualTo(400);
            assertThat(refused.json().get("errors").get(0).get("field").asString())
                    .isEqualTo("month");
        }
    }
}
