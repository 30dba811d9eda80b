/** The home pages' controller and what each page shows. */
@NullMarked
package dev.allot.home.ui;

import org.jspecify.annotations.NullMarked;
