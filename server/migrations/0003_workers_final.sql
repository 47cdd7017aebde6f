-- Workers on other machines and the organizer's final. Same portable subset as 0001: BYTEA
-- holds bytes in both (SQLite stores a blob whatever the declared type; PostgreSQL's bytea).

-- A ready version's build directory as a tar.gz archive, so that a worker on any machine
-- fetches what it runs from the database (the server's disk is not shared).
CREATE TABLE build_artifacts (
    version_id BIGINT PRIMARY KEY REFERENCES bot_versions (id),
    run_command TEXT NOT NULL,            -- JSON array of strings; "{dir}" = the unpacked files
    sha256 TEXT NOT NULL,                 -- of the archive: a worker's cache checks it
    archive BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);

-- The replay, gzip-compressed, stored with the result in the same transaction by whichever
-- machine played the match (replay_path stays for files on the server's disk).
ALTER TABLE match_results ADD COLUMN replay_gz BYTEA;

-- The contest as the server runs it (one row): workers read the game, limits and ladder
-- policy from here, so a worker needs only the database's URL. The organizer's freeze and
-- final round robin are recorded here too.
CREATE TABLE contest (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    contest_toml TEXT NOT NULL,           -- the contest file's text
    contest_file TEXT NOT NULL,           -- its path on the server, for messages
    updated_at BIGINT NOT NULL,
    frozen_at BIGINT,                     -- uploads refused from then on; NULL: open
    final_state TEXT NOT NULL DEFAULT 'none'
        CHECK (final_state IN ('none', 'running', 'done', 'failed')),
    final_started_at BIGINT,
    final_finished_at BIGINT,
    final_error TEXT
);
