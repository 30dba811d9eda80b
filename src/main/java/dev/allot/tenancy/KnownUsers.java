package dev.allot.tenancy;

/**
 * Who can be made a member: a person Allot knows (a user of its own issuer, or one an external issuer has signed in).
 * Identity implements it; tenancy asks it, so that adding {@code nosuchuser} is refused instead of creating a
 * membership nobody can ever use.
 */
public interface KnownUsers {

    boolean exists(String username);
}
