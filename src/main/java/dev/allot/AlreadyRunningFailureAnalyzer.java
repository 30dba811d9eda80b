package dev.allot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A second copy on the same data folder: Boot's short "APPLICATION FAILED TO START" report, no stack trace. */
class AlreadyRunningFailureAnalyzer extends AbstractFailureAnalyzer<DataFolderLock.AlreadyRunningException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DataFolderLock.AlreadyRunningException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
