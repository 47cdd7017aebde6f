-- Classroom assignments (`[assignment]`, server/src/assignment.rs): reference bots belong to a
-- hidden account, grading plays duplicate blocks of the ladder's own matches, and each
-- (upload, reference) has a grade. Same portable subset as 0001.

-- The account that owns the reference bots: it has no password and no setup token (no one
-- logs in as it), and its bots are listed nowhere.
ALTER TABLE users ADD COLUMN is_reference BIGINT NOT NULL DEFAULT 0;

-- A grading pair is never rated, and its matches stay played when a version is replaced.
ALTER TABLE match_pairs ADD COLUMN grading BIGINT NOT NULL DEFAULT 0;

-- The assignment's secret (one row): the deal seed of block k against reference r is drawn
-- from it, the same for every student (the copy check compares decisions on equal deals).
CREATE TABLE assignment (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Block k of an upload against a version of a reference bot: a duplicate pair.
CREATE TABLE grading_blocks (
    pair_id BIGINT PRIMARY KEY REFERENCES match_pairs (id),
    version_id BIGINT NOT NULL REFERENCES bot_versions (id),
    reference_version_id BIGINT NOT NULL REFERENCES bot_versions (id),
    block BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (version_id, reference_version_id, block)
);

-- What the grader and the copy check read of a played grading match, written with its result:
-- the actions of every hand (JSON) and the first fault of each seat (JSON).
CREATE TABLE grading_summaries (
    match_id BIGINT PRIMARY KEY REFERENCES matches (id),
    moves TEXT NOT NULL,
    faults TEXT NOT NULL
);

-- An upload's grade against one reference bot.
CREATE TABLE grades (
    version_id BIGINT NOT NULL REFERENCES bot_versions (id),
    reference TEXT NOT NULL,
    state TEXT NOT NULL
        CHECK (state IN ('grading', 'pass', 'fail', 'not settled', 'paused', 'replaced')),
    blocks BIGINT NOT NULL,
    edge DOUBLE PRECISION,
    lower_bound DOUBLE PRECISION,
    upper_bound DOUBLE PRECISION,
    mark DOUBLE PRECISION NOT NULL,
    why TEXT NOT NULL,
    match_id BIGINT,                      -- the match a fault happened in
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (version_id, reference)
);
