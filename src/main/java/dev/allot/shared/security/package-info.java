/** The authenticated caller and the roles Allot knows. */
@NullMarked
package dev.allot.shared.security;

import org.jspecify.annotations.NullMarked;
