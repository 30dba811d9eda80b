package dev.allot.provisioning.driver.slurm;

import dev.allot.provisioning.driver.BuildStep;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.DriverFailedException;
import dev.allot.provisioning.driver.DriverProperties.LoginNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tenant users' access to a Slurm cluster: their association with the tenant's account, and their SSH keys on
 * the login node.
 * <p>
 * The account is the tenant's, shared by its reservations: provisioning makes its user associations exactly the
 * blueprint's {@code loginUsers} (a member who left loses hers), and teardown removes them once no other Allot
 * reservation of the tenant is left on the controller. Allot's own user (which runs the health checks) is never
 * touched here. A booking's keys go only to its booker's file in the login node's {@code authorized-keys-dir}, each
 * line ending in the reservation's name ({@code allot-<id>}, which no base64 key contains), so that teardown removes
 * exactly the lines of its reservation and leaves every other line alone. Edits run under {@code flock} on a lock file in that
 * folder, as separate commands whose arguments are fixed names (the key lines travel on standard input): nothing a
 * tenant typed reaches a shell.
 */
final class SlurmLogins {

    private static final Logger log = LoggerFactory.getLogger(SlurmLogins.class);

    /** The type and base64 blob of a key line as booking accepted it; the comment is left out. */
    private static final Pattern KEY = Pattern.compile("^([a-z0-9@.-]{1,64}) ([A-Za-z0-9+/]{16,}={0,2})(?: .*)?$");

    private final SlurmCommands slurm;

    private final @Nullable SlurmCommands loginNode;

    private final @Nullable String keysDir;

    private final String loginHost;

    private final SlurmErrors errors;

    private final Supplier<String> allotUser;

    SlurmLogins(
            SlurmCommands slurm,
            @Nullable SlurmCommands loginNode,
            @Nullable LoginNode config,
            String loginHost,
            SlurmErrors errors,
            Supplier<String> allotUser) {
        this.slurm = slurm;
        this.loginNode = loginNode;
        this.keysDir = config == null ? null : config.authorizedKeysDir();
        this.loginHost = loginHost;
        this.errors = errors;
        this.allotUser = allotUser;
    }

    /** Converges on the blueprint's users and keys; says what it did and where to see it. */
    List<BuildStep> grant(ClusterBlueprint spec) {
        List<BuildStep> done = new ArrayList<>();
        String account = spec.tenant();
        Set<String> associated = associated(account);
        List<String> added = new ArrayList<>();
        for (String user : spec.loginUsers()) {
            if (!associated.contains(user)) {
                SlurmCommands.Result result = slurm.run("sacctmgr", "-i", "add", "user", user, "account=" + account);
                if (!result.ok() && !associated(account).contains(user)) {
                    throw errors.failed("sacctmgr add user " + user + " account=" + account, result, List.of());
                }
                added.add(user);
            }
        }
        List<String> removed = remove(
                account,
                associated.stream().filter(u -> !spec.loginUsers().contains(u)).toList());
        if (!spec.loginUsers().isEmpty()) {
            done.add(new BuildStep(
                    "Slurm users " + String.join(", ", spec.loginUsers()) + " may submit with account " + account
                            + (added.isEmpty() ? "" : " (added " + String.join(", ", added) + ")"),
                    "sacctmgr show assoc account=" + account));
        }
        if (!removed.isEmpty()) {
            done.add(new BuildStep(
                    "Removed from account " + account + ", no longer tenant members: " + String.join(", ", removed),
                    "sacctmgr show assoc account=" + account));
        }
        if (!spec.sshPublicKeys().isEmpty()) {
            done.add(installKeys(spec));
        }
        return done;
    }

    /**
     * The booking's keys go to one login only, its booker's ({@link ClusterBlueprint#keysFor}): never to another
     * member's, so that making someone a member of a tenant gives its users no way into that person's login.
     */
    private BuildStep installKeys(ClusterBlueprint spec) {
        String marker = spec.ref().name();
        if (loginNode == null || keysDir == null) {
            return new BuildStep(
                    "SSH keys not installed: no login node is configured for this pool",
                    "allot.provisioning.pools.<pool>.slurm.login-node.authorized-keys-dir");
        }
        String owner = spec.keysFor();
        if (owner == null || !spec.loginUsers().contains(owner)) {
            if (!installed(marker).isEmpty()) {
                removeKeys(marker);
            }
            return new BuildStep(
                    "SSH keys not installed: a booking's keys open only the login of the user who booked "
                            + "it, and "
                            + (owner == null
                                    ? "a service account booked this one"
                                    : owner + " has no login here (a POSIX user name, role MEMBER or above)"),
                    "the team's Members page");
        }
        List<String> lines = spec.sshPublicKeys().stream()
                .map(key -> line(key, marker))
                .distinct()
                .toList();
        Set<String> wanted = new LinkedHashSet<>();
        lines.forEach(line -> wanted.add(keysDir + "/" + owner + ":" + line));
        if (!installed(marker).equals(wanted)) {
            removeKeys(marker);
            SlurmCommands.Result appended = loginNode.runWithInput(
                    String.join("\n", lines) + "\n",
                    "flock",
                    lock(),
                    "dd",
                    "of=" + keysDir + "/" + owner,
                    "oflag=append",
                    "conv=notrunc",
                    "status=none");
            if (!appended.ok()) {
                throw errors.failed("append to " + keysDir + "/" + owner + " on " + loginHost, appended, List.of());
            }
            if (!installed(marker).equals(wanted)) {
                throw new DriverFailedException(
                        "The SSH keys of " + marker + " in " + keysDir + " on " + loginHost
                                + " differ from the request after writing them",
                        true);
            }
        }
        return new BuildStep(
                lines.size() + " SSH key(s) installed for " + owner + ", who booked, on " + loginHost,
                "grep -r " + marker + " " + keysDir);
    }

    /** Removes the reservation's keys, and the tenant's associations when no other reservation of it remains. */
    List<String> revoke(ClusterRef ref) {
        List<String> done = new ArrayList<>();
        if (loginNode != null && keysDir != null) {
            int files = removeKeys(ref.name());
            if (files > 0) {
                done.add("SSH keys of " + ref.name() + " removed from " + files + " file(s) in " + keysDir + " on "
                        + loginHost + ".");
            }
        }
        List<String> others = otherReservations(ref);
        if (others.isEmpty()) {
            List<String> removed = remove(ref.tenant(), List.copyOf(associated(ref.tenant())));
            if (!removed.isEmpty()) {
                done.add("Slurm users " + String.join(", ", removed) + " removed from account " + ref.tenant()
                        + ": sacctmgr show assoc account=" + ref.tenant() + ".");
            }
        } else {
            done.add("Account " + ref.tenant() + " keeps its users for " + String.join(", ", others) + ".");
        }
        log.info("Revoked access to {}: {}", ref.name(), done);
        return done;
    }

    /** Users associated with the account, Allot's own user left out. */
    Set<String> associated(String account) {
        SlurmCommands.Result shown =
                slurm.run("sacctmgr", "-n", "-P", "show", "association", "account=" + account, "format=user");
        if (!shown.ok()) {
            throw errors.failed("sacctmgr show association account=" + account, shown, List.of());
        }
        Set<String> users = new LinkedHashSet<>();
        shown.stdout().lines().map(String::strip).filter(u -> !u.isEmpty()).forEach(users::add);
        users.remove(allotUser.get());
        return users;
    }

    private List<String> remove(String account, List<String> users) {
        List<String> removed = new ArrayList<>();
        for (String user : users) {
            // Slurm refuses to remove an association with jobs: access ends with them
            slurm.run("scancel", "--account=" + account, "--user=" + user);
            SlurmCommands.Result result = slurm.run("sacctmgr", "-i", "remove", "user", user, "account=" + account);
            if (!result.ok() && associated(account).contains(user)) {
                throw errors.failed("sacctmgr remove user " + user + " account=" + account, result, List.of());
            }
            removed.add(user);
        }
        return removed;
    }

    /** Allot's other Slurm reservations of the same tenant (named {@code allot-...}, for its account). */
    private List<String> otherReservations(ClusterRef ref) {
        SlurmCommands.Result shown = slurm.run("scontrol", "show", "reservation", "--oneliner");
        if (!shown.ok()) {
            throw errors.failed("scontrol show reservation", shown, List.of());
        }
        return shown.stdout()
                .lines()
                .filter(line -> line.startsWith("ReservationName="))
                .map(SlurmRecord::parse)
                .filter(r -> r.get("ReservationName").startsWith("allot-")
                        && !r.get("ReservationName").equals(ref.name()))
                .filter(r -> List.of(r.get("Accounts").split(",")).contains(ref.tenant()))
                .map(r -> r.get("ReservationName"))
                .toList();
    }

    /** {@code file:line} for each installed line of the reservation. */
    private Set<String> installed(String marker) {
        SlurmCommands.Result found = loginNode()
                .run(
                        "grep",
                        "-r",
                        "-F",
                        "--exclude=.allot.lock",
                        "-e",
                        marker,
                        Objects.requireNonNull(keysDir, "asked only with a keys directory"));
        if (found.exitCode() > 1) {
            throw errors.failed("grep " + marker + " in " + keysDir + " on " + loginHost, found, List.of());
        }
        Set<String> lines = new LinkedHashSet<>();
        found.stdout().lines().filter(line -> line.endsWith(" " + marker)).forEach(lines::add);
        return lines;
    }

    /** Removes the reservation's lines from every file holding one; returns how many files did. */
    private int removeKeys(String marker) {
        Set<String> files = new LinkedHashSet<>();
        installed(marker).forEach(line -> files.add(line.substring(0, line.indexOf(':'))));
        for (String file : files) {
            SlurmCommands.Result edited =
                    loginNode().run("flock", lock(), "sed", "-i", "-e", "/" + marker + "$/d", file);
            if (!edited.ok()) {
                throw errors.failed(
                        "remove the keys of " + marker + " from " + file + " on " + loginHost, edited, List.of());
            }
        }
        return files.size();
    }

    private SlurmCommands loginNode() {
        if (loginNode == null) {
            throw new IllegalStateException("no login node");
        }
        return loginNode;
    }

    private String lock() {
        return keysDir + "/.allot.lock";
    }

    /** The line written for a key: its type and blob, then the marker; the tenant's comment is not copied. */
    static String line(String key, String marker) {
        var matcher = KEY.matcher(key.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not an SSH public key line");
        }
        return matcher.group(1) + " " + matcher.group(2) + " " + marker;
    }
}
