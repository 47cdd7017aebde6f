-- Fresh deals for every upload, and the copy check's own shared deals (server/src/assignment/).
-- A grading block's deal is now drawn from the upload too, so that what a student reads in
-- their replays (the whole deal, opponents' cards included) is of no use to any later upload.
-- Comparing two students' decisions needs deals both met: a copy probe is a block on deals
-- every upload meets, played once the upload's grades are settled, never graded and never
-- shown to its student (so no one learns those deals). Same portable subset as 0001.

CREATE TABLE copy_probes (
    pair_id BIGINT PRIMARY KEY REFERENCES match_pairs (id),
    version_id BIGINT NOT NULL REFERENCES bot_versions (id),
    reference_version_id BIGINT NOT NULL REFERENCES bot_versions (id),
    probe BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (version_id, reference_version_id, probe)
);
