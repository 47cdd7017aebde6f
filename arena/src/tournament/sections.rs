//! The `[table]`, `[time]` and `[limits]` sections and the `sandbox` key of a tournament file,
//! public so that other files describing matches (the contest server's contest file) read them
//! the same way, with the same defaults and checks.

use std::ops::Range;

use protocol::{SequenceOrder, Settings, TimeLimits, Variant};
use serde::Deserialize;
use toml::Spanned;

use crate::bot::{Limits, SandboxLevel};

/// A mistake in one of these sections: where (a byte range of the file, when known), which
/// field (as written in the file, e.g. `table.boot`) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionError {
    pub span: Option<Range<usize>>,
    pub field: String,
    pub message: String,
}

/// `[table]`: the house rules, over the variant's defaults.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSection {
    pub boot: Option<u64>,
    pub max_stake: Option<u64>,
    pub pot_limit: Option<u64>,
    pub sideshow: Option<bool>,
    pub sequence_order: Option<Spanned<String>>,
    pub blind_limit: Option<u32>,
    pub swap_cost: Option<u64>,
    pub max_turns: Option<u32>,
}

impl TableSection {
    /// The variant's settings with this section's choices, checked for `seats` seats
    /// (`seats_span` locates the `seats` key for a seat-count error).
    pub fn settings(
        &self,
        variant: Variant,
        seats: usize,
        seats_span: Option<Range<usize>>,
    ) -> Result<Settings, SectionError> {
        let mut settings = Settings::new(variant);
        settings.boot = self.boot.unwrap_or(settings.boot);
        settings.max_stake = self.max_stake.unwrap_or(settings.max_stake);
        settings.pot_limit = self.pot_limit.unwrap_or(settings.pot_limit);
        settings.sideshow = self.sideshow.unwrap_or(settings.sideshow);
        settings.blind_limit = self.blind_limit.unwrap_or(settings.blind_limit);
        settings.swap_cost = self.swap_cost.unwrap_or(settings.swap_cost);
        settings.max_turns = self.max_turns.unwrap_or(settings.max_turns);
        if let Some(order) = &self.sequence_order {
            settings.sequence_order =
                order
                    .get_ref()
                    .parse::<SequenceOrder>()
                    .map_err(|message| SectionError {
                        span: Some(order.span()),
                        field: "table.sequence_order".into(),
                        message,
                    })?;
        }
        settings.validate(seats).map_err(|e| {
            let field = match &e {
                rules::SettingsError::Field(name, _) => format!("table.{name}"),
                rules::SettingsError::Seats { .. } => "seats".to_string(),
            };
            SectionError {
                span: seats_span.clone(),
                field,
                message: e.to_string(),
            }
        })?;
        Ok(settings)
    }
}

/// `[time]`: startup, decision and bank times in milliseconds.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSection {
    pub startup_ms: Option<u64>,
    pub decision_ms: Option<u64>,
    pub bank_ms: Option<u64>,
}

impl TimeSection {
    /// The time limits, the referee's defaults where the section is silent.
    pub fn time(&self) -> TimeLimits {
        let defaults = crate::referee::MatchConfig::DEFAULT_TIME;
        TimeLimits {
            startup_ms: self.startup_ms.unwrap_or(defaults.startup_ms),
            decision_ms: self.decision_ms.unwrap_or(defaults.decision_ms),
            bank_ms: self.bank_ms.unwrap_or(defaults.bank_ms),
        }
    }
}

/// `[limits]`: a bot process's resources.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSection {
    pub memory_mb: Option<u64>,
    pub cpu_seconds: Option<u64>,
    pub file_size_mb: Option<u64>,
    pub open_files: Option<u64>,
    pub processes: Option<u64>,
    pub disk_mb: Option<u64>,
}

impl LimitsSection {
    /// The limits, with a tournament's defaults where the section is silent.
    pub fn limits(&self) -> Limits {
        Limits {
            cpu_seconds: Some(self.cpu_seconds.unwrap_or(600)),
            memory_bytes: Some(self.memory_mb.unwrap_or(2048) << 20),
            file_size_bytes: Some(self.file_size_mb.unwrap_or(64) << 20),
            open_files: Some(self.open_files.unwrap_or(256)),
            processes: Some(self.processes.unwrap_or(256)),
            disk_bytes: Some(self.disk_mb.unwrap_or(256) << 20),
        }
    }
}

/// The `sandbox` key: `none`, `limits` or `bwrap`; absent, the strongest this machine offers.
pub fn sandbox_level(key: Option<&Spanned<String>>) -> Result<SandboxLevel, SectionError> {
    let Some(s) = key else {
        return Ok(crate::bot::default_level());
    };
    match s.get_ref().as_str() {
        "none" => Ok(SandboxLevel::None),
        "limits" => Ok(SandboxLevel::Limits),
        "bwrap" => Ok(SandboxLevel::Bwrap),
        other => Err(SectionError {
            span: Some(s.span()),
            field: "sandbox".into(),
            message: format!("unknown sandbox {other:?}; expected none, limits or bwrap"),
        }),
    }
}

/// The 1-based line of a byte offset of `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}
