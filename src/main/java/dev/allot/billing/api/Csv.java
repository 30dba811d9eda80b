package dev.allot.billing.api;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/** RFC 4180 CSV: a header row, then one row per record; cells quoted when they need it. */
final class Csv {

    static final String TEXT_CSV = "text/csv";

    private Csv() {}

    static ResponseEntity<String> of(String filename, List<String> header, List<List<@Nullable Object>> rows) {
        StringBuilder csv =
                new StringBuilder(line(header.stream().map(h -> (Object) h).toList()));
        rows.forEach(row -> csv.append(line(row)));
        return ResponseEntity.ok()
                .contentType(MediaType.parseMediaType("text/csv;charset=UTF-8"))
                .header("Content-Disposition", "attachment; filename=\"" + filename + "\"")
                .body(csv.toString());
    }

    private static String line(List<@Nullable Object> cells) {
        return cells.stream().map(Csv::cell).collect(Collectors.joining(",")) + "\r\n";
    }

    private static String cell(@Nullable Object value) {
        if (value == null) {
            return "";
        }
        String text = value instanceof BigDecimal d ? d.toPlainString() : value.toString();
        // a leading =, +, - or @ would be a formula in a spreadsheet
        if (text.matches("^[=+@].*")) {
            text = "'" + text;
        }
        return text.matches(".*[\",\r\n].*") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }
}
