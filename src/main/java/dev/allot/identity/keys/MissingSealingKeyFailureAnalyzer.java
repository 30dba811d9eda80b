package dev.allot.identity.keys;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns the refusal to start without a sealing key into Boot's short "APPLICATION FAILED TO START" report. */
class MissingSealingKeyFailureAnalyzer extends AbstractFailureAnalyzer<SigningKeySealing.MissingSealingKeyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SigningKeySealing.MissingSealingKeyException cause) {
        return new FailureAnalysis(cause.getMessage(), SigningKeySealing.MissingSealingKeyException.ACTION, cause);
    }
}
