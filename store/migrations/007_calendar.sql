-- 007: private calendar feeds. Each member's feed is reached through a secret token, of
-- which only the SHA-256 is kept: the database alone cannot rebuild a feed's address. One
-- row a member; a reset replaces it, so the old address stops working at once. Databases
-- from before have no feeds, so there is nothing to fill in: a member's first
-- `/ethics calendar` makes the row.
CREATE TABLE calendar_tokens (
    user         TEXT PRIMARY KEY,                -- Slack user id
    token_sha256 TEXT NOT NULL UNIQUE,            -- hex SHA-256 of the token
    created_at   TEXT NOT NULL                    -- RFC 3339 instant
) STRICT;
