/**
 * Requests Allot sends to addresses its users choose (budget webhooks, and any URL a user can set later): one
 * policy, {@link dev.allot.shared.outbound.OutboundUrls}, decides which URLs may be saved and reached, and one
 * client, {@link dev.allot.shared.outbound.OutboundHttp}, connects only to the addresses that policy checked.
 * Internal addresses (loopback, link-local, private, unique-local, CGNAT, multicast, ...) are refused unless
 * {@code allot.security.outbound.allowed-hosts} names them.
 */
@NullMarked
package dev.allot.shared.outbound;

import org.jspecify.annotations.NullMarked;
