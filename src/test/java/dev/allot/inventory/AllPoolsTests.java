package dev.allot.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.shared.PageQuery;
import dev.allot.support.FleetTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The calendar and the booking form list every pool a tenant may book, however many: none falls past a first page
 * of {@value PageQuery#MAX_SIZE} (a pool past it could not be seen nor searched in the calendar).
 */
class AllPoolsTests extends FleetTest {

    @Autowired
    Inventory inventory;

    @Test
    void aTenantsPoolsAreAllListedPastTheFirstPage() {
        String type = newGpuType();
        String tenant = unique("t");
        String prefix = unique("a");
        // more pools than a page, dedicated to one tenant, named to sort before its last one
        int many = PageQuery.MAX_SIZE + 1;
        jdbc.sql("""
				INSERT INTO pool (id, name, gpu_type_id, gpus_per_node, region, dedicated_to)
				SELECT gen_random_uuid(), ? || '-' || lpad(i::text, 4, '0'), t.id, 8, 'eu-test-1', ARRAY[?]
				FROM generate_series(1, ?) i, gpu_type t WHERE t.code = ?""").params(prefix, tenant, many, type).update();
        String last = "z" + prefix.substring(1);
        jdbc.sql("""
				INSERT INTO pool (id, name, gpu_type_id, gpus_per_node, region, dedicated_to)
				SELECT gen_random_uuid(), ?, t.id, 8, 'eu-test-1', ARRAY[?] FROM gpu_type t WHERE t.code = ?""").params(last, tenant, type).update();
        try {
            List<String> names =
                    inventory.poolsOpenTo(tenant).stream().map(Pool::name).toList();
            assertThat(names).contains(last, prefix + "-0001", String.format("%s-%04d", prefix, many));
            assertThat(names.stream().filter(name -> name.startsWith(prefix))).hasSize(many);
            assertThat(names).doesNotHaveDuplicates();
        } finally {
            jdbc.sql("DELETE FROM pool WHERE CAST(? AS text) = ANY(dedicated_to)")
                    .param(tenant)
                    .update();
        }
    }
}
