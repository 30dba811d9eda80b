package dev.allot.bench;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/** One {@code COPY ... FROM STDIN} (text format), fed row by row and flushed in chunks of about 1 MB. */
final class Copy implements AutoCloseable {

    private final CopyIn copy;

    private final StringBuilder buffer = new StringBuilder(1 << 20);

    private long rows;

    private boolean closed;

    Copy(Connection connection, String table, String columns) throws SQLException {
        this.copy = connection
                .unwrap(PGConnection.class)
                .getCopyAPI()
                .copyIn("COPY " + table + " (" + columns + ") FROM STDIN");
    }

    /** Appends one row; values are already in COPY text form ({@code \N} for null, no tabs or newlines). */
    void row(Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                buffer.append('\t');
            }
            buffer.append(values[i] == null ? "\\N" : values[i]);
        }
        buffer.append('\n');
        rows++;
        if (buffer.length() > (1 << 20) - 4096) {
            flush();
        }
    }

    long rows() {
        return rows;
    }

    private void flush() throws SQLException {
        byte[] bytes = buffer.toString().getBytes(StandardCharsets.UTF_8);
        copy.writeToCopy(bytes, 0, bytes.length);
        buffer.setLength(0);
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        flush();
        copy.endCopy();
    }
}
