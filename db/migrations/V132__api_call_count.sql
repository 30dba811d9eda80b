-- identity (issue 27): the /api budget per caller without a database write per call. Each replica counts its callers'
-- calls in memory and every few seconds adds what it answered since its last sync here, all callers in one statement,
-- reading back every replica's total (ApiCallCounts). One row per caller and fixed window (aligned to the epoch, so all
-- replicas agree on it); rows of windows that ended a day ago are purged.
CREATE TABLE api_call_count (
    caller         text        NOT NULL,
    window_start   timestamptz NOT NULL,
    window_seconds bigint      NOT NULL CHECK (window_seconds > 0),
    calls          bigint      NOT NULL CHECK (calls >= 0),
    PRIMARY KEY (caller, window_start, window_seconds)
);
CREATE INDEX api_call_count_window ON api_call_count (window_start);
