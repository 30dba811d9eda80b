-- identity: signing keys rotate and are stored sealed (AES-256-GCM under allot.security.sealing-key, see
-- SigningKeys). A superseded key no longer signs; it keeps verifying for the longest token lifetime, then it
-- is deleted. Exactly one key signs at a time.
ALTER TABLE signing_key ADD COLUMN superseded_at timestamptz;

UPDATE signing_key SET superseded_at = now()
WHERE kid <> (SELECT kid FROM signing_key ORDER BY created_at DESC LIMIT 1);

CREATE UNIQUE INDEX signing_key_one_signing ON signing_key ((true)) WHERE superseded_at IS NULL;

-- New and changed rows must be sealed; rows written in clear by earlier versions are sealed at start-up.
ALTER TABLE signing_key ADD CONSTRAINT signing_key_sealed CHECK (jwk LIKE 'v1:%') NOT VALID;
