-- The scheduler asks, for every ready version, when it was last scheduled: MAX(created_at)
-- of its pairs on each side. With (version, created_at) that is one index lookup; with
-- (version) alone it read every pair the version ever played (BENCHMARKS.md, section 10).
-- These replace the single-column indexes, which they cover.
CREATE INDEX match_pairs_by_a_created ON match_pairs (version_a, created_at);
CREATE INDEX match_pairs_by_b_created ON match_pairs (version_b, created_at);
DROP INDEX match_pairs_by_a;
DROP INDEX match_pairs_by_b;
