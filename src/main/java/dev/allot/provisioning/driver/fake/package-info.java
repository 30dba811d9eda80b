/** An in-memory driver with fault injection: the embedded default, and the stand-in of lifecycle fault tests. */
@NullMarked
package dev.allot.provisioning.driver.fake;

import org.jspecify.annotations.NullMarked;
