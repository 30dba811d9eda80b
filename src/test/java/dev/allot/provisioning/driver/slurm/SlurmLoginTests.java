package dev.allot.provisioning.driver.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.provisioning.Specs;
import dev.allot.provisioning.driver.ClusterBlueprint;
import dev.allot.provisioning.driver.ClusterRef;
import dev.allot.provisioning.driver.DriverProperties.LoginNode;
import dev.allot.provisioning.driver.DriverProperties.SlurmPool;
import dev.allot.provisioning.driver.ProvisionedCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tenant users' access to a Slurm cluster against the real daemons (see {@link SlurmCluster}): Unix users of this
 * host submit with {@code sbatch} as a tenant's users would, and the login node's key folder is a temporary folder
 * of this host, reached through a prefix that re-parses every command in a shell, as {@code ssh host} does.
 */
@ExtendWith(SlurmCluster.class)
class SlurmLoginTests {

    /** A real ed25519 public key (its blob names its type). */
    static final String KEY =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb3e0kH0Jx2y5Q0m7p9a1c2d3e4f5g6h7i8j9k0l1m2 ada@laptop";

    static final String OTHER_KEY =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAdRjh5rQ3b6c7d8e9f0g1h2i3j4k5l6m7n8o9p0q1r2 $(touch /tmp/pwned) `id`;";

    /** What the site's admin put there by hand: never touched by Allot. */
    static final String SITE_LINE =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPsiteSiteSiteSiteSiteSiteSiteSiteSiteSite00 admin@site";

    @TempDir
    Path keys;

    private SlurmCluster slurm;

    private SlurmDriver driver;

    private final List<String> users = new ArrayList<>();

    @BeforeEach
    void driver(SlurmCluster slurm) {
        this.slurm = slurm;
        this.driver = SlurmDriver.create(
                "slurm-test",
                new SlurmPool(
                        List.of(),
                        slurm.slurmConf(),
                        "login.test",
                        ZoneId.systemDefault(),
                        Duration.ofSeconds(30),
                        new LoginNode(List.of("sh", "-c", "exec sh -c \"$*\"", "ssh-standin"), keys.toString())));
    }

    @AfterEach
    void removeUsers() {
        users.forEach(slurm::removeUser);
    }

    @Test
    void aTenantUserMaySubmitWithTheAccountAStrangerMayNotAndAfterTeardownNeitherMay() throws IOException {
        String member = user();
        String stranger = user();
        Files.writeString(keys.resolve(member), SITE_LINE + "\n");
        ClusterBlueprint spec = withLogins(Specs.slurm(List.of("gpu-003")), List.of(member), List.of(KEY, OTHER_KEY));

        ProvisionedCluster cluster = driver.provision(spec);

        SlurmCluster.Result accepted = submit(member, spec);
        assertThat(accepted.exitCode()).as(accepted.stderr()).isZero();
        SlurmCluster.Result refused = submit(stranger, spec);
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).containsIgnoringCase("invalid account");
        String name = spec.ref().name();
        assertThat(Files.readAllLines(keys.resolve(member)))
                .containsExactly(
                        SITE_LINE,
                        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb3e0kH0Jx2y5Q0m7p9a1c2d3e4f5g6h7i8j9k0l1m2 " + name,
                        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAdRjh5rQ3b6c7d8e9f0g1h2i3j4k5l6m7n8o9p0q1r2 " + name);
        assertThat(keys.resolve(stranger)).doesNotExist();
        assertThat(Path.of("/tmp/pwned"))
                .as("a key's comment never reaches a shell")
                .doesNotExist();
        assertThat(cluster.steps())
                .anySatisfy(step ->
                        assertThat(step.line()).contains(member, "sacctmgr show assoc account=" + spec.tenant()));
        assertThat(cluster.steps())
                .anySatisfy(step ->
                        assertThat(step.line()).contains("2 SSH key(s)", "login.test", "grep -r " + name + " " + keys));

        driver.provision(spec);
        assertThat(Files.readAllLines(keys.resolve(member)))
                .as("provisioning again changes nothing")
                .hasSize(3);

        driver.teardown(spec.ref());

        assertThat(submit(member, spec).exitCode())
                .as("the partition and the reservation are gone")
                .isNotZero();
        SlurmCluster.Result after = submitWithAccount(member, spec.tenant());
        assertThat(after.exitCode()).isNotZero();
        assertThat(after.stderr()).as("the association is gone too").containsIgnoringCase("invalid account");
        assertThat(associated(spec.tenant())).doesNotContain(member);
        assertThat(Files.readAllLines(keys.resolve(member))).containsExactly(SITE_LINE);
    }

    @Test
    void anotherReservationOfTheTenantKeepsTheUsersUntilItEndsToo() throws IOException {
        String member = user();
        ClusterBlueprint first = withLogins(Specs.slurm(List.of("gpu-004")), List.of(member), List.of(KEY));
        ClusterBlueprint second = withLogins(
                Specs.slurm(
                        first.tenant(),
                        List.of("gpu-005"),
                        first.startsAt(),
                        first.endsAt().plus(1, ChronoUnit.HOURS)),
                List.of(member),
                List.of(OTHER_KEY));
        driver.provision(first);
        driver.provision(second);

        driver.teardown(first.ref());

        assertThat(submit(member, second).exitCode()).isZero();
        assertThat(Files.readString(keys.resolve(member)))
                .doesNotContain(first.ref().name())
                .contains(second.ref().name());
        driver.teardown(second.ref());
        assertThat(submitWithAccount(member, second.tenant()).exitCode()).isNotZero();
        assertThat(Files.readString(keys.resolve(member))).isEmpty();
    }

    @Test
    void aMemberWhoLeftTheTenantLosesTheAccountAndTheKeysWhenTheClusterIsProvisionedAgain() throws IOException {
        String stays = user();
        String leaves = user();
        // the one who leaves booked it: the keys are in that login only
        ClusterBlueprint spec =
                withLogins(Specs.slurm(List.of("gpu-006")), List.of(stays, leaves), List.of(KEY), leaves);
        driver.provision(spec);
        assertThat(submit(leaves, spec).exitCode()).isZero();
        assertThat(Files.readString(keys.resolve(leaves))).contains(spec.ref().name());

        ProvisionedCluster again = driver.provision(withLogins(spec, List.of(stays), List.of(KEY), leaves));

        assertThat(submit(leaves, spec).exitCode()).isNotZero();
        assertThat(submit(stays, spec).exitCode()).isZero();
        assertThat(Files.readString(keys.resolve(leaves))).isEmpty();
        assertThat(keys.resolve(stays))
                .as("the booking's keys never open another member's login")
                .doesNotExist();
        assertThat(again.steps()).anySatisfy(step -> assertThat(step.line()).contains("Removed from account", leaves));
        assertThat(again.steps())
                .anySatisfy(step -> assertThat(step.line())
                        .startsWith("SSH keys not installed")
                        .contains(leaves + " has no login here"));
        driver.teardown(spec.ref());
    }

    /**
     * Issue 28, finding 5: a tenant admin who makes another tenant's user (bob) a member and books with their own key
     * gets no way into bob's login: the key goes to the booker's login only. A service account's booking opens no
     * login at all.
     */
    @Test
    void aBookingsKeysOpenOnlyItsBookersLoginNeverAnotherMembers() throws IOException {
        String attacker = user();
        String bob = user();
        Files.writeString(keys.resolve(bob), SITE_LINE + "\n");
        ClusterBlueprint spec =
                withLogins(Specs.slurm(List.of("gpu-008")), List.of(attacker, bob), List.of(KEY), attacker);

        ProvisionedCluster cluster = driver.provision(spec);

        assertThat(Files.readAllLines(keys.resolve(bob))).containsExactly(SITE_LINE);
        assertThat(Files.readString(keys.resolve(attacker))).contains(spec.ref().name());
        assertThat(cluster.steps())
                .anySatisfy(step ->
                        assertThat(step.line()).startsWith("1 SSH key(s) installed for " + attacker + ", who booked"));

        ProvisionedCluster byServiceAccount =
                driver.provision(withLogins(spec, List.of(attacker, bob), List.of(KEY), null));

        assertThat(Files.readString(keys.resolve(attacker)))
                .doesNotContain(spec.ref().name());
        assertThat(Files.readAllLines(keys.resolve(bob))).containsExactly(SITE_LINE);
        assertThat(byServiceAccount.steps())
                .anySatisfy(step -> assertThat(step.line()).contains("a service account booked this one"));
        driver.teardown(spec.ref());
    }

    @Test
    void withoutALoginNodeTheUsersAreAssociatedAndTheTimelineSaysTheKeysWereNotInstalled() {
        String member = user();
        SlurmDriver noLoginNode = slurm.driver();
        ClusterBlueprint spec = withLogins(Specs.slurm(List.of("gpu-007")), List.of(member), List.of(KEY));

        ProvisionedCluster cluster = noLoginNode.provision(spec);

        assertThat(submit(member, spec).exitCode()).isZero();
        assertThat(cluster.steps()).anySatisfy(step -> assertThat(step.line()).startsWith("SSH keys not installed"));
        noLoginNode.teardown(spec.ref());
        assertThat(submitWithAccount(member, spec.tenant()).exitCode()).isNotZero();
    }

    private String user() {
        String user = slurm.newUnixUser();
        users.add(user);
        return user;
    }

    private SlurmCluster.Result submit(String user, ClusterBlueprint spec) {
        String name = spec.ref().name();
        SlurmCluster.Result submitted = slurm.runAs(
                user, "sbatch", "--hold", "-A", spec.tenant(), "-p", name, "--reservation=" + name, "--wrap=true");
        if (submitted.exitCode() == 0) {
            slurm.run("scancel", "-u", user);
        }
        return submitted;
    }

    /** A job with the account in the default partition: refused once the user's association is gone. */
    private SlurmCluster.Result submitWithAccount(String user, String account) {
        SlurmCluster.Result submitted = slurm.runAs(user, "sbatch", "--hold", "-A", account, "--wrap=true");
        if (submitted.exitCode() == 0) {
            slurm.run("scancel", "-u", user);
        }
        return submitted;
    }

    private List<String> associated(String account) {
        return slurm.run("sacctmgr", "-n", "-P", "show", "assoc", "account=" + account, "format=user")
                .stdout()
                .lines()
                .map(String::strip)
                .toList();
    }

    /** The blueprint with these logins and keys, booked by the first of the users. */
    static ClusterBlueprint withLogins(ClusterBlueprint spec, List<String> users, List<String> keys) {
        return withLogins(spec, users, keys, users.isEmpty() ? null : users.getFirst());
    }

    static ClusterBlueprint withLogins(
            ClusterBlueprint spec, List<String> users, List<String> keys, @Nullable String bookedBy) {
        ClusterRef ref = spec.ref();
        return new ClusterBlueprint(
                ref.reservationId(),
                spec.tenant(),
                spec.project(),
                spec.nodes(),
                spec.gpusPerNode(),
                spec.startsAt(),
                spec.endsAt(),
                spec.orchestrator(),
                spec.cudaDriver(),
                spec.sharedMemoryGi(),
                spec.volumes(),
                keys,
                users,
                bookedBy);
    }
}
