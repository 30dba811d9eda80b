-- Idempotency-Key on every POST that creates (DESIGN.md, conventions). Reservations and health checks keep the
-- key with what they create, in the same transaction; every other creating POST is made idempotent here: the
-- first request with a key claims it (IN_PROGRESS), and its 201 answer is kept to be replayed (DONE). A claim
-- whose request did not create anything is dropped, so the client may fix the request and retry with the key.
CREATE TABLE idempotent_request (
    caller          text        NOT NULL,
    idempotency_key text        NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
    request_hash    text        NOT NULL,
    state           text        NOT NULL CHECK (state IN ('IN_PROGRESS', 'DONE')),
    status          integer,
    content_type    text,
    location        text,
    etag            text,
    body            bytea,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (caller, idempotency_key),
    CHECK (state = 'IN_PROGRESS' OR status IS NOT NULL)
);

CREATE INDEX idempotent_request_created_at ON idempotent_request (created_at);
