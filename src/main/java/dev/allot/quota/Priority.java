package dev.allot.quota;

/** A tenant's workload class for a GPU type, most important first. */
public enum Priority {
    PRODUCTION_INFERENCE,
    PRODUCTION_FINE_TUNE,
    TRAINING,
    EXPERIMENT
}
