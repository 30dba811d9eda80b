package dev.allot.cli;

/** A failure the CLI itself detects, with the exit code it ends with and the line printed on stderr. */
class CliFailure extends RuntimeException {

    private final int exitCode;

    CliFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return this.exitCode;
    }
}
