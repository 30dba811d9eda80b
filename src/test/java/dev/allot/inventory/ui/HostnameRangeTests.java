package dev.allot.inventory.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HostnameRangeTests {

    @Test
    void aRangeKeepsTheZeroPaddingOfItsStart() throws Exception {
        assertThat(HostnameRange.expand("gpu-[001-016]"))
                .hasSize(16)
                .startsWith("gpu-001", "gpu-002")
                .endsWith("gpu-016");
        assertThat(HostnameRange.expand("n[8-10]")).containsExactly("n8", "n9", "n10");
    }

    @Test
    void listsRangesSuffixesAndSeveralItemsCombine() throws Exception {
        assertThat(HostnameRange.expand("gpu-[001-002,010].dc1, gpu-020 gpu-001.dc1"))
                .containsExactly("gpu-001.dc1", "gpu-002.dc1", "gpu-010.dc1", "gpu-020");
        assertThat(HostnameRange.expand("r[1-2]-n[01-02]")).containsExactly("r1-n01", "r1-n02", "r2-n01", "r2-n02");
    }

    @Test
    void badExpressionsSayWhatIsWrong() {
        assertThatThrownBy(() -> HostnameRange.expand("gpu-[016-001]")).hasMessage("The range 016-001 runs backwards");
        assertThatThrownBy(() -> HostnameRange.expand("gpu-[001-016")).hasMessage("A \"[\" is not closed");
        assertThatThrownBy(() -> HostnameRange.expand("gpu-[a-b]")).hasMessageStartingWith("Inside brackets");
        assertThatThrownBy(() -> HostnameRange.expand("GPU-1")).hasMessageContaining("is not a host name");
        assertThatThrownBy(() -> HostnameRange.expand("gpu-[0-1000]")).hasMessageContaining("more than 1000");
        assertThatThrownBy(() -> HostnameRange.expand("a[0-99]b[0-99]")).hasMessageContaining("more than 1000");
        assertThatThrownBy(() -> HostnameRange.expand("  ")).hasMessageStartingWith("Enter a host name");
    }
}
