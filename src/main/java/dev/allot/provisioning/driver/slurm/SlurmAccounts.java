package dev.allot.provisioning.driver.slurm;

import java.util.List;

/** The tenant's Slurm account, kept across its reservations: {@code sacctmgr show} and {@code add account}. */
final class SlurmAccounts {

    private final SlurmCommands slurm;

    private final SlurmErrors errors;

    SlurmAccounts(SlurmCommands slurm, SlurmErrors errors) {
        this.slurm = slurm;
        this.errors = errors;
    }

    /** Returns what was done: {@code created} or {@code found}. */
    String ensure(String account) {
        if (exists(account)) {
            return "found";
        }
        SlurmCommands.Result added = slurm.run(
                "sacctmgr",
                "-i",
                "add",
                "account",
                account,
                "Description=allot-tenant-" + account,
                "Organization=" + account);
        // "Nothing new added" (exit 1): a concurrent attempt was first, which is what we want.
        if (!added.ok() && !exists(account)) {
            throw errors.failed("sacctmgr add account " + account, added, List.of());
        }
        return added.ok() ? "created" : "found";
    }

    boolean exists(String account) {
        SlurmCommands.Result shown = slurm.run("sacctmgr", "-n", "-P", "show", "account", account, "format=account");
        if (!shown.ok()) {
            throw errors.failed("sacctmgr show account", shown, List.of());
        }
        return shown.stdout().lines().map(String::strip).anyMatch(account::equals);
    }
}
