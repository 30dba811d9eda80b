package dev.allot.provisioning.lifecycle;

import java.io.Serializable;
import java.util.UUID;

/**
 * The data of a scheduled lifecycle step (a db-scheduler task instance named by the reservation id): whose cluster,
 * and why the step was scheduled, for the timeline.
 */
public record ClusterStep(UUID reservationId, String why) implements Serializable {}
