package dev.allot.quota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.inventory.Inventory.PoolCapacity;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** How much of the guarantees pools can cover when dedicated pools count only for their own tenants. */
class GuaranteeCoverTests {

    @Property
    void withSharedPoolsOnlyItIsTheSmallerOfTheGuaranteesAndTheCapacity(
            @ForAll @IntRange(max = 64) int a,
            @ForAll @IntRange(max = 64) int b,
            @ForAll @IntRange(max = 64) int first,
            @ForAll @IntRange(max = 64) int second) {
        int covered = GuaranteeCover.coverable(
                Map.of("a", a, "b", b),
                List.of(new PoolCapacity("p1", List.of(), first), new PoolCapacity("p2", List.of(), second)));
        assertThat(covered).isEqualTo(Math.min(a + b, first + second));
    }

    @Test
    void aDedicatedPoolCoversOnlyItsOwnTenants() {
        List<PoolCapacity> pools =
                List.of(new PoolCapacity("shared", List.of(), 8), new PoolCapacity("mine", List.of("a"), 8));
        assertThat(GuaranteeCover.coverable(Map.of("b", 16), pools)).isEqualTo(8);
        assertThat(GuaranteeCover.coverable(Map.of("a", 16), pools)).isEqualTo(16);
        // a takes its own pool first, leaving the shared one to b
        assertThat(GuaranteeCover.coverable(Map.of("a", 8, "b", 8), pools)).isEqualTo(16);
        assertThat(GuaranteeCover.coverable(Map.of("a", 16, "b", 8), pools)).isEqualTo(16);
        assertThat(GuaranteeCover.coverable(Map.of("a", 0, "b", 0), pools)).isZero();
    }
}
