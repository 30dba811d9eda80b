package dev.allot.support;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Thread dumps of the test JVM, virtual threads included, for a test that saw a request hang: the application
 * runs in the same JVM, so the dump shows where its request and listener threads wait.
 */
final class ThreadDumps {

    private ThreadDumps() {}

    static Path write(String reason) {
        try {
            Path dir = Files.createDirectories(Path.of("target", "thread-dumps"));
            Path file = dir.resolve(reason + "-" + System.currentTimeMillis() + "-" + System.nanoTime() + ".txt")
                    .toAbsolutePath();
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
            return file;
        } catch (IOException | RuntimeException ex) {
            return Path.of("(no dump: " + ex + ")");
        }
    }
}
