package dev.allot.booking.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.allot.booking.BookingRequest;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.InvalidInputException.FieldError;
import dev.allot.shared.web.FormErrors;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BookingFormTests {

    static final String ED25519 =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAdRjhFO53nw+UOnYkvgF7wfzPqAZ+reJO59jC3++IBt ada@laptop";

    @Test
    void readsTheWindowInTheZoneTheFormWasShownIn() {
        BookingForm form = form("Europe/Berlin", "2027-01-05T10:00", "2027-01-05T14:30", "", "");
        BookingRequest request = form.toRequest(List.of("550.54"), new FormErrors());
        assertThat(request).isNotNull();
        assertThat(request.window().start()).isEqualTo(Instant.parse("2027-01-05T09:00:00Z"));
        assertThat(request.window().end()).isEqualTo(Instant.parse("2027-01-05T13:30:00Z"));
        assertThat(request.cluster().orchestrator()).isEqualTo(ClusterSpec.Orchestrator.SLURM);
    }

    @Test
    void anUnknownZoneFallsBackToUtc() {
        BookingRequest request = form("Mars/Olympus", "2027-01-05T10:00", "2027-01-05T11:00", "", "")
                .toRequest(List.of(), new FormErrors());
        assertThat(request.window().start()).isEqualTo(Instant.parse("2027-01-05T10:00:00Z"));
    }

    @Test
    void volumesAndKeysAreParsedLineByLine() {
        BookingRequest request = form(
                        "UTC", "2027-01-05T10:00", "2027-01-05T11:00", "datasets 500\n\nckpt: 20 GiB", ED25519 + "\n")
                .toRequest(List.of(), new FormErrors());
        assertThat(request.cluster().volumes())
                .containsExactly(new ClusterSpec.Volume("datasets", 500), new ClusterSpec.Volume("ckpt", 20));
        assertThat(request.cluster().sshPublicKeys()).containsExactly(ED25519);
    }

    @Test
    void eachBadFieldGetsItsOwnMessage() {
        FormErrors errors = new FormErrors();
        BookingForm form = new BookingForm(
                "key",
                "UTC",
                "",
                "pool",
                "eight",
                "2027-01-05T10:00",
                "2027-01-05T09:00",
                "KUBERNETES",
                "999.99",
                "9000",
                "a b c",
                "ssh-rsa AAAA",
                null,
                "2027-01-05T08:00");
        assertThat(form.toRequest(List.of("550.54"), errors)).isNull();
        assertThat(form.queueWithin(errors)).isNull();
        assertThat(errors.asMap())
                .containsOnlyKeys(
                        "project",
                        "gpus",
                        "end",
                        "cudaDriver",
                        "sharedMemoryGi",
                        "volumes",
                        "queueUntil",
                        "sshPublicKeys");
        assertThat(errors.get("end")).isEqualTo("The end must be after the start");
        assertThat(errors.get("cudaDriver")).contains("No node of this pool has driver 999.99");
    }

    @Test
    void aRefusalOfTheKeysByTheServerIsShownAtTheKeysFieldInTheFormsWords() {
        FormErrors kubernetes = new FormErrors();
        BookingForm.addRefusal(
                InvalidInputException.of(
                        "cluster.sshPublicKeys",
                        "pool k8s runs Kubernetes, which is "
                                + "reached with the reservation's kubeconfig, not over SSH"),
                kubernetes);
        FormErrors oneKey = new FormErrors();
        BookingForm.addRefusal(
                InvalidInputException.of("cluster.sshPublicKeys[1]", "the key does not match its type"), oneKey);

        assertThat(kubernetes.asMap()).containsOnlyKeys("sshPublicKeys");
        assertThat(kubernetes.get("sshPublicKeys")).startsWith("Pool k8s runs Kubernetes, which is reached");
        assertThat(oneKey.asMap()).containsOnlyKeys("sshPublicKeys");
        assertThat(oneKey.get("sshPublicKeys")).isEqualTo("Key 2: the key does not match its type");
        assertThat(BookingForm.labelled("cluster.sshPublicKeys[0]", "cut")).isEqualTo("SSH public keys: key 1: cut");
        assertThat(BookingForm.labelled("cluster.sshPublicKeys", "pool k8s runs Kubernetes"))
                .isEqualTo("SSH public keys: pool k8s runs Kubernetes");
    }

    @Test
    void twoVolumesOfOneNameAreRefused() {
        FormErrors errors = new FormErrors();
        form("UTC", "2027-01-05T10:00", "2027-01-05T11:00", "data 1\ndata 2", "")
                .toRequest(List.of(), errors);
        assertThat(errors.get("volumes")).isEqualTo("Give each volume its own name");
    }

    @Test
    void takingASuggestionKeepsTheKeyAndTheZone() {
        BookingForm form = form("Europe/Berlin", "2027-01-05T10:00", "2027-01-05T11:00", "", "");
        BookingForm taken =
                form.withWindow(Instant.parse("2027-01-06T08:00:00Z"), Instant.parse("2027-01-06T09:00:00Z"));
        assertThat(taken.start()).isEqualTo("2027-01-06T09:00");
        assertThat(taken.idempotencyKey()).isEqualTo(form.idempotencyKey());
        assertThat(form.withNewKey().idempotencyKey()).isNotEqualTo(form.idempotencyKey());
    }

    private static BookingForm form(String zone, String start, String end, String volumes, String keys) {
        return new BookingForm(
                "key-1", zone, "training", "h100-a", "16", start, end, "SLURM", "", "", volumes, keys, null, "");
    }

    @Test
    void aRefusedOrchestratorIsShownOnTheOrchestratorChoice() {
        FormErrors errors = new FormErrors();
        BookingForm.addRefusal(
                new InvalidInputException(List.of(new FieldError(
                        "cluster.orchestrator",
                        "pool h100 builds SLURM clusters only; pools offering KUBERNETES: k8s-a"))),
                errors);
        assertThat(errors.asMap()).containsOnlyKeys("orchestrator");
        assertThat(errors.get("orchestrator"))
                .isEqualTo("Pool h100 builds SLURM clusters only; pools offering KUBERNETES: k8s-a");
        assertThat(BookingForm.labelled("cluster.orchestrator", "pool h100 builds SLURM clusters only"))
                .isEqualTo("Orchestrator: pool h100 builds SLURM clusters only");
    }
}
