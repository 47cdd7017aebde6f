//! The contest file's `[assignment]` section: a class's graded assignment. Every upload is
//! graded against the reference bots (kept on the server: their sources are read at start
//! and never served), each with a mark and its reason, until a deadline.
//!
//! ```toml
//! [assignment]
//! deadline = 2026-12-10T23:59:00Z   # a TOML date-time with its offset
//! late_hours = 24                   # uploads this long after the deadline are graded, late
//! late_penalty = 0.2                # a late grade loses this share
//! counted = "latest"                # or "best": which graded upload counts
//! hands = 100                       # per match; a block is both seat orders of one deal
//! min_blocks = 5                    # the first look at the verdicts
//! max_blocks = 40                   # the hand cap: 2 x hands x max_blocks per reference
//! confidence = 0.95
//! copy_threshold = 0.9              # share of identical decisions that flags two bots
//! copy_blocks = 2                   # blocks per reference on the copy check's shared deals
//!
//! [[assignment.reference]]
//! name = "random"
//! source = "references/random_bot.py"   # a file or a folder, relative to this file
//! files = ["references/teenpatti.py"]    # more files beside it (optional)
//! language = "python"
//! mark = 0.5
//! why = "beats random by at least half a chip per hand"
//! ```

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;
use toml::value::Datetime;

use super::Language;
use crate::ladder::submissions::valid_bot_name;

/// Which of a student's graded uploads counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// The last upload made before the late window closed (a broken one included).
    Latest,
    /// The upload with the best grade.
    Best,
}

impl Counted {
    pub fn as_str(self) -> &'static str {
        match self {
            Counted::Latest => "latest",
            Counted::Best => "best",
        }
    }
}

/// A reference bot: a student's upload is graded against it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    /// Its bot name (a bot of the hidden reference account).
    pub name: String,
    /// Its source file or folder on the server (resolved from the contest file's folder).
    pub source: PathBuf,
    /// More files put beside it (a helper module), by their file names.
    pub files: Vec<PathBuf>,
    pub language: Language,
    /// A student passes against this bot when its edge (chips per hand) is above the mark
    /// with the assignment's confidence.
    pub mark: f64,
    /// What the mark means, in the teacher's words (shown to students).
    pub why: String,
}

/// A checked `[assignment]` section.
#[derive(Clone, Debug, PartialEq)]
pub struct AssignmentPolicy {
    pub references: Vec<Reference>,
    /// Hands per match (a block is two matches: both seat orders of the same deals).
    pub hands: u64,
    /// Blocks played before the first look at a verdict.
    pub min_blocks: u64,
    /// The hand cap, in blocks: past it an unsettled verdict stays "not settled".
    pub max_blocks: u64,
    /// The chance that a settled verdict is right, over all the looks together.
    pub confidence: f64,
    /// Milliseconds since the Unix epoch.
    pub deadline_ms: i64,
    /// Uploads up to this long after the deadline are graded and flagged late.
    pub late_ms: i64,
    /// The share of a late grade taken off (0 to 1).
    pub late_penalty: f64,
    pub counted: Counted,
    /// Two bots whose decisions on the same deals agree at least this often are listed.
    pub copy_threshold: f64,
    /// Copy probes per reference: blocks on deals every upload meets, played once its
    /// grades are settled, to compare students' decisions (0: no comparison between
    /// students by play).
    pub copy_blocks: u64,
}

impl AssignmentPolicy {
    /// Uploads made after this are refused (and never graded).
    pub fn closes_at_ms(&self) -> i64 {
        self.deadline_ms.saturating_add(self.late_ms)
    }

    pub fn reference(&self, name: &str) -> Option<&Reference> {
        self.references.iter().find(|r| r.name == name)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAssignment {
    deadline: Option<Spanned<Datetime>>,
    late_hours: Option<Spanned<f64>>,
    late_penalty: Option<Spanned<f64>>,
    counted: Option<Spanned<String>>,
    hands: Option<Spanned<u64>>,
    min_blocks: Option<Spanned<u64>>,
    max_blocks: Option<Spanned<u64>>,
    confidence: Option<Spanned<f64>>,
    copy_threshold: Option<Spanned<f64>>,
    copy_blocks: Option<Spanned<u64>>,
    #[serde(default)]
    reference: Vec<Spanned<RawReference>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReference {
    name: Spanned<String>,
    source: Spanned<String>,
    #[serde(default)]
    files: Vec<String>,
    language: Spanned<String>,
    mark: Spanned<f64>,
    why: Option<String>,
}

/// An error in the section: where, which field, what.
pub(super) type FieldError = (Option<Range<usize>>, String, String);

fn at<T>(s: &Spanned<T>, field: &str, message: String) -> FieldError {
    (Some(s.span()), format!("assignment.{field}"), message)
}

impl RawAssignment {
    /// The checked section; `base` resolves the references' sources.
    pub(super) fn check(
        &self,
        base: &Path,
        languages: &[Language],
        span: Range<usize>,
    ) -> Result<AssignmentPolicy, FieldError> {
        let deadline = self.deadline.as_ref().ok_or((
            Some(span.clone()),
            "assignment.deadline".to_string(),
            "an assignment needs a deadline, e.g. deadline = 2026-12-10T23:59:00Z".to_string(),
        ))?;
        let deadline_ms = epoch_ms(deadline.get_ref()).ok_or_else(|| {
            at(
                deadline,
                "deadline",
                "a date and a time with its offset, e.g. 2026-12-10T23:59:00Z or 2026-12-10T23:59:00+01:00".into(),
            )
        })?;
        let fraction = |v: &Option<Spanned<f64>>, field: &str, default: f64, lo: f64, hi: f64| {
            let Some(v) = v else { return Ok(default) };
            let x = *v.get_ref();
            if x.is_finite() && (lo..=hi).contains(&x) {
                Ok(x)
            } else {
                Err(at(v, field, format!("{x} is out of range: {lo} to {hi}")))
            }
        };
        let count = |v: &Option<Spanned<u64>>, field: &str, default: u64, lo: u64, hi: u64| {
            let Some(v) = v else { return Ok(default) };
            let n = *v.get_ref();
            if (lo..=hi).contains(&n) {
                Ok(n)
            } else {
                Err(at(v, field, format!("{n} is out of range: {lo} to {hi}")))
            }
        };
        let late_hours = fraction(&self.late_hours, "late_hours", 0.0, 0.0, 24.0 * 365.0)?;
        let min_blocks = count(&self.min_blocks, "min_blocks", 5, 2, 10_000)?;
        let max_blocks = count(&self.max_blocks, "max_blocks", 40, 2, 10_000)?;
        if max_blocks < min_blocks {
            let v = self.max_blocks.as_ref().or(self.min_blocks.as_ref());
            return Err((
                v.map(|v| v.span()),
                "assignment.max_blocks".into(),
                format!("{max_blocks} is below min_blocks = {min_blocks}"),
            ));
        }
        let counted = match &self.counted {
            None => Counted::Latest,
            Some(c) => match c.get_ref().as_str() {
                "latest" => Counted::Latest,
                "best" => Counted::Best,
                other => {
                    return Err(at(
                        c,
                        "counted",
                        format!("unknown {other:?}; expected latest or best"),
                    ));
                }
            },
        };
        let mut references: Vec<Reference> = Vec::new();
        for r in &self.reference {
            let raw = r.get_ref();
            let name = raw.name.get_ref();
            if !valid_bot_name(name) {
                return Err(at(
                    &raw.name,
                    "reference.name",
                    format!("{name:?} is not a bot name (1 to 32 of A-Z, a-z, 0-9, _ . -)"),
                ));
            }
            if references.iter().any(|o| &o.name == name) {
                return Err(at(
                    &raw.name,
                    "reference.name",
                    format!("{name:?} is listed twice"),
                ));
            }
            let language = Language::parse(raw.language.get_ref())
                .filter(|l| languages.contains(l))
                .ok_or_else(|| {
                    let offered: Vec<&str> = languages.iter().map(|l| l.as_str()).collect();
                    at(
                        &raw.language,
                        "reference.language",
                        format!(
                            "{:?} is not one of the contest's languages ({})",
                            raw.language.get_ref(),
                            offered.join(", ")
                        ),
                    )
                })?;
            let mark = *raw.mark.get_ref();
            if !mark.is_finite() {
                return Err(at(&raw.mark, "reference.mark", "a finite number".into()));
            }
            references.push(Reference {
                name: name.clone(),
                source: base.join(raw.source.get_ref()),
                files: raw.files.iter().map(|f| base.join(f)).collect(),
                language,
                mark,
                why: raw.why.clone().unwrap_or_default(),
            });
        }
        if references.is_empty() {
            return Err((
                Some(span),
                "assignment.reference".into(),
                "an assignment grades against at least one [[assignment.reference]]".into(),
            ));
        }
        Ok(AssignmentPolicy {
            references,
            hands: count(&self.hands, "hands", 100, 1, 100_000)?,
            min_blocks,
            max_blocks,
            confidence: fraction(&self.confidence, "confidence", 0.95, 0.5, 0.9999)?,
            deadline_ms,
            late_ms: (late_hours * 3_600_000.0).round() as i64,
            late_penalty: fraction(&self.late_penalty, "late_penalty", 0.0, 0.0, 1.0)?,
            counted,
            copy_threshold: fraction(&self.copy_threshold, "copy_threshold", 0.9, 0.5, 1.0)?,
            copy_blocks: count(&self.copy_blocks, "copy_blocks", 2, 0, 100)?,
        })
    }
}

/// A TOML offset date-time as milliseconds since the Unix epoch; `None` without a date, a
/// time or an offset (a local time would mean something else on every server).
pub fn epoch_ms(d: &Datetime) -> Option<i64> {
    let (date, time, offset) = (d.date?, d.time?, d.offset?);
    let days =
        crate::clock::days_from_civil(i64::from(date.year), date.month.into(), date.day.into());
    let seconds = i64::from(time.hour) * 3600
        + i64::from(time.minute) * 60
        + i64::from(time.second.unwrap_or(0));
    let offset_minutes = match offset {
        toml::value::Offset::Z => 0,
        toml::value::Offset::Custom { minutes } => i64::from(minutes),
    };
    let ms = (days * 86_400 + seconds - offset_minutes * 60) * 1000
        + i64::from(time.nanosecond.unwrap_or(0) / 1_000_000);
    Some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn datetime(text: &str) -> Datetime {
        text.parse().unwrap()
    }

    #[test]
    fn deadlines_are_read_with_their_offset() {
        assert_eq!(epoch_ms(&datetime("1970-01-01T00:00:00Z")), Some(0));
        assert_eq!(
            epoch_ms(&datetime("2026-12-10T23:59:00Z")),
            Some(1_796_947_140_000)
        );
        // One hour east of UTC is an hour earlier.
        assert_eq!(
            epoch_ms(&datetime("2026-12-11T00:59:00+01:00")),
            Some(1_796_947_140_000)
        );
        assert_eq!(epoch_ms(&datetime("2026-12-10T23:59:00")), None);
        assert_eq!(epoch_ms(&datetime("2026-12-10")), None);
        assert_eq!(
            crate::clock::utc_text(1_796_947_140_000),
            "2026-12-10 23:59 UTC"
        );
        assert_eq!(crate::clock::utc_text(0), "1970-01-01 00:00 UTC");
        assert_eq!(
            crate::clock::utc_text(951_782_400_000),
            "2000-02-29 00:00 UTC"
        );
    }
}
