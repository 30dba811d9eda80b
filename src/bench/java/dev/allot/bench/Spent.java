package dev.allot.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

/**
 * What the machine had spent at one moment, for a phase to say what one answered request cost: CPU time of the
 * application, of PostgreSQL (every process named {@code postgres} on this host) and of the benchmark's own process
 * (the load generator), read from {@code /proc}; and the statements and transactions PostgreSQL ran in the
 * benchmark's database. Statements come from {@code pg_stat_statements} (its calls; -1 when the extension is not
 * loaded, which the phase's line then says), transactions from {@code pg_stat_database} (commits and rollbacks).
 * Both count the whole database, so the background work a request causes (scheduler, reconciler, metering) is
 * amortised over the phase's requests. On two shared cores, throughput is the CPU a request costs, wherever spent.
 */
record Spent(double appSeconds, double databaseSeconds, double benchSeconds, long statements, long transactions) {

    /** Linux's USER_HZ: {@code /proc} counts CPU time in ticks of 1/100 s. */
    private static final double TICK = 0.01;

    /** What one answered request of a phase cost; statements -1 when unknown. */
    record PerRequest(
            String mode,
            int clients,
            double appCpuMs,
            double databaseCpuMs,
            double loadGeneratorCpuMs,
            double statements,
            double transactions) {

        @Override
        public String toString() {
            return "CPU per answered request: application %.1f ms, PostgreSQL %.1f ms, load generator %.1f ms; %s, %.1f transactions"
                    .formatted(
                            appCpuMs,
                            databaseCpuMs,
                            loadGeneratorCpuMs,
                            statements < 0
                                    ? "statements unknown (pg_stat_statements is not loaded)"
                                    : "%.1f statements".formatted(statements),
                            transactions);
        }
    }

    static Spent now(long appPid, Settings settings) {
        long statements = -1;
        long transactions = 0;
        try (Connection c = Fleet.connect(settings);
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("""
					SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()""")) {
                transactions = rs.next() ? rs.getLong(1) : 0;
            }
            try (ResultSet rs = st.executeQuery("""
					SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
					WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())""")) {
                statements = rs.next() ? rs.getLong(1) : -1;
            } catch (SQLException missing) {
                // the extension is not created here, or not loaded (shared_preload_libraries)
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
        return new Spent(
                seconds(Path.of("/proc", String.valueOf(appPid))),
                postgres(),
                seconds(Path.of("/proc", String.valueOf(ProcessHandle.current().pid()))),
                statements,
                transactions);
    }

    /** Makes {@code pg_stat_statements} readable in the benchmark's database when the server loads it. */
    static void statementsCounted(Connection c) {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        } catch (SQLException notLoaded) {
            System.out.println("pg_stat_statements is not available ("
                    + notLoaded.getMessage().strip() + "): statements per request are not counted");
        }
    }

    /** What was spent between {@code before} and now, per answered request. */
    PerRequest perRequest(Spent before, String mode, int clients, long requests) {
        double n = Math.max(1, requests);
        return new PerRequest(
                mode,
                clients,
                (appSeconds - before.appSeconds) * 1000 / n,
                (databaseSeconds - before.databaseSeconds) * 1000 / n,
                (benchSeconds - before.benchSeconds) * 1000 / n,
                statements < 0 || before.statements < 0 ? -1 : (statements - before.statements) / n,
                (transactions - before.transactions) / n);
    }

    private static double postgres() {
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            return processes
                    .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> "postgres".equals(read(p.resolve("comm")).strip()))
                    .mapToDouble(Spent::seconds)
                    .sum();
        } catch (IOException ex) {
            return 0;
        }
    }

    /** utime + stime of a process (fields 14 and 15 of its stat line, counted after the command's parenthesis). */
    private static double seconds(Path process) {
        String stat = read(process.resolve("stat"));
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return 0;
        }
        String[] fields = stat.substring(close + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * TICK;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException ex) {
            return ""; // the process ended meanwhile
        }
    }
}
