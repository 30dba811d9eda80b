package dev.allot.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time spent by the application, by PostgreSQL (every process named {@code postgres} on this host) and by the
 * benchmark's own process (the load generator), read from {@code /proc}, so that a phase can say where its CPU went
 * per request: on two shared cores, throughput is the CPU a request costs, wherever it is spent.
 */
record CpuTime(double appSeconds, double databaseSeconds, double benchSeconds) {

	/** Linux's USER_HZ: {@code /proc} counts CPU time in ticks of 1/100 s. */
	private static final double TICK = 0.01;

	static CpuTime now(long appPid) {
		return new CpuTime(seconds(Path.of("/proc", String.valueOf(appPid))), postgres(),
				seconds(Path.of("/proc", String.valueOf(ProcessHandle.current().pid()))));
	}

	/** What was spent between {@code before} and now, in milliseconds per request. */
	String perRequest(CpuTime before, long requests) {
		if (requests == 0) {
			return "";
		}
		double n = requests / 1000.0;
		return "CPU per answered request: application %.1f ms, PostgreSQL %.1f ms, load generator %.1f ms".formatted(
				(appSeconds - before.appSeconds) / n, (databaseSeconds - before.databaseSeconds) / n,
				(benchSeconds - before.benchSeconds) / n);
	}

	private static double postgres() {
		try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
			return processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
				.filter(p -> "postgres".equals(read(p.resolve("comm")).strip()))
				.mapToDouble(CpuTime::seconds)
				.sum();
		}
		catch (IOException ex) {
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
		}
		catch (IOException ex) {
			return ""; // the process ended meanwhile
		}
	}

}
