-- The contest's schema. One file for SQLite and PostgreSQL alike: only types and syntax both
-- read the same way. Ids are random 63-bit integers drawn by the server (no AUTOINCREMENT or
-- SERIAL, which differ); times are BIGINT milliseconds since the Unix epoch; flags are BIGINT
-- 0/1 (SQLite has no BOOLEAN); secrets are stored only as SHA-256 hex digests.

CREATE TABLE users (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,            -- login name: a-z 0-9 _ . - (checked by the server)
    display_name TEXT NOT NULL,
    password_hash TEXT,                   -- Argon2id PHC string; NULL until the account is set up
    setup_token_hash TEXT UNIQUE,         -- one-time setup token (roster and admin accounts)
    is_admin BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,             -- SHA-256 of the cookie's 256-bit random id
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,             -- the session's form token
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

CREATE TABLE api_tokens (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,      -- SHA-256 of the bearer token
    label TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT
);
CREATE INDEX api_tokens_by_user ON api_tokens (user_id);

CREATE TABLE bots (
    id BIGINT PRIMARY KEY,
    owner_id BIGINT NOT NULL REFERENCES users (id),
    name TEXT NOT NULL UNIQUE,            -- unique in the contest: the leaderboard shows it
    created_at BIGINT NOT NULL
);
CREATE INDEX bots_by_owner ON bots (owner_id);

-- One upload of a bot. State machine (server/src/ladder/versions.rs):
-- uploaded -> building -> ready | failed; building -> uploaded (an expired build lease);
-- ready -> retired (a newer version became ready). Versions are never deleted.
CREATE TABLE bot_versions (
    id BIGINT PRIMARY KEY,
    bot_id BIGINT NOT NULL REFERENCES bots (id),
    number BIGINT NOT NULL,               -- 1, 2, ... per bot
    language TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('uploaded', 'building', 'ready', 'failed', 'retired')),
    source_kind TEXT NOT NULL CHECK (source_kind IN ('file', 'zip', 'tar.gz')),
    source_name TEXT NOT NULL,            -- the uploaded file's name
    source_bytes BIGINT NOT NULL,         -- size of the upload
    unpacked_bytes BIGINT NOT NULL,
    file_count BIGINT NOT NULL,
    source_sha256 TEXT NOT NULL,
    build_log TEXT NOT NULL DEFAULT '',
    check_log TEXT NOT NULL DEFAULT '',
    build_lease_token TEXT,               -- the builder holding it while 'building'
    build_lease_expires_at BIGINT,
    build_attempt BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (bot_id, number)
);
CREATE INDEX bot_versions_by_state ON bot_versions (state, created_at);

-- Ladder matches, claimed by workers with leases: a worker sets state 'running', a fresh
-- lease_token and lease_expires_at, and attempt + 1 in one committed statement (PostgreSQL:
-- FOR UPDATE SKIP LOCKED), renews the lease while it plays, and finishes only WHERE the
-- token is still its own and the state is 'running'. An expired lease puts the match back to
-- 'queued' (or 'failed' after max_attempts).
CREATE TABLE matches (
    id BIGINT PRIMARY KEY,
    state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
    seed BIGINT NOT NULL,                 -- the u64 deal seed, its bits stored as a signed BIGINT
    hands BIGINT NOT NULL,
    duplicate BIGINT NOT NULL,
    priority BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    not_before BIGINT NOT NULL,           -- not claimed before this time (retry back-off)
    lease_token TEXT,
    lease_owner TEXT,                     -- the worker's name, for the organizer's pages
    lease_expires_at BIGINT,
    attempt BIGINT NOT NULL DEFAULT 0,
    max_attempts BIGINT NOT NULL,
    started_at BIGINT,
    finished_at BIGINT,
    error TEXT
);
CREATE INDEX matches_claim ON matches (state, priority, not_before);
CREATE INDEX matches_by_lease ON matches (state, lease_expires_at);

-- The bot versions in a match, by seat (a duplicate block plays every seat order).
CREATE TABLE match_seats (
    match_id BIGINT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat BIGINT NOT NULL,
    version_id BIGINT NOT NULL REFERENCES bot_versions (id),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_by_version ON match_seats (version_id);

-- A result is written once: the primary key refuses a second one for the same match.
CREATE TABLE match_results (
    match_id BIGINT PRIMARY KEY REFERENCES matches (id),
    worker TEXT NOT NULL,
    replay_path TEXT,                     -- relative to the data directory
    recorded_at BIGINT NOT NULL
);

CREATE TABLE match_result_seats (
    match_id BIGINT NOT NULL REFERENCES match_results (match_id) ON DELETE CASCADE,
    seat BIGINT NOT NULL,
    chips BIGINT NOT NULL,                -- net chips over the match (or block)
    faults BIGINT NOT NULL,
    PRIMARY KEY (match_id, seat)
);
