package dev.allot.billing.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BarChartTests {

    private static BigDecimal[][] values(String... columns) {
        BigDecimal[][] values = new BigDecimal[columns.length][];
        for (int i = 0; i < columns.length; i++) {
            values[i] =
                    Arrays.stream(columns[i].split(" ")).map(BigDecimal::new).toArray(BigDecimal[]::new);
        }
        return values;
    }

    @Test
    void gridLinesFallOnRoundStepsUpToTheTallestStack() {
        BarChart chart = BarChart.of(
                "c",
                "t",
                "GPU-hours",
                true,
                List.of("a", "b"),
                List.of("d1", "d2"),
                List.of("1", "2"),
                values("100 37", "10 0"));

        assertThat(chart.ticks()).extracting(BarChart.Tick::label).containsExactly("0", "50", "100", "150");
        assertThat(BarChart.step(new BigDecimal("0.18"))).isEqualByComparingTo("0.05");
        assertThat(BarChart.step(new BigDecimal("7000"))).isEqualByComparingTo("2000");
        assertThat(BarChart.step(BigDecimal.ZERO)).isEqualByComparingTo("1");
    }

    @Test
    void stackedBarsSitOnOneAnotherAndAreScaledToTheTopGridLine() {
        BarChart chart =
                BarChart.of("c", "t", "USD", true, List.of("a", "b"), List.of("d1"), List.of("1"), values("100 50"));
        double plot = BarChart.HEIGHT - BarChart.TOP - BarChart.BOTTOM;
        BarChart.Bar a = chart.columns().getFirst().bars().get(0);
        BarChart.Bar b = chart.columns().getFirst().bars().get(1);

        assertThat(a.height()).isEqualTo(plot * 100 / 150);
        assertThat(a.y() + a.height()).isEqualTo(chart.baseline());
        assertThat(b.y() + b.height()).isEqualTo(a.y());
        assertThat(b.y()).isEqualTo(BarChart.TOP);
        assertThat(chart.columns().getFirst().total()).isEqualByComparingTo("150");
    }

    @Test
    void overlaidBarsAllStartAtTheBaselineTallestDrawnFirst() {
        BarChart chart = BarChart.of(
                "c", "t", "GPU-hours", false, List.of("Reserved", "Used"), List.of("d1"), List.of("1"), values("8 16"));
        BarChart.Column column = chart.columns().getFirst();

        assertThat(column.bars()).allMatch(bar -> bar.y() + bar.height() == chart.baseline());
        assertThat(chart.drawOrder(column))
                .extracting(bar -> bar.series().name())
                .containsExactly("Used", "Reserved");
        assertThat(column.total()).isEqualByComparingTo("16");
    }

    @Test
    void aNegativeNetIsListedButDrawnAsNothing() {
        BarChart chart = BarChart.of(
                "c", "t", "USD", true, List.of("a"), List.of("d1", "d2"), List.of("1", "2"), values("-5", "0"));

        assertThat(chart.columns().getFirst().bars().getFirst().height()).isZero();
        assertThat(chart.columns().getFirst().bars().getFirst().value()).isEqualByComparingTo("-5");
    }

    @Test
    void axisLabelsAreThinnedOutSoThatAtMostTwelveAreDrawn() {
        List<String> labels = IntStream.range(0, 31).mapToObj(i -> "d" + i).toList();
        BigDecimal[][] values = new BigDecimal[31][];
        Arrays.setAll(values, i -> new BigDecimal[] {BigDecimal.ONE});
        BarChart chart = BarChart.of("c", "t", "USD", true, List.of("a"), labels, labels, values);

        assertThat(chart.columns().stream().filter(c -> !c.axisLabel().isEmpty()))
                .hasSizeLessThanOrEqualTo(12);
        assertThat(chart.columns().getFirst().axisLabel()).isEqualTo("d0");
    }

    @Test
    void bucketsStartOnTheFirstDayOfTheirUnit() {
        LocalDate wednesday = LocalDate.of(2027, 1, 6);
        assertThat(UsageCharts.buckets(wednesday, LocalDate.of(2027, 1, 18), "week"))
                .containsExactly(LocalDate.of(2027, 1, 4), LocalDate.of(2027, 1, 11), LocalDate.of(2027, 1, 18));
        assertThat(UsageCharts.buckets(wednesday, LocalDate.of(2027, 3, 1), "month"))
                .containsExactly(LocalDate.of(2027, 1, 1), LocalDate.of(2027, 2, 1), LocalDate.of(2027, 3, 1));
        assertThat(UsageCharts.buckets(wednesday, wednesday, "day")).containsExactly(wednesday);
    }
}
