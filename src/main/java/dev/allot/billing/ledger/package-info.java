/** The double-entry ledger: balanced postings, exactly once per key, month closing, and statements read from it. */
@NullMarked
package dev.allot.billing.ledger;

import org.jspecify.annotations.NullMarked;
