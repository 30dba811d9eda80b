/**
 * Demo data for the embedded quick start: users, tenants, projects and a small fleet, seeded once.
 * Depends on the public APIs of the modules it fills; nothing depends on it.
 */
@ApplicationModule(displayName = "Demo data")
@NullMarked
package dev.allot.demo;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
