package dev.allot.billing.ledger;

/** What a ledger line is for, as a statement shows it. */
public enum Line {

    /** GPU time used, per rate class. */
    USAGE,
    /** GPU time not charged: a node of the reservation was out of service (quarantined or in repair). */
    CREDIT,
    /** A share of the booked amount for a cancellation before the window starts. */
    FEE,
    /** A volume held for part of a day, at the rate card's storage line (per GiB-month). */
    STORAGE
}
