/** Pages of identity: sign-in, service accounts. */
@NullMarked
package dev.allot.identity.ui;

import org.jspecify.annotations.NullMarked;
