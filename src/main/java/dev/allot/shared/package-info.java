/**
 * Small value types and conventions used by every module: problem types and typed exceptions,
 * pagination, the authenticated {@link dev.allot.shared.security.Caller}, request ids.
 */
@ApplicationModule(type = ApplicationModule.Type.OPEN)
@NullMarked
package dev.allot.shared;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
