package dev.allot.shared.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a create endpoint that keeps its {@link dev.allot.shared.IdempotencyKey} on the row it creates, in the creating
 * transaction, and answers a retry from that row (a booking: its reservation holds the caller, the key and the
 * request's hash, and a twin racing it waits on the tenant's quota lock). {@link IdempotentCreates} then checks the
 * key and hands it over, and claims nothing and stores no answer: two statements fewer for every such request.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface KeepsItsIdempotencyKey {}
