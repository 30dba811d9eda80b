/** Web conventions shared by every module's API: problem responses, request ids, body limits. */
@NullMarked
package dev.allot.shared.web;

import org.jspecify.annotations.NullMarked;
