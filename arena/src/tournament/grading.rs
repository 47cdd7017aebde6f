//! Gauntlet grading: does each candidate beat each reference bot (the field) by more than the
//! pass mark, with 95% confidence? And the gauntlet's ranking: candidates by their edges
//! against the field (field bots never play each other, so they are not ranked).
//!
//! # The rule
//!
//! A candidate passes against a reference bot when the **lower end** of the 95% confidence
//! interval of its edge against that bot is **strictly above** the mark. The edge is the
//! crosstable's (see [`crate::standings`]): `(candidate net − reference net) / 2` per hand of
//! the matches both sat in, which heads-up (two seats, zero-sum) is exactly the candidate's
//! chips per hand; its interval is Student's t over the duplicate blocks they shared.
//!
//! Consequences, on purpose:
//!
//! * a point estimate above the mark is not enough: a lucky bot with a wide interval fails;
//! * an unchanged copy of a deterministic reference bot scores exactly 0 in every block
//!   (duplicate deals and per-seat hello seeds make it a mirror), so its interval is `[0, 0]`,
//!   whose lower end is not above a mark of 0: it fails;
//! * with a single block the interval is unbounded: nobody passes on one block.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::standings::{self, Interval, Standings};

/// The grading rule in one sentence (in grades.json and every grade table).
pub const RULE: &str = "passes against a reference bot only when the lower end of the 95% \
     confidence interval (Student's t over duplicate blocks) of its edge against that bot, in \
     chips per hand, is strictly above the mark";

/// The multiple-comparison caveat (in grades.json and the grade tables).
pub const CAVEAT: &str = "each PASS is a one-sided 97.5% decision: a candidate whose true \
     edge is at or below the mark still passes by chance in at most 1 in 40 runs, and one only a \
     little above the mark often fails unless the run is long; with several references and \
     candidates, expect a few such borderline decisions to be wrong by chance";

/// One candidate's result against one reference (field) bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grade {
    pub candidate: String,
    pub opponent: String,
    /// The candidate's chips per hand in the matches where `opponent` also sat.
    pub chips_per_hand: f64,
    /// Hands of those matches.
    pub hands: u64,
    /// The pass mark (chips per hand of edge).
    pub mark: f64,
    /// Whether the candidate passes ([`RULE`]).
    pub pass: bool,
    /// The candidate's edge over `opponent` per hand (heads-up: its chips per hand).
    pub estimate: f64,
    /// The 95% interval of `estimate`: lower end (`null`: unbounded, fewer than two blocks).
    pub lower: Option<f64>,
    /// Upper end (`null`: unbounded).
    pub upper: Option<f64>,
    /// Duplicate blocks the two shared.
    pub blocks: u64,
    /// Why it passes or fails, in words.
    pub reason: String,
}

/// A candidate's overall result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub candidate: String,
    /// Passes against every reference bot with a mark.
    pub passes_all: bool,
    /// The references it fails against, by name.
    pub failed: Vec<String>,
    /// `PASS (all 3 references)` or `FAIL (against strength, passive)`.
    pub verdict: String,
}

/// One candidate's line of the gauntlet ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GauntletRow {
    pub rank: u64,
    pub candidate: String,
    /// Mean of its edges against the reference bots it met (each reference weighs alike).
    pub mean_edge: f64,
    /// Its edge against each reference bot, in the field's order.
    pub edges: Vec<Edge>,
}

/// A candidate's edge against one reference bot, with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    pub opponent: String,
    pub edge_per_hand: f64,
    /// `None`: unbounded (fewer than two shared blocks) or they never met.
    pub ci: Option<Interval>,
    pub blocks: u64,
}

/// A gauntlet's ranking: candidates against the field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GauntletStandings {
    pub candidates: Vec<GauntletRow>,
    /// The reference bots, by name.
    pub field: Vec<String>,
    /// Why the field bots are not ranked.
    pub note: String,
}

/// Everything `grades.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradeReport {
    pub confidence: f64,
    pub rule: String,
    pub caveat: String,
    /// One per candidate per reference bot with a mark.
    pub grades: Vec<Grade>,
    /// One per candidate.
    pub verdicts: Vec<Verdict>,
    pub gauntlet: GauntletStandings,
}

/// Whether an edge with interval `ci` passes `mark` ([`RULE`]), and why in words.
pub fn decide(estimate: f64, ci: Option<Interval>, mark: f64) -> (bool, String) {
    match ci {
        None => (
            false,
            format!(
                "estimate {estimate:+.3} but the interval is unbounded (fewer than two duplicate \
                 blocks): nothing is shown"
            ),
        ),
        Some(ci) if ci.low > mark => (
            true,
            format!(
                "the lower end {:+.3} is above the mark {mark:+.3}: better than the mark with 95% \
                 confidence",
                ci.low
            ),
        ),
        Some(ci) if ci.low == ci.high => (
            false,
            format!(
                "every block scored exactly {:+.3} (a mirror: a copy of the reference bot?); not \
                 above the mark {mark:+.3}",
                ci.low
            ),
        ),
        Some(ci) => (
            false,
            format!(
                "the lower end {:+.3} is not above the mark {mark:+.3}: not shown to be better \
                 than the mark",
                ci.low
            ),
        ),
    }
}

/// The gauntlet's ranking of `candidates` against the other bots of `bots` (the field), from
/// the standings' crosstable.
pub fn gauntlet_standings(
    standings: &Standings,
    bots: &[String],
    candidates: &[String],
) -> GauntletStandings {
    let field: Vec<String> = bots
        .iter()
        .filter(|b| !candidates.contains(b))
        .cloned()
        .collect();
    let mut rows: Vec<GauntletRow> = candidates
        .iter()
        .map(|candidate| {
            let edges: Vec<Edge> = field
                .iter()
                .map(|opponent| match standings.cross(candidate, opponent) {
                    Some(e) => Edge {
                        opponent: opponent.clone(),
                        edge_per_hand: e.edge_per_hand,
                        ci: e.ci.map(positive_zero),
                        blocks: e.blocks,
                    },
                    None => Edge {
                        opponent: opponent.clone(),
                        edge_per_hand: 0.0,
                        ci: None,
                        blocks: 0,
                    },
                })
                .collect();
            let met: Vec<f64> = edges
                .iter()
                .filter(|e| e.blocks > 0)
                .map(|e| e.edge_per_hand)
                .collect();
            let mean_edge = if met.is_empty() {
                0.0
            } else {
                met.iter().sum::<f64>() / met.len() as f64
            };
            GauntletRow {
                rank: 0,
                candidate: candidate.clone(),
                mean_edge,
                edges,
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        b.mean_edge
            .total_cmp(&a.mean_edge)
            .then_with(|| a.candidate.cmp(&b.candidate))
    });
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i as u64 + 1;
    }
    let note = format!(
        "Candidates are ranked by their mean edge against the reference bots. The reference bots \
         ({}) played only the candidates, never each other, so they are not ranked.",
        field.join(", ")
    );
    GauntletStandings {
        candidates: rows,
        field,
        note,
    }
}

/// Grades every candidate against every field bot that has a pass mark ([`RULE`]), with the
/// verdicts and the gauntlet's ranking, from the tournament's `standings` (their crosstable).
/// `bots`: every bot of the tournament, in file order.
pub fn grade(
    standings: &Standings,
    bots: &[String],
    candidates: &[String],
    marks: &BTreeMap<String, f64>,
) -> GradeReport {
    let mut grades = Vec::new();
    let mut verdicts = Vec::new();
    for candidate in candidates {
        let mut failed = Vec::new();
        for (opponent, &mark) in marks {
            let (chips_per_hand, hands, estimate, ci, blocks) =
                match standings.cross(candidate, opponent) {
                    Some(e) => (
                        e.chips_per_hand,
                        e.hands,
                        e.edge_per_hand,
                        e.ci.map(positive_zero),
                        e.blocks,
                    ),
                    None => (0.0, 0, 0.0, None, 0),
                };
            let (pass, reason) = if blocks == 0 {
                (false, "never played this reference bot".to_string())
            } else {
                decide(estimate, ci, mark)
            };
            if !pass {
                failed.push(opponent.clone());
            }
            grades.push(Grade {
                candidate: candidate.clone(),
                opponent: opponent.clone(),
                chips_per_hand,
                hands,
                mark,
                pass,
                estimate,
                lower: ci.map(|c| c.low),
                upper: ci.map(|c| c.high),
                blocks,
                reason,
            });
        }
        let verdict = if failed.is_empty() {
            format!("PASS (all {} references)", marks.len())
        } else {
            format!("FAIL (against {})", failed.join(", "))
        };
        verdicts.push(Verdict {
            candidate: candidate.clone(),
            passes_all: failed.is_empty(),
            failed,
            verdict,
        });
    }
    GradeReport {
        confidence: standings::stats::CONFIDENCE,
        rule: RULE.to_string(),
        caveat: CAVEAT.to_string(),
        grades,
        verdicts,
        gauntlet: gauntlet_standings(standings, bots, candidates),
    }
}

/// The interval with −0.0 turned into 0.0 (a mirror's negated `[0, 0]`), so it prints `+0.000`.
fn positive_zero(ci: Interval) -> Interval {
    Interval {
        low: ci.low + 0.0,
        high: ci.high + 0.0,
    }
}

fn interval_text(lower: Option<f64>, upper: Option<f64>) -> String {
    match (lower, upper) {
        (Some(l), Some(u)) => format!("[{l:+.3}, {u:+.3}]"),
        _ => "unbounded".to_string(),
    }
}

/// The gauntlet ranking and the grades as text (for `arena tournament` and `arena standings`).
pub fn render(report: &GradeReport, with_grades: bool) -> String {
    let mut out = String::new();
    let g = &report.gauntlet;
    let _ = writeln!(
        out,
        "Gauntlet: {} candidate(s) against {} reference bots; row: the candidate's edge over each \
         reference, chips/hand, with its 95% interval over duplicate blocks",
        g.candidates.len(),
        g.field.len()
    );
    for row in &g.candidates {
        let _ = writeln!(
            out,
            "  {:>2}. {:<20} mean edge {:+8.3}",
            row.rank, row.candidate, row.mean_edge
        );
        for e in &row.edges {
            let ci = match e.ci {
                Some(ci) => format!("[{:+.3}, {:+.3}]", ci.low, ci.high),
                None if e.blocks == 0 => "never met".to_string(),
                None => "unbounded".to_string(),
            };
            let _ = writeln!(
                out,
                "      vs {:<20} {:+8.3}  {ci}  ({} blocks)",
                e.opponent, e.edge_per_hand, e.blocks
            );
        }
    }
    let _ = writeln!(out, "{}", g.note);
    if with_grades {
        let _ = writeln!(out, "\nGrades: a candidate {}.", report.rule);
        for grade in &report.grades {
            let _ = writeln!(
                out,
                "  {:<20} vs {:<20} {:+8.3}  95% CI {:<18}  mark {:+.3}  {} blocks  {}",
                grade.candidate,
                grade.opponent,
                grade.estimate,
                interval_text(grade.lower, grade.upper),
                grade.mark,
                grade.blocks,
                if grade.pass { "PASS" } else { "FAIL" }
            );
        }
        for v in &report.verdicts {
            let _ = writeln!(out, "  {}: {}", v.candidate, v.verdict);
        }
        let _ = writeln!(out, "Caveat: {}.", report.caveat);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ci(low: f64, high: f64) -> Option<Interval> {
        Some(Interval { low, high })
    }

    #[test]
    fn only_a_lower_end_strictly_above_the_mark_passes() {
        assert!(decide(1.0, ci(0.1, 1.9), 0.0).0);
        assert!(!decide(1.0, ci(-0.1, 2.1), 0.0).0);
        // A mirror: zero width at exactly the mark is not above it.
        let (pass, reason) = decide(0.0, ci(0.0, 0.0), 0.0);
        assert!(!pass);
        assert!(reason.contains("mirror"), "{reason}");
        // A mark below zero: a mirror is above it.
        assert!(decide(0.0, ci(0.0, 0.0), -0.5).0);
        // One block: unbounded, fails whatever the estimate.
        assert!(!decide(5.0, None, 0.0).0);
        assert!(decide(-3.0, ci(-4.0, -2.0), -5.0).0);
        assert!(!decide(-3.0, ci(-5.0, -1.0), -5.0).0);
    }
}
