//! Classroom assignments (`[assignment]` in the contest file): every upload a student makes
//! before the deadline is graded against the teacher's reference bots, sequentially, by the
//! ladder's workers; the teacher reads a gradebook (with a CSV for the learning-management
//! system) and the pairs of bots that look copied.
//!
//! - [`references`]: the reference bots become bots of a hidden account at start.
//! - [`grader`]: the step the workers run: judge, and schedule the blocks still needed.
//! - [`sequential`]: the verdict's statistics (pure).
//! - [`summary`]: what a grading match keeps for the grader and the copy check.
//! - [`gradebook`]: grades per student, the counted upload, late penalties, the CSV.
//! - [`copies`]: sources equal once normalised, and bots that decide alike on equal deals.

pub mod copies;
pub mod gradebook;
pub mod grader;
pub mod references;
pub mod sequential;
pub mod summary;
