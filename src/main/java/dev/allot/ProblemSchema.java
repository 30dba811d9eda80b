package dev.allot;

import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.NumberSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;

/**
 * The properties of the RFC 9457 Problem schema: what every problem carries, then the extras some refusals carry,
 * each named once (for {@link OpenApiConfiguration}).
 */
final class ProblemSchema {

    private ProblemSchema() {}

    /** Names the properties on {@code problem}, in the order the contract lists them. */
    static void describe(Schema<?> problem) {
        problemFields(problem);
        // the extras some problems carry, each named once here
        quotaRefusalFields(problem);
        capacityFields(problem);
        budgetAndProjectFields(problem);
        windowFields(problem);
        conflictAndRetryFields(problem);
    }

    /** The Problem schema's properties: what every problem carries. */
    private static void problemFields(Schema<?> problem) {
        problem.addProperty(
                        "type", new StringSchema().format("uri").example("https://allot.dev/problems/quota_exceeded"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema())
                .addProperty(
                        "instance", new StringSchema().format("uri-reference").description("The request's path"))
                .addProperty("code", new StringSchema().example("quota_exceeded"))
                .addProperty("requestId", new StringSchema())
                .addProperty(
                        "errors",
                        new ArraySchema()
                                .description("400: each bad field")
                                .items(new ObjectSchema()
                                        .addProperty("field", new StringSchema())
                                        .addProperty("message", new StringSchema())));
    }

    /** The Problem schema's properties: quota_exceeded's extras. */
    private static void quotaRefusalFields(Schema<?> problem) {
        problem.addProperty("limit", new StringSchema().description("quota_exceeded: the limit that refused"))
                .addProperty("field", new StringSchema().description("quota_exceeded: the request field it bounds"))
                .addProperty("allowed", new Schema<>().description("quota_exceeded: what the limit allows"))
                .addProperty("requested", new Schema<>().description("quota_exceeded: what was asked for"))
                .addProperty("exceededBy", new Schema<>().description("quota_exceeded: by how much"))
                .addProperty(
                        "held",
                        new Schema<>()
                                .description(
                                        "quota_exceeded (storageGi): GiB the tenant's other volumes hold in the window"))
                .addProperty("gpuType", new StringSchema().description("quota_exceeded: the GPU type's quota"));
    }

    /** The Problem schema's properties: capacity_not_available's and guarantees_exceed_capacity's extras. */
    private static void capacityFields(Schema<?> problem) {
        problem.addProperty(
                        "reclaimConsidered",
                        new BooleanSchema()
                                .description(
                                        "capacity_not_available: whether the booking was within its tenant's guarantee "
                                                + "and so tried to reclaim nodes from other tenants' preemptible reservations"))
                .addProperty(
                        "capacity",
                        new IntegerSchema().description("guarantees_exceed_capacity: the GPU type's healthy GPUs"))
                .addProperty(
                        "guaranteed",
                        new IntegerSchema()
                                .description("guarantees_exceed_capacity: what the guarantees would add up to"))
                .addProperty(
                        "excess",
                        new IntegerSchema()
                                .description("guarantees_exceed_capacity: by how much they would exceed it"));
    }

    /** The Problem schema's properties: budget, project and user refusals' extras. */
    private static void budgetAndProjectFields(Schema<?> problem) {
        problem.addProperty("month", new StringSchema().description("budget refusals: the month, yyyy-mm"))
                .addProperty("spent", new Schema<>().description("budget refusals: spent so far that month"))
                .addProperty("project", new StringSchema().description("project budget refusals: the project"))
                .addProperty(
                        "allowedProjects",
                        new ArraySchema()
                                .description("project_not_allowed: the projects of the tenant the caller may book in")
                                .items(new StringSchema()))
                .addProperty("username", new StringSchema().description("unknown_user: the name asked for"));
    }

    /** The Problem schema's properties: time-window, lending and guarantee-headroom refusals' extras, and a refusal's alternatives. */
    private static void windowFields(Schema<?> problem) {
        problem.addProperty(
                        "at",
                        new StringSchema()
                                .format("date-time")
                                .description("time-window quota and lending refusals: the first instant refused"))
                .addProperty(
                        "freeGpus",
                        new IntegerSchema()
                                .description(
                                        "capacity_not_available for lending limits, and guarantee_headroom: the GPU "
                                                + "type's free GPUs then"))
                .addProperty(
                        "heldGpus",
                        new IntegerSchema()
                                .description("capacity_not_available for lending "
                                        + "limits: of those, what other tenants' guarantees hold back from borrowers"))
                .addProperty(
                        "unusedGuaranteedGpus",
                        new IntegerSchema()
                                .description(
                                        "guarantee_headroom: "
                                                + "what other tenants' guarantees do not use at `at`, which must stay available to them"))
                .addProperty(
                        "hours",
                        new ArraySchema()
                                .description(
                                        "guarantee_headroom: each hour (its start) where the booking would take it")
                                .items(new StringSchema().format("date-time")))
                .addProperty(
                        "preemptiblePrice",
                        new NumberSchema()
                                .description(
                                        "guarantee_headroom: what the same booking costs marked \"preemptible\": true"))
                .addProperty("currency", new StringSchema().description("guarantee_headroom: of preemptiblePrice"))
                .addProperty(
                        "earliestStart",
                        new StringSchema()
                                .format("date-time")
                                .description("capacity_not_available: the earliest start where the same booking fits"))
                .addProperty(
                        "alternatives",
                        new ArraySchema()
                                .description("capacity_not_available: up to 3 windows of the same length that fit")
                                .items(new ObjectSchema()
                                        .addProperty("startsAt", new StringSchema().format("date-time"))
                                        .addProperty("endsAt", new StringSchema().format("date-time"))));
    }

    /** The Problem schema's properties: conflicts' and retries' extras. */
    private static void conflictAndRetryFields(Schema<?> problem) {
        problem.addProperty(
                        "reservationStatus",
                        new StringSchema().description("reservation conflicts: the reservation's status"))
                .addProperty("state", new StringSchema().description("state conflicts: the current state"))
                .addProperty(
                        "location",
                        new StringSchema()
                                .description("idempotency_key_in_use: where the first request's answer will be"))
                .addProperty(
                        "retryAfterSeconds",
                        new IntegerSchema()
                                .description("rate_limited and database_unavailable: as the Retry-After header"));
    }
}
