package dev.allot.provisioning.lifecycle;

import dev.allot.provisioning.checks.Verdict;

/**
 * What becomes of a node that failed acceptance and was swapped out of its cluster before handover: the health
 * package's remediation reboots or quarantines it ({@code health.Remediation}). The lifecycle asks through this
 * interface, since that remediation itself moves clusters through the lifecycle.
 */
public interface SwappedOutNodes {

    /**
     * Remediates the node that left {@code cluster}: the tenant never had it, so there is nothing to credit.
     * @param why what failed, for the timeline and the node's state reason
     */
    void swappedOut(Cluster cluster, String node, Verdict.Fault fault, String why);
}
