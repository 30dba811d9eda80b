/**
 * The benchmark (issue 7): seeds a fresh database with a fleet and its booking history, starts the packaged
 * application as a separate process, drives it over HTTP with real OAuth2 tokens, and measures the same booking
 * transaction issued directly over JDBC as the ceiling. Run with {@code ./mvnw -Pbench verify}; see
 * {@link dev.allot.bench.Bench}.
 */
package dev.allot.bench;
