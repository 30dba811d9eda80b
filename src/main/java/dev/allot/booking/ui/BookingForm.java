package dev.allot.booking.ui;

import dev.allot.booking.BookingRequest;
import dev.allot.booking.queue.BookingQueue;
import dev.allot.booking.spec.ClusterSpec;
import dev.allot.shared.InvalidInputException;
import dev.allot.shared.TimeWindow;
import dev.allot.shared.web.FormErrors;
import dev.allot.shared.web.ViewerTimes;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The booking form as submitted. Times are {@code datetime-local} values in the zone named by {@code tz} (the
 * zone the form was rendered in); {@code idempotencyKey} is generated into the form when it is first shown, so
 * a double click or a resubmitted page books once.
 */
record BookingForm(
        @Nullable String idempotencyKey,
        @Nullable String tz,
        @Nullable String project,
        @Nullable String pool,
        @Nullable String gpus,
        @Nullable String start,
        @Nullable String end,
        @Nullable String orchestrator,
        @Nullable String cudaDriver,
        @Nullable String sharedMemoryGi,
        @Nullable String volumes,
        @Nullable String sshPublicKeys,
        @Nullable String preemptible,
        @Nullable String queueUntil) {

    static final int MAX_VOLUMES = 16;

    private static final Pattern VOLUME = Pattern.compile(
            "^([a-z](?:[a-z0-9-]{0,61}[a-z0-9])?)\\s*[:\\s]\\s*(\\d{1,7})\\s*(gi|gib)?$", Pattern.CASE_INSENSITIVE);

    /** Where the API names a field, the form has this one. */
    private static final Map<String, String> FIELDS = Map.of(
            "startsAt",
            "start",
            "endsAt",
            "end",
            "cluster.cudaDriver",
            "cudaDriver",
            "cluster.orchestrator",
            "orchestrator",
            "cluster.sharedMemoryGi",
            "sharedMemoryGi",
            "cluster.volumes",
            "volumes",
            "cluster.sshPublicKeys",
            "sshPublicKeys");

    private static final Map<String, String> LABELS = Map.ofEntries(
            Map.entry("project", "Project"),
            Map.entry("pool", "Pool"),
            Map.entry("gpus", "GPUs"),
            Map.entry("start", "Start"),
            Map.entry("end", "End"),
            Map.entry("orchestrator", "Orchestrator"),
            Map.entry("cudaDriver", "CUDA driver"),
            Map.entry("sharedMemoryGi", "Shared memory"),
            Map.entry("volumes", "Volumes"),
            Map.entry("sshPublicKeys", "SSH public keys"),
            Map.entry("preemptible", "Preemptible"),
            Map.entry("queueUntil", "Latest start"));

    /** A refusal of one field as the form words it: the field's label, never the API's name for it. */
    static String labelled(String apiField, String message) {
        String label = LABELS.get(formField(apiField));
        return label == null ? capitalised(message) : label + ": " + lineOf(apiField) + message;
    }

    /** The form's field for a field the API names; one key of the list ({@code cluster.sshPublicKeys[2]}) is the list's. */
    private static String formField(String apiField) {
        Matcher key = KEY_FIELD.matcher(apiField);
        return FIELDS.getOrDefault(key.matches() ? "cluster.sshPublicKeys" : apiField, apiField);
    }

    /** "Key 3: " for a refusal of one key, as the form counts its non-empty lines. */
    private static String lineOf(String apiField) {
        Matcher key = KEY_FIELD.matcher(apiField);
        return key.matches() ? "key " + (Integer.parseInt(key.group(1)) + 1) + ": " : "";
    }

    private static final Pattern KEY_FIELD = Pattern.compile("^cluster\\.sshPublicKeys\\[(\\d{1,4})]$");

    static BookingForm prefill(
            ViewerTimes times,
            @Nullable String project,
            @Nullable String pool,
            @Nullable String gpus,
            @Nullable Instant start,
            @Nullable Instant end) {
        return new BookingForm(
                UUID.randomUUID().toString(),
                times.zoneName(),
                project,
                pool,
                gpus,
                times.input(start),
                times.input(end),
                ClusterSpec.Orchestrator.KUBERNETES.name(),
                "",
                "",
                "",
                "",
                null,
                "");
    }

    /** The same form with a new window (a suggestion taken), in the form's own zone. */
    BookingForm withWindow(Instant newStart, Instant newEnd) {
        ViewerTimes times = times();
        return new BookingForm(
                idempotencyKey,
                tz,
                project,
                pool,
                gpus,
                times.input(newStart),
                times.input(newEnd),
                orchestrator,
                cudaDriver,
                sharedMemoryGi,
                volumes,
                sshPublicKeys,
                preemptible,
                queueUntil);
    }

    BookingForm withNewKey() {
        return new BookingForm(
                UUID.randomUUID().toString(),
                tz,
                project,
                pool,
                gpus,
                start,
                end,
                orchestrator,
                cudaDriver,
                sharedMemoryGi,
                volumes,
                sshPublicKeys,
                preemptible,
                queueUntil);
    }

    ViewerTimes times() {
        return new ViewerTimes(ViewerTimes.zone(tz));
    }

    public String zoneName() {
        return times().zoneName();
    }

    public boolean preemptibleOn() {
        return preemptible != null && !preemptible.isBlank();
    }

    public String orchestratorValue() {
        return "SLURM".equals(orchestrator) ? "SLURM" : "KUBERNETES";
    }

    String key() {
        String key = clean(idempotencyKey);
        return key.isEmpty() || key.length() > 200 ? UUID.randomUUID().toString() : key;
    }

    @Nullable
    Instant startInstant() {
        Instant instant = times().parse(start);
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MINUTES);
    }

    /**
     * With a latest start filled in, the booking waits in the pool's queue when it does not fit, for any start from
     * the one asked to that one; {@code null} (book now or not at all) when it is empty or invalid (then an error).
     */
    BookingQueue.@Nullable StartWindow queueWithin(FormErrors errors) {
        if (clean(queueUntil).isEmpty()) {
            return null;
        }
        Instant latest = times().parse(queueUntil);
        Instant from = startInstant();
        if (latest == null) {
            errors.add("queueUntil", "Enter a date and time, or leave it empty to book now or not at all");
            return null;
        }
        latest = latest.truncatedTo(ChronoUnit.MINUTES);
        if (from == null || latest.isBefore(from)) {
            errors.add("queueUntil", "The latest start must not be before the start");
            return null;
        }
        return new BookingQueue.StartWindow(from, latest);
    }

    @Nullable
    Instant endInstant() {
        Instant instant = times().parse(end);
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MINUTES);
    }

    /** The request, or null with a message per field; {@code drivers} is the pool's catalog. */
    @Nullable
    BookingRequest toRequest(List<String> drivers, FormErrors errors) {
        if (clean(project).isEmpty()) {
            errors.add("project", "Choose a project");
        }
        if (clean(pool).isEmpty()) {
            errors.add("pool", "Choose a pool");
        }
        Integer gpuCount = null;
        try {
            gpuCount = Integer.parseInt(clean(gpus));
            if (gpuCount <= 0) {
                errors.add("gpus", "Enter a number of GPUs above 0");
            }
        } catch (NumberFormatException ex) {
            errors.add("gpus", "Enter a whole number of GPUs");
        }
        Instant from = startInstant();
        Instant to = endInstant();
        if (from == null) {
            errors.add("start", "Enter a start date and time");
        }
        if (to == null) {
            errors.add("end", "Enter an end date and time");
        } else if (from != null && !to.isAfter(from)) {
            errors.add("end", "The end must be after the start");
        }
        String driver = clean(cudaDriver);
        if (!driver.isEmpty() && !drivers.contains(driver)) {
            errors.add("cudaDriver", "No node of this pool has driver " + driver + "; choose one from the list");
        }
        Integer shm = null;
        if (!clean(sharedMemoryGi).isEmpty()) {
            try {
                shm = Integer.parseInt(clean(sharedMemoryGi));
                if (shm < 0 || shm > 4096) {
                    errors.add("sharedMemoryGi", "Enter 0 to 4096 GiB, or leave it empty for the default");
                }
            } catch (NumberFormatException ex) {
                errors.add("sharedMemoryGi", "Enter a whole number of GiB");
            }
        }
        List<ClusterSpec.Volume> parsedVolumes = volumes(errors);
        SshKeys.Parsed keys = SshKeys.parse(clean(sshPublicKeys));
        if (!keys.problems().isEmpty()) {
            errors.add("sshPublicKeys", String.join(". ", keys.problems()));
        }
        if (!errors.isEmpty() || gpuCount == null || from == null || to == null) {
            return null;
        }
        ClusterSpec cluster = new ClusterSpec(
                ClusterSpec.Orchestrator.valueOf(orchestratorValue()),
                driver.isEmpty() ? null : driver,
                shm,
                parsedVolumes,
                keys.keys());
        return new BookingRequest(
                clean(project), clean(pool), gpuCount, new TimeWindow(from, to), cluster, preemptibleOn());
    }

    private List<ClusterSpec.Volume> volumes(FormErrors errors) {
        List<ClusterSpec.Volume> parsed = new ArrayList<>();
        String[] lines = clean(volumes).split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            Matcher matcher = VOLUME.matcher(line);
            if (!matcher.matches()) {
                errors.add("volumes", "Line " + (i + 1) + ": write a name and a size in GiB, such as \"datasets 500\"");
                return List.of();
            }
            int size = Integer.parseInt(matcher.group(2));
            if (size < 1 || size > 1_000_000) {
                errors.add("volumes", "Line " + (i + 1) + ": the size must be 1 to 1000000 GiB");
                return List.of();
            }
            parsed.add(new ClusterSpec.Volume(matcher.group(1).toLowerCase(Locale.ROOT), size));
        }
        if (parsed.size() > MAX_VOLUMES) {
            errors.add("volumes", "At most " + MAX_VOLUMES + " volumes");
        }
        if (parsed.stream().map(ClusterSpec.Volume::name).distinct().count() < parsed.size()) {
            errors.add("volumes", "Give each volume its own name");
        }
        return parsed;
    }

    /** Puts the messages of a refusal next to the fields the form shows. */
    static void addRefusal(InvalidInputException invalid, FormErrors errors) {
        invalid.errors()
                .forEach(error ->
                        errors.add(formField(error.field()), capitalised(lineOf(error.field()) + error.message())));
    }

    static String capitalised(String message) {
        return message.isEmpty() ? message : Character.toUpperCase(message.charAt(0)) + message.substring(1);
    }

    static String clean(@Nullable String value) {
        return value == null ? "" : value.strip();
    }
}
