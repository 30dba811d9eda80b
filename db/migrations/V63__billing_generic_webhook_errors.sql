-- Delivery errors shown to tenants are generic from now on ("HTTP 500", "connection failed", "timed out",
-- "refused: address not allowed"). Earlier versions stored the exception's class name (SSLHandshakeException,
-- ConnectException, ...), which told a tenant what its webhook had reached inside Allot's network.
UPDATE notification
SET last_error = CASE WHEN last_error ILIKE '%timeout%' THEN 'timed out' ELSE 'connection failed' END
WHERE last_error IS NOT NULL AND last_error !~ '^HTTP [0-9]{3}$';
