/** The port every orchestrator adapter implements, the time bound around each call, and the driver configured for each pool. */
@NullMarked
package dev.allot.provisioning.driver;

import org.jspecify.annotations.NullMarked;
