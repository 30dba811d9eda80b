package dev.allot.provisioning.driver.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Plays the Job controller and the kubelet, which the mock server lacks: for every health-check Job it creates the
 * Job's pod on the Job's {@code nodeName}, runs the "check" by ending the pod Succeeded or Failed according to the
 * recorded output chosen for that node (the nodes have no GPUs), and serves that output as the pod's log through an
 * expectation (the mock server in CRUD mode has no log endpoint). A node given {@link #hang} leaves its pod Running.
 * Polls rather than watches, like {@link TokenController}.
 */
final class Kubelet implements AutoCloseable {

    static final Path OUTPUTS = Path.of("src/test/resources/health-outputs").toAbsolutePath();

    private static final String HANG = "hang";

    private static final String FAIL_POD = "fail-pod:";

    private final KubernetesMockServer server;

    private final KubernetesClient client;

    private final Map<String, String> outputs = new ConcurrentHashMap<>();

    private final Map<String, Boolean> started = new ConcurrentHashMap<>();

    /** Every check Job seen, as created by Allot. */
    final List<Job> jobs = new CopyOnWriteArrayList<>();

    private final AtomicInteger pods = new AtomicInteger();

    private final Thread thread;

    private volatile boolean running = true;

    Kubelet(KubernetesMockServer server, KubernetesClient client) {
        this.server = server;
        this.client = client;
        this.thread = Thread.ofVirtual().name("kubelet").start(this::loop);
    }

    /**
     * What checks print on a node ({@code default}: any other node; {@code across}: rank 0 of a job across nodes),
     * a fixture of {@code health-outputs}; {@code <node>.<KIND>} for checks of one kind only.
     */
    void record(String node, String fixture) {
        outputs.put(node, fixture);
    }

    private String fixtureFor(String node, String kind) {
        for (String key : List.of(node + "." + kind, node, "default." + kind, "default")) {
            if (outputs.containsKey(key)) {
                return outputs.get(key);
            }
        }
        return "nvidia-smi-h100-healthy.txt";
    }

    /** The check's pod on this node starts and never ends. */
    void hang(String node) {
        outputs.put(node, HANG);
    }

    /** The check's pod on this node fails with this reason of the pod's status (NodeLost, OutOfnvidia.com/gpu). */
    void failPod(String node, String reason) {
        outputs.put(node, FAIL_POD + reason);
    }

    private void loop() {
        while (running) {
            try {
                client.batch().v1().jobs().inAnyNamespace().withLabel(CheckJobs.CHECK).list().getItems().stream()
                        .filter(job -> started.putIfAbsent(job.getMetadata().getUid(), true) == null)
                        .forEach(this::run);
                Thread.sleep(20);
            } catch (InterruptedException ex) {
                return;
            } catch (RuntimeException ex) {
                System.out.println("kubelet: " + ex);
            }
        }
    }

    private void run(Job job) {
        jobs.add(job);
        String kind = job.getMetadata().getLabels().get(CheckJobs.CHECK);
        if ("Indexed".equals(job.getSpec().getCompletionMode())) {
            runAcross(job, kind);
            return;
        }
        String namespace = job.getMetadata().getNamespace();
        String node = job.getSpec().getTemplate().getSpec().getNodeName();
        String fixture = fixtureFor(node, kind);
        if (fixture.startsWith(FAIL_POD)) {
            client.pods()
                    .inNamespace(job.getMetadata().getNamespace())
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName(job.getMetadata().getName() + "-" + pods.incrementAndGet())
                            .addToLabels("job-name", job.getMetadata().getName())
                            .endMetadata()
                            .withSpec(job.getSpec().getTemplate().getSpec())
                            .withNewStatus()
                            .withPhase("Failed")
                            .withReason(fixture.substring(FAIL_POD.length()))
                            .endStatus()
                            .build())
                    .create();
            return;
        }
        String pod =
                job.getMetadata().getName() + "-" + pods.incrementAndGet(); // unique, as the Job controller names them
        boolean hangs = HANG.equals(fixture);
        String recorded = hangs ? "" : read(fixture);
        String output = recorded.lines()
                .filter(line -> !line.startsWith("@@"))
                .map(line -> line + "\n")
                .collect(Collectors.joining());
        server.expect()
                .get()
                .withPath("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/log?pretty=false")
                .andReturn(200, output)
                .always();
        int exit = recorded.startsWith("@@ exit ")
                ? Integer.parseInt(
                        recorded.lines().findFirst().orElseThrow().substring(8).strip())
                : 0;
        PodBuilder built = new PodBuilder()
                .withNewMetadata()
                .withName(pod)
                .withNamespace(namespace)
                .addToLabels("job-name", job.getMetadata().getName())
                .endMetadata()
                .withSpec(job.getSpec().getTemplate().getSpec());
        Pod created = hangs
                ? built.withNewStatus().withPhase("Running").endStatus().build()
                : built.withNewStatus()
                        .withPhase(exit == 0 ? "Succeeded" : "Failed")
                        .addNewContainerStatus()
                        .withName("check")
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(exit)
                        .endTerminated()
                        .endState()
                        .endContainerStatus()
                        .endStatus()
                        .build();
        client.pods().inNamespace(namespace).resource(created).create();
    }

    /**
     * An Indexed Job across nodes: plays the scheduler too, putting pod {@code i} on the {@code i}-th node its
     * required node affinity names (its anti-affinity keeps them apart); rank 0 prints the {@code across} fixture,
     * the others nothing, and all end with its exit code.
     */
    private void runAcross(Job job, String kind) {
        String namespace = job.getMetadata().getNamespace();
        List<String> nodes = job.getSpec()
                .getTemplate()
                .getSpec()
                .getAffinity()
                .getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms()
                .getFirst()
                .getMatchExpressions()
                .getFirst()
                .getValues();
        String fixture = fixtureFor("across", kind);
        boolean hangs = HANG.equals(fixture);
        String recorded = hangs ? "" : read(fixture);
        int exit = recorded.startsWith("@@ exit ")
                ? Integer.parseInt(
                        recorded.lines().findFirst().orElseThrow().substring(8).strip())
                : 0;
        for (int index = 0; index < job.getSpec().getCompletions(); index++) {
            String pod = job.getMetadata().getName() + "-" + index + "-" + pods.incrementAndGet();
            String output = index > 0
                    ? ""
                    : recorded.lines()
                            .filter(line -> !line.startsWith("@@"))
                            .map(line -> line + "\n")
                            .collect(Collectors.joining());
            server.expect()
                    .get()
                    .withPath("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/log?pretty=false")
                    .andReturn(200, output)
                    .always();
            PodBuilder built = new PodBuilder()
                    .withNewMetadata()
                    .withName(pod)
                    .withNamespace(namespace)
                    .addToLabels("job-name", job.getMetadata().getName())
                    .addToLabels(MultiNodeCheckJobs.COMPLETION_INDEX, Integer.toString(index))
                    .endMetadata()
                    .withSpec(job.getSpec().getTemplate().getSpec())
                    .editSpec()
                    .withNodeName(nodes.get(index))
                    .endSpec();
            Pod created = hangs
                    ? built.withNewStatus().withPhase("Running").endStatus().build()
                    : built.withNewStatus()
                            .withPhase(exit == 0 ? "Succeeded" : "Failed")
                            .addNewContainerStatus()
                            .withName("check")
                            .withNewState()
                            .withNewTerminated()
                            .withExitCode(exit)
                            .endTerminated()
                            .endState()
                            .endContainerStatus()
                            .endStatus()
                            .build();
            client.pods().inNamespace(namespace).resource(created).create();
        }
    }

    private static String read(String fixture) {
        try {
            return Files.readString(OUTPUTS.resolve(fixture));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
    }
}
