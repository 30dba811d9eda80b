package dev.allot.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.support.Api;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The usage and spend that booking decisions read (V60's edges, hour levels and month counters) stay what the
 * priced segments say through booking, extending and cancelling, with windows off the hour.
 */
class QuotaUsageMaintenanceTests extends BookingFixture {

    @Test
    void theMaintainedUsageAndSpendEqualThePricedSegmentsAfterEveryChange() {
        Setup s = setup(4, 8, 16, true);
        Api.Response first = book(s, 8, hour(60).plus(Duration.ofMinutes(17)), hour(63).plus(Duration.ofMinutes(17)));
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertAgree(s);
        Api.Response second = book(s, 16, hour(61).plus(Duration.ofMinutes(5)), hour(65));
        assertThat(second.status()).as(second.body()).isEqualTo(201);
        Api.Response third = book(s, 8, hour(64).plus(Duration.ofMinutes(17)), hour(66));
        assertThat(third.status()).as(third.body()).isEqualTo(201);
        assertAgree(s);

        String id = first.json().get("id").asString();
        Api.Response extended = api.patch(
                path(s, id),
                s.token(),
                Map.of("endsAt", hour(63).plus(Duration.ofMinutes(47)).toString()),
                "If-Match",
                first.header("ETag"));
        assertThat(extended.status()).as(extended.body()).isEqualTo(200);
        assertAgree(s);

        String cancelled = second.json().get("id").asString();
        assertThat(api.post(path(s, cancelled) + "/cancel", s.token(), Map.of()).status())
                .isEqualTo(200);
        assertAgree(s);
        assertThat(levels(s, "quota_usage_level WHERE gpus <> 0")).isNotEmpty();
    }

    private void assertAgree(Setup s) {
        assertThat(edges(s, "quota_usage_edge"))
                .isEqualTo(jdbc.sql("""
				SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' ' || count(*) || ' ' || sum(d)
				FROM (SELECT tenant_id, lower(during) AS at, reserved_gpus + borrowed_gpus + on_demand_gpus AS d
				      FROM quota_usage
				      UNION ALL
				      SELECT tenant_id, upper(during), -(reserved_gpus + borrowed_gpus + on_demand_gpus) FROM quota_usage) x
				JOIN tenant t ON t.id = x.tenant_id WHERE t.slug = ? GROUP BY at ORDER BY at""").param(s.tenant()).query(String.class).list());
        assertThat(levels(s, "quota_usage_level WHERE gpus <> 0"))
                .isEqualTo(jdbc.sql("""
				SELECT to_char(h AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') || ' ' || sum(u.gpus)
				FROM (SELECT tenant_id, during, reserved_gpus + borrowed_gpus + on_demand_gpus AS gpus FROM quota_usage) u
				JOIN tenant t ON t.id = u.tenant_id,
				     generate_series(date_trunc('hour', lower(u.during), 'UTC'), upper(u.during), interval '1 hour') h
				WHERE t.slug = ? AND u.during @> h
				GROUP BY h HAVING sum(u.gpus) <> 0 ORDER BY h""").param(s.tenant()).query(String.class).list());
        assertThat(jdbc.sql("""
				SELECT to_char(month AT TIME ZONE 'UTC', 'YYYY-MM') || ' ' || project || ' ' || currency || ' ' || amount
				FROM quota_spend q JOIN tenant t ON t.id = q.tenant_id WHERE t.slug = ? AND amount <> 0 ORDER BY 1""").param(s.tenant()).query(String.class).list())
                .isEqualTo(jdbc.sql("""
				SELECT to_char(date_trunc('month', lower(during), 'UTC') AT TIME ZONE 'UTC', 'YYYY-MM') || ' ' || project
				       || ' ' || currency || ' ' || sum(amount)
				FROM quota_usage q JOIN tenant t ON t.id = q.tenant_id WHERE t.slug = ?
				GROUP BY date_trunc('month', lower(during), 'UTC'), project, currency HAVING sum(amount) <> 0 ORDER BY 1""").param(s.tenant()).query(String.class).list());
    }

    private List<String> edges(Setup s, String table) {
        return jdbc.sql(
                        "SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' ' || refs || ' ' || delta FROM "
                                + table + " e JOIN tenant t ON t.id = e.tenant_id WHERE t.slug = ? ORDER BY at")
                .param(s.tenant())
                .query(String.class)
                .list();
    }

    private List<String> levels(Setup s, String from) {
        return jdbc.sql("SELECT to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') || ' ' || gpus FROM " + from
                        + " AND tenant_id = (SELECT id FROM tenant WHERE slug = ?) ORDER BY hour")
                .param(s.tenant())
                .query(String.class)
                .list();
    }
}
