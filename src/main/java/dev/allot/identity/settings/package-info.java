/**
 * {@code allot.security}: how Allot issues and accepts tokens ({@link dev.allot.identity.settings.SecurityProperties}),
 * read by every other room of identity. Depends on nothing of identity.
 */
@NullMarked
package dev.allot.identity.settings;

import org.jspecify.annotations.NullMarked;
