//! Standings of a tournament: chips per hand with confidence intervals over duplicate blocks,
//! won/lost/drawn matches, Bradley–Terry ratings with bootstrap errors, faults, a crosstable with
//! significance marks, text and CSV output, an SPRT for head-to-head benchmarking, and the
//! luck-corrected estimator the SPRT may score its blocks with. Statistics over numbers and
//! match records only: which matches to read, and where their replays are, is the caller's
//! (`crate::tournament`), so nothing here depends on tournaments.

mod compute;
// The estimator stays a public module: it is curated in its own right (private parts, `pub
// use` of what it offers), and its names (`Block`, `Unit`, `Tables`, `fit`, `RIDGE`) read as
// the estimator's only with its name; the luck research example and the tests use it whole.
pub mod estimator;
mod match_record;
mod rating;
mod render;
pub(crate) mod sprt;
pub(crate) mod stats;

pub use compute::{BotStanding, CrossEntry, Standings, compute};
pub use match_record::MatchRecord;
pub use rating::{Comparison, SplitMix64, bradley_terry};
pub use render::{render_table, render_totals, to_csv};
pub use sprt::{Sprt, SprtDecision, SprtError, SprtVerdict};
pub use stats::{BlockEstimate, BlockSample, Interval, block_estimate, student_t_quantile};
