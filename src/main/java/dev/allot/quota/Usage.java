package dev.allot.quota;

import dev.allot.shared.TimeWindow;

/** GPUs a tenant already holds of one GPU type during a window. */
record Usage(TimeWindow during, int gpus) {}
