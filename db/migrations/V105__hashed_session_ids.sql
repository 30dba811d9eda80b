-- Browser sessions keep only the SHA-256 of their id (hex): the cookie carries the id itself, so a copy of this
-- table signs nobody in (SessionStoreConfiguration computes the hash in each query). Sessions open now stay open.
ALTER TABLE spring_session
    ALTER COLUMN session_id TYPE varchar(64)
    USING encode(sha256(convert_to(rtrim(session_id), 'UTF8')), 'hex');
ALTER TABLE spring_session ADD CONSTRAINT spring_session_id_hashed CHECK (session_id ~ '^[0-9a-f]{64}$');
