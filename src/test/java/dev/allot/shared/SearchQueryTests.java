package dev.allot.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.allot.quota.Quotas;
import dev.allot.shared.web.ListLinks;
import dev.allot.tenancy.Tenancy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How an admin list's {@code ?q=&sort=&page=&size=} become SQL: only whitelisted columns, every bad value refused. */
class SearchQueryTests {

    private static final SearchQuery.Columns COLUMNS =
            SearchQuery.Columns.of("p.name", "name", "p.name", "nodes", "c.nodes");

    @Test
    void aSortOnAWhitelistedColumnOrdersByItsExpressionThenTheTieBreaker() {
        SearchQuery query = COLUMNS.read(null, "nodes,desc", null, null);
        assertThat(query.orderBy()).isEqualTo(" ORDER BY c.nodes DESC NULLS LAST, p.name");
        assertThat(COLUMNS.read(null, "nodes", null, null).orderBy())
                .isEqualTo(" ORDER BY c.nodes ASC NULLS FIRST, p.name");
        assertThat(COLUMNS.read(null, null, null, null).orderBy())
                .isEqualTo(" ORDER BY p.name ASC NULLS FIRST, p.name");
        assertThat(COLUMNS.read(null, " nodes , DESC ", null, null).sortParam()).isEqualTo("nodes,desc");
    }

    @Test
    void aSortOnAnythingElseIsRefusedNamingTheColumnsItTakes() {
        for (String bad :
                new String[] {"p.name", "name;DROP TABLE pool", "name,up", "name,asc,desc", "NAME", "nodes desc"}) {
            assertThatThrownBy(() -> COLUMNS.read(null, bad, null, null))
                    .as(bad)
                    .isInstanceOfSatisfying(InvalidInputException.class, invalid -> {
                        assertThat(invalid.errors().getFirst().field()).isEqualTo("sort");
                        assertThat(invalid.errors().getFirst().message())
                                .startsWith("Sort by one of name, nodes, then ,asc or ,desc");
                    });
        }
    }

    @Test
    void aBadPageOrSizeOrATooLongSearchIsRefused() {
        assertThatThrownBy(() -> COLUMNS.read(null, null, "-1", null))
                .hasMessageContaining("page: Page must be a whole number");
        assertThatThrownBy(() -> COLUMNS.read(null, null, "two", null)).hasMessageContaining("page:");
        assertThatThrownBy(() -> COLUMNS.read(null, null, "99999999999", null)).hasMessageContaining("page:");
        assertThatThrownBy(() -> COLUMNS.read(null, null, null, "0"))
                .hasMessageContaining("size: Size must be a whole number from 1 to 200");
        assertThatThrownBy(() -> COLUMNS.read(null, null, null, "201")).hasMessageContaining("size:");
        assertThatThrownBy(() -> COLUMNS.read("x".repeat(101), null, null, null))
                .hasMessageContaining("q: Search for at most 100");
        SearchQuery fine = COLUMNS.read("  gpu-0 ", null, "3", "20");
        assertThat(fine.text()).isEqualTo("gpu-0");
        assertThat(fine.page().offset()).isEqualTo(60);
    }

    @Test
    void theSearchTextIsMatchedLiterallyNotAsAPattern() {
        assertThat(COLUMNS.read("50%_a\\b", null, null, null).pattern()).isEqualTo("%50\\%\\_a\\\\b%");
        assertThat(COLUMNS.read("   ", null, null, null).pattern()).isNull();
    }

    @Test
    void aHeadingSortsByItsColumnAndAClickOnTheCurrentOneTurnsItAround() {
        SearchQuery byName = COLUMNS.read("h100", "name,asc", "2", null);
        assertThat(byName.sortParamFor("name")).isEqualTo("name,desc");
        assertThat(byName.sortParamFor("nodes")).isEqualTo("nodes,asc");
        assertThat(byName.ariaSort("name")).isEqualTo("ascending");
        assertThat(byName.ariaSort("nodes")).isEqualTo("none");
        ListLinks links = new ListLinks("/admin/pools", Map.of("state", ""), byName, 130);
        assertThat(links.sort("name")).isEqualTo("/admin/pools?q=h100&sort=name,desc");
        assertThat(links.page(1)).isEqualTo("/admin/pools?q=h100&sort=name,asc&page=1");
        assertThat(links.shown()).isEqualTo("101–130 of 130");
        assertThat(links.hasNext()).isFalse();
        assertThat(new ListLinks("/admin/pools", Map.of(), COLUMNS.read("a b&c", null, "9", null), 130).pastTheEnd())
                .isTrue();
        assertThat(new ListLinks(
                                "/admin/nodes",
                                Map.of("state", "QUARANTINED"),
                                COLUMNS.read("a b&c", null, null, null),
                                3)
                        .sort("nodes"))
                .isEqualTo("/admin/nodes?q=a%20b%26c&state=QUARANTINED&sort=nodes,asc");
    }

    @Test
    void everyAdminListSortsOnlyByItsOwnColumns() {
        // the fleet's lists: FleetListColumnsTests
        assertThat(Tenancy.TENANT_COLUMNS.defaults().sortParam()).isEqualTo("slug,asc");
        assertThatThrownBy(() -> Quotas.QUOTA_COLUMNS.read(null, "heldNow,desc", null, null))
                .hasMessageContaining("Sort by one of tenant, gpuType, guaranteed, maximum, burst");
    }
}
