package dev.allot.shared.web;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The kept claims and answers of {@link IdempotentCreates}. Each statement commits on its own: a claim is visible to
 * a racing twin at once, and no statement here runs inside another transaction.
 */
@Configuration(proxyBeanMethods = false)
class IdempotentRequests {

    /** How long a key is remembered, as Stripe and most APIs do: a day covers any sensible retry. */
    static final Duration RETENTION = Duration.ofHours(24);

    /** A claim older than this lost its request (the replica died mid-request): the next retry takes it over. */
    static final Duration ABANDONED_AFTER = Duration.ofMinutes(5);

    /** A kept answer; without a body when it held a secret (sent with {@code Cache-Control: no-store}). */
    record Answer(
            int status,
            @Nullable String contentType,
            @Nullable String location,
            @Nullable String etag,
            byte @Nullable [] body) {}

    /** What a key holds when this request could not claim it. */
    sealed interface Held {

        String requestHash();
    }

    record Running(String requestHash) implements Held {}

    record Done(String requestHash, Answer answer) implements Held {}

    private final JdbcClient jdbc;

    IdempotentRequests(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Claims the key for this request; empty when it did, else what the key already holds. */
    Optional<Held> claim(String caller, String key, String requestHash) {
        int claimed = jdbc.sql("""
				INSERT INTO idempotent_request (caller, idempotency_key, request_hash, state)
				VALUES (:caller, :key, :hash, 'IN_PROGRESS')
				ON CONFLICT (caller, idempotency_key) DO UPDATE
				    SET request_hash = excluded.request_hash, state = 'IN_PROGRESS', status = NULL, content_type = NULL,
				        location = NULL, etag = NULL, body = NULL, created_at = now()
				    WHERE idempotent_request.created_at < now() - CAST(:retention AS interval)
				       OR (idempotent_request.state = 'IN_PROGRESS'
				           AND idempotent_request.created_at < now() - CAST(:abandoned AS interval))""")
                .param("caller", caller)
                .param("key", key)
                .param("hash", requestHash)
                .param("retention", RETENTION.toSeconds() + " seconds")
                .param("abandoned", ABANDONED_AFTER.toSeconds() + " seconds")
                .update();
        if (claimed == 1) {
            return Optional.empty();
        }
        return jdbc.sql("SELECT * FROM idempotent_request WHERE caller = ? AND idempotency_key = ?")
                .params(caller, key)
                .query((rs, n) -> rs.getString("state").equals("IN_PROGRESS")
                        ? (Held) new Running(rs.getString("request_hash"))
                        : new Done(
                                rs.getString("request_hash"),
                                new Answer(
                                        rs.getInt("status"),
                                        rs.getString("content_type"),
                                        rs.getString("location"),
                                        rs.getString("etag"),
                                        rs.getBytes("body"))))
                .optional()
                // the holder dropped its claim between our insert and this read: the client may simply retry
                .or(() -> Optional.of(new Running(requestHash)));
    }

    void complete(String caller, String key, Answer answer) {
        jdbc.sql("""
				UPDATE idempotent_request SET state = 'DONE', status = ?, content_type = ?, location = ?, etag = ?, body = ?
				WHERE caller = ? AND idempotency_key = ? AND state = 'IN_PROGRESS'""")
                .params(
                        answer.status(),
                        answer.contentType(),
                        answer.location(),
                        answer.etag(),
                        answer.body(),
                        caller,
                        key)
                .update();
    }

    void release(String caller, String key) {
        jdbc.sql("DELETE FROM idempotent_request WHERE caller = ? AND idempotency_key = ? AND state = 'IN_PROGRESS'")
                .params(caller, key)
                .update();
    }

    @Bean
    RecurringTask<Void> purgeIdempotentRequests() {
        return Tasks.recurring("shared-purge-idempotent-requests", FixedDelay.of(Duration.ofHours(1)))
                .execute((instance, context) -> jdbc.sql(
                                "DELETE FROM idempotent_request WHERE created_at < now() - CAST(? AS interval)")
                        .param(RETENTION.toSeconds() + " seconds")
                        .update());
    }
}
