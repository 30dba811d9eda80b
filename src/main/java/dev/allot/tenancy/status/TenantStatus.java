package dev.allot.tenancy.status;

/** A suspended tenant signs in and reads, but books and changes nothing. */
public enum TenantStatus {
    ACTIVE,
    SUSPENDED
}
