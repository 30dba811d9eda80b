package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Long lists (API.md): {@code ?limit=&cursor=}, {@code next} and {@code Link: rel="next"}, and a 400 for a query
 * parameter an operation does not take (issue 29, finding 14).
 */
class LongListsTests extends BookingFixture {

    @Test
    void reservationsPageByCursorWithoutRepeatsOrGapsWhileOthersAreBookedBetweenPages() {
        Setup s = setup(1, 8, 8, false);
        List<String> booked = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            booked.add(createdId(book(s, 8, hour(10 + 2 * i), hour(11 + 2 * i))));
        }
        String list = "/api/v1/tenants/" + s.tenant() + "/reservations";

        Api.Response first = api.get(list + "?limit=2", s.token());
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(ids(first.json())).containsExactly(booked.get(0), booked.get(1));
        assertThat(first.json().get("totalItems").asLong()).isEqualTo(5);
        assertThat(first.json().get("size").asInt()).isEqualTo(2);
        String next = first.json().get("next").asString();
        assertThat(first.header("link"))
                .isEqualTo(
                        "</api/v1/tenants/" + s.tenant() + "/reservations?limit=2&cursor=" + next + ">; rel=\"next\"");

        // booked between pages, before the cursor: an offset would repeat the second item on the next page
        String earlier = createdId(book(s, 8, hour(5), hour(6)));
        List<String> seen = new ArrayList<>(ids(first.json()));
        String link = first.header("link");
        while (link != null) {
            String target = link.substring(1, link.indexOf('>'));
            Api.Response page = api.get(target, s.token());
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            seen.addAll(ids(page.json()));
            link = page.header("link");
            assertThat(page.json().get("next").isNull()).isEqualTo(link == null);
        }
        assertThat(seen).containsExactlyElementsOf(booked).doesNotContain(earlier);

        // the last page says so; an offset page still works and gives the next cursor too
        Api.Response byOffset = api.get(list + "?page=1&size=2", s.token());
        assertThat(ids(byOffset.json())).containsExactly(booked.get(1), booked.get(2));
        assertThat(byOffset.json().get("next").isNull()).isFalse();
        Api.Response all = api.get(list + "?limit=10", s.token());
        assertThat(ids(all.json())).hasSize(6);
        assertThat(all.json().get("next").isNull()).isTrue();
        assertThat(all.header("link")).isNull();
    }

    @Test
    void aCursorThatIsNotOneAListGaveOrThatIsMixedWithPagingIsA400NamingTheParameter() {
        Setup s = setup(1, 8, 8, false);
        createdId(book(s, 8, hour(10), hour(11)));
        createdId(book(s, 8, hour(12), hour(13)));
        String list = "/api/v1/tenants/" + s.tenant() + "/reservations";
        String next = api.get(list + "?limit=1", s.token()).json().get("next").asString();

        assertThat(problemField(api.get(list + "?cursor=bm90LWEtY3Vyc29y", s.token())))
                .isEqualTo("cursor");
        // a ledger cursor (one key part) is not a reservations cursor (two)
        assertThat(problemField(api.get(list + "?cursor=djF8MTI", s.token()))).isEqualTo("cursor");
        assertThat(problemField(api.get(list + "?cursor=" + next + "&page=1", s.token())))
                .isEqualTo("page");
        assertThat(problemField(api.get(list + "?limit=1&size=1", s.token()))).isEqualTo("limit");
        assertThat(problemField(api.get(list + "?limit=501", s.token()))).isEqualTo("size");
    }

    @Test
    void anUnknownQueryParameterIsA400NamingItAndWhatTheOperationTakes() {
        Setup s = setup(1, 8, 8, false);
        Api.Response sorted = api.get("/api/v1/tenants?sort=name&limit=5", adminToken());
        assertThat(sorted.status()).as(sorted.body()).isEqualTo(400);
        assertThat(sorted.header("content-type")).startsWith("application/problem+json");
        List<String> fields = new ArrayList<>();
        sorted.json().get("errors").forEach(e -> fields.add(e.get("field").asString()));
        assertThat(fields).containsExactlyInAnyOrder("sort", "limit");
        assertThat(sorted.json().get("errors").get(0).get("message").asString()).contains("page", "size");

        Api.Response typo = api.get("/api/v1/tenants/" + s.tenant() + "/reservations?limt=2", s.token());
        assertThat(problemField(typo)).isEqualTo("limt");
        assertThat(api.get("/api/v1/tenants/" + s.tenant() + "/reservations?status=CONFIRMED&limit=2", s.token())
                        .status())
                .isEqualTo(200);
        // an operation that takes none refuses any
        assertThat(problemField(api.get("/api/v1/me?verbose=1", s.token()))).isEqualTo("verbose");
    }

    @Test
    void auditEventsAndNotificationsPageByCursorNewestFirst() {
        Setup s = setup(1, 8, 8, false);
        for (int i = 0; i < 3; i++) {
            createdId(book(s, 8, hour(10 + 2 * i), hour(11 + 2 * i)));
        }
        String audit = "/api/v1/audit-events?tenant=" + s.tenant();
        List<Long> events = new ArrayList<>();
        String next = null;
        do {
            Api.Response page = api.get(audit + "&limit=2" + (next == null ? "" : "&cursor=" + next), adminToken());
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            page.json().get("items").forEach(e -> events.add(e.get("id").asLong()));
            next = page.json().get("next").isNull()
                    ? null
                    : page.json().get("next").asString();
        } while (next != null && events.size() < 100);
        long total = api.get(audit, adminToken()).json().get("totalItems").asLong();
        assertThat(events)
                .hasSize((int) total)
                .doesNotHaveDuplicates()
                .isSortedAccordingTo((a, b) -> Long.compare(b, a));

        for (int i = 0; i < 3; i++) {
            jdbc.sql("""
					INSERT INTO notification (id, tenant_id, kind, dedup_key, message, details, created_at, delivery)
					SELECT gen_random_uuid(), id, 'BUDGET_THRESHOLD', 'test:' || ?, 'n', '{}',
					       now() - make_interval(mins => ?), 'NONE'
					FROM tenant WHERE slug = ?""").params(i, i, s.tenant()).update();
        }
        Api.Response first = api.get("/api/v1/tenants/" + s.tenant() + "/notifications?limit=2", s.token());
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        Api.Response second = api.get(
                "/api/v1/tenants/" + s.tenant() + "/notifications?limit=2&cursor="
                        + first.json().get("next").asString(),
                s.token());
        assertThat(second.json().get("items")).hasSize(1);
        assertThat(second.json().get("next").isNull()).isTrue();
        assertThat(second.json().get("items").get(0).get("createdAt").asString())
                .isLessThan(first.json().get("items").get(1).get("createdAt").asString());
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("items").forEach(item -> ids.add(item.get("id").asString()));
        return ids;
    }

    private static String problemField(Api.Response response) {
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        return response.json().get("errors").get(0).get("field").asString();
    }
}
