/**
 * The Kubernetes adapter (fabric8 client): one namespace per reservation on dedicated, labelled and tainted
 * nodes, with quota, limits, network isolation, RBAC, volumes, documented pod defaults and a namespace-scoped
 * kubeconfig.
 */
@NullMarked
package dev.allot.provisioning.driver.kubernetes;

import org.jspecify.annotations.NullMarked;
