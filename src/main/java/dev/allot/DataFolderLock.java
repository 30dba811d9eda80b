package dev.allot;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One Allot per data folder: the running copy holds an OS lock on {@code allot.lock} beside the embedded
 * PostgreSQL's data for as long as it runs (the OS drops it when the process dies, even after kill -9). A second
 * {@code ./mvnw spring-boot:run} in the same folder finds it held and stops before touching anything; without it
 * the second copy took the running copy's postmaster for an orphan and shut it down.
 */
final class DataFolderLock implements AutoCloseable {

    static final String FILE = "allot.lock";

    private final FileChannel channel;

    private final FileLock lock;

    private DataFolderLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DataFolderLock acquire(Path folder) throws IOException {
        Files.createDirectories(folder);
        Path file = folder.resolve(FILE);
        FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException heldHere) {
            lock = null;
        }
        if (lock == null) {
            String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
            channel.close();
            throw new AlreadyRunningException(folder, holder);
        }
        channel.truncate(0);
        channel.write(
                ByteBuffer.wrap(String.valueOf(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
        channel.force(false);
        return new DataFolderLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }

    /** Another Allot runs on this data folder. */
    static final class AlreadyRunningException extends IllegalStateException {

        private final Path folder;

        AlreadyRunningException(Path folder, String pid) {
            super("Allot is already running from " + folder.toAbsolutePath()
                    + (pid.isEmpty() ? "" : " (process " + pid + ")")
                    + ", on the embedded PostgreSQL in that folder. This copy stopped before touching anything.");
            this.folder = folder;
        }

        String action() {
            return "Use the copy that is running (its address is in its console, by default http://127.0.0.1:8080/), "
                    + "or stop it first (Ctrl+C in its terminal). To run a second, separate copy, give it its own "
                    + "folder and port: ./mvnw spring-boot:run -Dspring-boot.run.arguments=\"--server.port=8081 "
                    + "--allot.embedded-postgres.data-directory="
                    + folder.toAbsolutePath().resolveSibling("allot-2").resolve("pgdata") + "\"";
        }
    }
}
