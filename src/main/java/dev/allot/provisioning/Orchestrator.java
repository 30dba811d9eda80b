package dev.allot.provisioning;

/** What the tenant gets on the reserved nodes, chosen at booking. */
public enum Orchestrator {

	KUBERNETES, SLURM

}
