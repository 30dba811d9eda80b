/**
 * Pages of provisioning: the cluster section of a reservation page (state, how to connect, nodes, timeline), served
 * as an htmx fragment the reservation page includes, or as a page of its own.
 */
@NullMarked
package dev.allot.provisioning.ui;

import org.jspecify.annotations.NullMarked;
