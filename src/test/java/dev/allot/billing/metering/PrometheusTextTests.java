package dev.allot.billing.metering;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Prometheus's text exposition format, read without Spring. */
class PrometheusTextTests {

    @Test
    void commentsLabelsWithEscapesAndOptionalTimestampsAreRead() {
        String text = """
				# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).
				# TYPE DCGM_FI_DEV_GPU_UTIL gauge
				   # an indented comment
				DCGM_FI_DEV_GPU_UTIL{gpu="0",Hostname="n1"} 37
				DCGM_FI_DEV_GPU_UTIL { gpu = "1" , Hostname="a \\"quoted\\" \\\\ name\\nsecond line", } 2.5e1 1733216400000
				DCGM_FI_DEV_GPU_UTIL{gpu="2",Hostname="n1",note="a } and a , inside"}\t+Inf
				DCGM_FI_DEV_GPU_UTIL 12
				DCGM_FI_DEV_FB_USED{gpu="0",Hostname="n1"} 78226

				""".replace("\n", "\r\n");

        PrometheusText.Parsed parsed = PrometheusText.parse(text, "DCGM_FI_DEV_GPU_UTIL");

        assertThat(parsed.badLines()).isZero();
        assertThat(parsed.series()).hasSize(4);
        assertThat(parsed.series().get(0).labels()).isEqualTo(Map.of("gpu", "0", "Hostname", "n1"));
        assertThat(parsed.series().get(0).value()).isEqualTo(37.0);
        assertThat(parsed.series().get(0).timestampMillis()).isNull();
        assertThat(parsed.series().get(1).labels().get("Hostname")).isEqualTo("a \"quoted\" \\ name\nsecond line");
        assertThat(parsed.series().get(1).value()).isEqualTo(25.0);
        assertThat(parsed.series().get(1).timestampMillis()).isEqualTo(1733216400000L);
        assertThat(parsed.series().get(2).labels().get("note")).isEqualTo("a } and a , inside");
        assertThat(parsed.series().get(2).value()).isInfinite();
        assertThat(parsed.series().get(3).labels()).isEmpty();
    }

    @Test
    void malformedLinesAreCountedAndSkipped() {
        String text = """
				DCGM_FI_DEV_GPU_UTIL{gpu="0",Hostname="n1"} 40
				DCGM_FI_DEV_GPU_UTIL{gpu="0",Hostname="n1} 40
				DCGM_FI_DEV_GPU_UTIL{gpu="0" Hostname="n1"} 40
				DCGM_FI_DEV_GPU_UTIL{gpu="0",gpu="1"} 40
				DCGM_FI_DEV_GPU_UTIL{gpu="\\x"} 40
				DCGM_FI_DEV_GPU_UTIL{gpu="0"} forty
				DCGM_FI_DEV_GPU_UTIL{gpu="0"} 40 12:00
				DCGM_FI_DEV_GPU_UTIL{gpu="0"} 40 1 2
				DCGM_FI_DEV_GPU_UTIL{gpu="0"}
				9metric 1
				DCGM_FI_DEV_GPU_UTIL{gpu="0"} 1d
				""";

        PrometheusText.Parsed parsed = PrometheusText.parse(text, "DCGM_FI_DEV_GPU_UTIL");

        assertThat(parsed.series()).hasSize(1);
        assertThat(parsed.badLines()).isEqualTo(10);
    }
}
