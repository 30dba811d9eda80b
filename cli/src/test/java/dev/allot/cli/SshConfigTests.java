package dev.allot.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class SshConfigTests {

    static final UUID ID = UUID.fromString("6366c2de-eaff-4641-9d4b-c1931118e547");

    @Test
    void aLoginHostWithUserAndPortBecomesAHostBlockWithTheSbatchFlags() {
        assertEquals(
                """
				Host allot-6366c2de
				  HostName login.a100.example
				  Port 2222
				  User ci
				  IdentityFile ~/.ssh/ci
				  # sbatch --reservation=allot-6366c2de --account=team-a
				""", SshConfigCommand.block(ID, "ci@login.a100.example:2222", "~/.ssh/ci", "allot-6366c2de", "team-a"));
    }

    @Test
    void aBareHostNeedsNoMore() {
        assertEquals(
                "Host allot-6366c2de\n  HostName login.example\n",
                SshConfigCommand.block(ID, "login.example", null, null, null));
    }
}
