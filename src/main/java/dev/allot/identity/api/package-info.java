/** REST adapter of identity: who am I, service accounts. */
@NullMarked
package dev.allot.identity.api;

import org.jspecify.annotations.NullMarked;
