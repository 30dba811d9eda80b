/**
 * The {@code allot} command line: a thin layer of picocli commands over the client generated from openapi.yaml
 * ({@code dev.allot.client}), for CI pipelines. Every command signs in with the client credentials that
 * {@code allot login} stored, and ends with an exit code a pipeline can branch on (see {@link dev.allot.cli.ExitCodes}).
 */
package dev.allot.cli;
