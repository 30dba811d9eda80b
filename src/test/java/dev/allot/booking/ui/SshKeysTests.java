package dev.allot.booking.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SshKeysTests {

    static final String RSA =
            "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDBjoEcXEBImiXFoMDIYjCa/joQv4XwNHYALWpwV+ptz1SZ7Q1nYGSI5cAaCPTg"
                    + "PplgVyU57dNR0occJA6u0kCyRGLsgeaRs1+9hY3QOk3Y8DGk+nUdtFR1pRAhiTqDpTMrX2Lj6zi6iO2da1atF9WfqDiq5DnyiUh5"
                    + "oR0opTZ8zT0pjp8mboWNCf0evJGHjbksjJHdxPAlLDe2xuEIWl9U2wqdGhzZUHGkRYWoBUCSYOsd+ldT1JV1B9zWQyXBoaNOKieD"
                    + "2pbp7i2tQpP6aU4jt4qFQXq1DeGjro5Dis3PURpmYhhvggkUPpYh2OdnXmPefum8nCXrCgwzmlA5FhCR bob@ci";

    @Test
    void acceptsEd25519AndRsaPublicKeysWithTheirComments() {
        SshKeys.Parsed parsed = SshKeys.parse(BookingFormTests.ED25519 + "\r\n\n" + RSA);
        assertThat(parsed.problems()).isEmpty();
        assertThat(parsed.keys()).hasSize(2);
    }

    @Test
    void refusesPrivateKeysTruncatedKeysAndMismatchedTypesNamingTheLine() {
        String truncated = BookingFormTests.ED25519.substring(0, 40);
        String mislabelled = BookingFormTests.ED25519.replace("ssh-ed25519 ", "ssh-rsa ");
        SshKeys.Parsed parsed = SshKeys.parse("-----BEGIN OPENSSH PRIVATE KEY-----\n" + truncated + "\n" + mislabelled
                + "\nhello\nssh-dss AAAAB3NzaC1kc3M=");
        assertThat(parsed.keys()).isEmpty();
        assertThat(parsed.problems())
                .satisfiesExactly(
                        p -> assertThat(p).startsWith("Line 1: this is a private key"),
                        p -> assertThat(p).startsWith("Line 2: the key does not match its type ssh-ed25519"),
                        p -> assertThat(p).startsWith("Line 3: the key does not match its type ssh-rsa"),
                        p -> assertThat(p).startsWith("Line 4: not an SSH public key"),
                        p -> assertThat(p).startsWith("Line 5: unknown key type ssh-dss"));
    }
}
