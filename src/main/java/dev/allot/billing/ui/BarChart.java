package dev.allot.billing.ui;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * A column chart that billing/usage.html draws as inline SVG (no script, so the CSP needs nothing more) and
 * repeats as a table for screen readers and keyboard users. Each column holds one bar per series, stacked on
 * one another or, when not stacked, each drawn from the baseline (used in front of reserved).
 */
record BarChart(
        String id,
        String title,
        String unit,
        boolean stacked,
        List<Series> series,
        List<Column> columns,
        List<Tick> ticks) {

    static final int WIDTH = 720;

    static final int HEIGHT = 260;

    static final int LEFT = 64;

    static final int TOP = 12;

    static final int BOTTOM = 32;

    static final int LABELS = 12;

    /** A series and its CSS class (a colour-blind-safe palette in allot.css). */
    record Series(String name, String css) {}

    record Bar(Series series, BigDecimal value, double y, double height) {}

    /** One bucket: its full label (for the table and tooltips), its short axis label if drawn, and its bars. */
    record Column(String label, String axisLabel, double x, double width, List<Bar> bars, BigDecimal total) {

        public double labelX() {
            return x + width / 2;
        }
    }

    record Tick(String label, double y) {}

    /** One column per label; {@code values[column][series]}. */
    static BarChart of(
            String id,
            String title,
            String unit,
            boolean stacked,
            List<String> seriesNames,
            List<String> labels,
            List<String> axisLabels,
            BigDecimal[][] values) {
        List<Series> series = new ArrayList<>();
        for (int i = 0; i < seriesNames.size(); i++) {
            series.add(new Series(seriesNames.get(i), (stacked ? "series-" : "overlay-") + i % 8));
        }
        BigDecimal largest = BigDecimal.ZERO;
        for (BigDecimal[] column : values) {
            BigDecimal height = stacked ? sum(column) : max(column);
            largest = largest.max(height);
        }
        BigDecimal step = step(largest);
        BigDecimal top = largest.signum() == 0
                ? step.multiply(BigDecimal.valueOf(4))
                : largest.divide(step, 0, RoundingMode.CEILING).multiply(step);
        double plot = HEIGHT - TOP - BOTTOM;
        double width = (double) (WIDTH - LEFT) / Math.max(1, labels.size());
        int every = Math.max(1, (labels.size() + LABELS - 1) / LABELS);
        List<Column> columns = new ArrayList<>();
        for (int c = 0; c < labels.size(); c++) {
            List<Bar> bars = new ArrayList<>();
            double base = HEIGHT - BOTTOM;
            for (int s = 0; s < series.size(); s++) {
                BigDecimal value = values[c][s];
                // a negative net (a correction) is listed in the table but drawn as nothing
                double height = Math.max(0, value.doubleValue()) / top.doubleValue() * plot;
                bars.add(new Bar(series.get(s), value, (stacked ? base : HEIGHT - BOTTOM) - height, height));
                if (stacked) {
                    base -= height;
                }
            }
            columns.add(new Column(
                    labels.get(c),
                    c % every == 0 ? axisLabels.get(c) : "",
                    LEFT + c * width,
                    width,
                    bars,
                    stacked ? sum(values[c]) : max(values[c])));
        }
        List<Tick> ticks = new ArrayList<>();
        for (BigDecimal at = BigDecimal.ZERO; at.compareTo(top) <= 0; at = at.add(step)) {
            ticks.add(new Tick(
                    at.stripTrailingZeros().toPlainString(),
                    HEIGHT - BOTTOM - at.doubleValue() / top.doubleValue() * plot));
        }
        return new BarChart(id, title, unit, stacked, series, columns, ticks);
    }

    public boolean isEmpty() {
        return columns.stream().allMatch(c -> c.total().signum() == 0);
    }

    /** Bars drawn in this order: stacked bottom up; overlaid tallest first, so none hides another. */
    public List<Bar> drawOrder(Column column) {
        if (stacked) {
            return column.bars();
        }
        return column.bars().stream()
                .sorted((a, b) -> b.value().compareTo(a.value()))
                .toList();
    }

    /** Bar width: most of the column, leaving a gap between neighbours. */
    public double barWidth(Column column) {
        return column.width() * (column.width() > 6 ? 0.7 : 1);
    }

    public double barX(Column column) {
        return column.x() + (column.width() - barWidth(column)) / 2;
    }

    public int width() {
        return WIDTH;
    }

    public int height() {
        return HEIGHT;
    }

    public int left() {
        return LEFT;
    }

    public int baseline() {
        return HEIGHT - BOTTOM;
    }

    /** A grid step of 1, 2 or 5 times a power of ten giving four or five lines up to {@code largest}. */
    static BigDecimal step(BigDecimal largest) {
        if (largest.signum() <= 0) {
            return BigDecimal.ONE;
        }
        BigDecimal rough = largest.divide(BigDecimal.valueOf(4), 8, RoundingMode.CEILING);
        int exponent = rough.precision() - rough.scale() - 1;
        BigDecimal power = BigDecimal.ONE.scaleByPowerOfTen(exponent);
        for (int factor : new int[] {1, 2, 5}) {
            BigDecimal candidate = power.multiply(BigDecimal.valueOf(factor));
            if (candidate.compareTo(rough) >= 0) {
                return candidate;
            }
        }
        return power.multiply(BigDecimal.TEN);
    }

    private static BigDecimal sum(BigDecimal[] values) {
        BigDecimal total = BigDecimal.ZERO;
        for (BigDecimal v : values) {
            total = total.add(v);
        }
        return total;
    }

    private static BigDecimal max(BigDecimal[] values) {
        BigDecimal largest = BigDecimal.ZERO;
        for (BigDecimal v : values) {
            largest = largest.max(v);
        }
        return largest;
    }
}
