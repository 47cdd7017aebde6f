//! Standings of a tournament: chips per hand with confidence intervals over duplicate blocks,
//! won/lost/drawn matches, Bradley–Terry ratings with bootstrap errors, faults, a crosstable with
//! significance marks, text and CSV output, and an SPRT for head-to-head benchmarking.

mod compute;
pub mod controls;
#[cfg(test)]
mod coverage_check;
pub mod deal_table;
pub mod luck;
pub mod luck_closest;
pub mod luck_lallan;
pub mod luck_mix;
pub mod rating;
mod render;
pub mod sprt;
pub mod stats;

pub use compute::{BotStanding, CrossEntry, Standings, compute, compute_for};
pub use render::{render_table, render_totals, to_csv};
pub use sprt::{Sprt, SprtDecision, SprtError, SprtVerdict};
pub use stats::Interval;
