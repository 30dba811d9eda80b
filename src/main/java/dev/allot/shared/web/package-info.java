/**
 * Web conventions shared by every module's API: problem responses (also for what Spring Security's firewall,
 * Tomcat and the error page refuse), request ids, body limits, and the one place hostile input is refused
 * (text PostgreSQL cannot store, strict JSON, bounded instants).
 */
@NullMarked
package dev.allot.shared.web;

import org.jspecify.annotations.NullMarked;
