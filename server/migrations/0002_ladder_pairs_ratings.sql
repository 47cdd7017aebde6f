-- The ladder: duplicate pairs (two matches on the same deals, seats swapped, rated together
-- as one outcome) and each bot version's rating. Same portable subset as 0001.

CREATE TABLE match_pairs (
    id BIGINT PRIMARY KEY,
    version_a BIGINT NOT NULL REFERENCES bot_versions (id),  -- seat 0 in the first match
    version_b BIGINT NOT NULL REFERENCES bot_versions (id),
    created_at BIGINT NOT NULL,
    rated_at BIGINT                        -- set once, when both results were rated
);
CREATE INDEX match_pairs_by_a ON match_pairs (version_a);
CREATE INDEX match_pairs_by_b ON match_pairs (version_b);

ALTER TABLE matches ADD COLUMN pair_id BIGINT REFERENCES match_pairs (id);
CREATE INDEX matches_by_pair ON matches (pair_id);

-- Glicko-2 on its public scale (rating 1500, deviation 350 for a new version).
CREATE TABLE ratings (
    version_id BIGINT PRIMARY KEY REFERENCES bot_versions (id),
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,                 -- rated pairs
    last_played_at BIGINT
);
