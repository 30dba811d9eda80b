package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reservation labels and the project filter (issue 29, finding 15): a booking carries a string map of labels, read
 * back everywhere, that its list filters by ({@code ?label=key=value}, {@code ?label=key}) together with
 * {@code ?project=}; a bad label is a 400 naming it, and writes nothing.
 */
class ReservationLabelsTests extends BookingFixture {

    @Test
    void aBookingsLabelsAreReadBackAndItsListFiltersByLabelAndByProject() {
        Setup s = setup(2, 16, 16, false);
        newProject(s.tenant(), "inference");
        String nightly = createdId(
                book(s, labelled(body(s, 8, hour(5), hour(6)), "pipeline", "nightly", "workload", "fine-tune")));
        String adhoc = createdId(book(s, labelled(body(s, 8, hour(5), hour(6)), "workload", "eval")));
        Map<String, Object> other = labelled(body(s, 8, hour(7), hour(8)), "pipeline", "nightly");
        other.put("project", "inference");
        String inference = createdId(book(s, other));
        String plain = createdId(book(s, 8, hour(9), hour(10)));

        Api.Response read = api.get(path(s, nightly), s.token());
        assertThat(read.json().get("labels").get("pipeline").asString()).isEqualTo("nightly");
        assertThat(read.json().get("labels").get("workload").asString()).isEqualTo("fine-tune");
        assertThat(api.get(path(s, plain), s.token()).json().get("labels").isEmpty())
                .isTrue();

        String list = "/api/v1/tenants/" + s.tenant() + "/reservations";
        assertThat(ids(api.get(list + "?label=pipeline=nightly", s.token()))).containsExactly(nightly, inference);
        assertThat(ids(api.get(list + "?label=pipeline=nightly,workload=fine-tune", s.token())))
                .containsExactly(nightly);
        assertThat(ids(api.get(list + "?label=workload", s.token()))).containsExactlyInAnyOrder(nightly, adhoc);
        assertThat(ids(api.get(list + "?project=inference", s.token()))).containsExactly(inference);
        assertThat(ids(api.get(list + "?project=training&label=pipeline=nightly", s.token())))
                .containsExactly(nightly);
        Api.Response counted = api.get(list + "?label=pipeline=nightly&limit=1", s.token());
        assertThat(counted.json().get("totalItems").asInt()).isEqualTo(2);
        assertThat(counted.json().get("next").isNull()).isFalse();
    }

    @Test
    void aBadLabelIsA400NamingItAndWritesNothing() {
        Setup s = setup(1, 8, 8, false);
        long writes = writesOf(s.tenant());
        assertThat(field(book(s, labelled(body(s, 8, hour(5), hour(6)), "Pipeline", "x"))))
                .isEqualTo("labels.Pipeline");
        assertThat(field(book(s, labelled(body(s, 8, hour(5), hour(6)), "commit", "a".repeat(257)))))
                .isEqualTo("labels.commit");
        assertThat(field(book(s, labelled(body(s, 8, hour(5), hour(6)), "note", "a\u0007b"))))
                .isEqualTo("labels.note");
        Map<String, Object> tooMany = body(s, 8, hour(5), hour(6));
        Map<String, String> seventeen = new HashMap<>();
        for (int i = 0; i < 17; i++) {
            seventeen.put("k" + i, "v");
        }
        tooMany.put("labels", seventeen);
        assertThat(field(book(s, tooMany))).isEqualTo("labels");
        assertThat(writesOf(s.tenant())).isEqualTo(writes);
        assertThat(field(api.get("/api/v1/tenants/" + s.tenant() + "/reservations?label=Bad=1", s.token())))
                .isEqualTo("label");
    }

    private static Map<String, Object> labelled(Map<String, Object> body, String... pairs) {
        Map<String, String> labels = new HashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            labels.put(pairs[i], pairs[i + 1]);
        }
        body.put("labels", labels);
        return body;
    }

    private static List<String> ids(Api.Response list) {
        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        list.json().get("items").forEach(item -> ids.add(item.get("id").asString()));
        return ids;
    }

    private static String field(Api.Response refused) {
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        return refused.json().get("errors").get(0).get("field").asString();
    }
}
