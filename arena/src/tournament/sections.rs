//! The `[table]`, `[time]` and `[limits]` sections and the `sandbox` key of a tournament file,
//! public so that other files describing matches (the contest server's contest file) read them
//! the same way, with the same defaults and checks.

use std::ops::Range;

use protocol::{SequenceOrder, Settings, TimeLimits, Variant};
use sandbox::{Limits, SandboxLevel};
use serde::Deserialize;
use toml::Spanned;

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
                        message: message.to_string(),
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
    pub startup_ms: Option<Spanned<u64>>,
    pub decision_ms: Option<Spanned<u64>>,
    pub bank_ms: Option<Spanned<u64>>,
}

/// `value`, or `default` when absent; 0 is refused (no time to start, no memory, no
/// processes): named here rather than failing every match.
fn positive(value: &Option<Spanned<u64>>, field: &str, default: u64) -> Result<u64, SectionError> {
    match value {
        None => Ok(default),
        Some(v) if *v.get_ref() == 0 => Err(SectionError {
            span: Some(v.span()),
            field: field.into(),
            message: "must be at least 1".into(),
        }),
        Some(v) => Ok(*v.get_ref()),
    }
}

impl TimeSection {
    /// The time limits, the referee's defaults where the section is silent. A decision time
    /// of 0 is allowed when the bank pays for every decision, not when both are 0.
    pub fn time(&self) -> Result<TimeLimits, SectionError> {
        let defaults = crate::referee::MatchConfig::DEFAULT_TIME;
        let value =
            |v: &Option<Spanned<u64>>, default| v.as_ref().map_or(default, |v| *v.get_ref());
        let time = TimeLimits {
            startup_ms: positive(&self.startup_ms, "time.startup_ms", defaults.startup_ms)?,
            decision_ms: value(&self.decision_ms, defaults.decision_ms),
            bank_ms: value(&self.bank_ms, defaults.bank_ms),
        };
        if time.decision_ms == 0 && time.bank_ms == 0 {
            return Err(SectionError {
                span: self.decision_ms.as_ref().map(|v| v.span()),
                field: "time.decision_ms".into(),
                message: "is 0 and so is time.bank_ms: no bot could ever answer in time".into(),
            });
        }
        Ok(time)
    }
}

/// `[limits]`: a bot process's resources, and the size of its stderr log.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSection {
    pub memory_mb: Option<Spanned<u64>>,
    pub cpu_seconds: Option<Spanned<u64>>,
    /// CPUs per bot: an integer or a fraction (`cpus = 0.5`).
    pub cpus: Option<Spanned<f64>>,
    pub file_size_mb: Option<Spanned<u64>>,
    pub open_files: Option<Spanned<u64>>,
    pub processes: Option<Spanned<u64>>,
    pub disk_mb: Option<Spanned<u64>>,
    pub max_log_kb: Option<Spanned<u64>>,
}

impl LimitsSection {
    /// The limits, with a tournament's defaults where the section is silent.
    pub fn limits(&self) -> Result<Limits, SectionError> {
        Ok(Limits {
            cpu_seconds: Some(positive(&self.cpu_seconds, "limits.cpu_seconds", 600)?),
            memory_bytes: Some(positive(&self.memory_mb, "limits.memory_mb", 2048)? << 20),
            file_size_bytes: Some(positive(&self.file_size_mb, "limits.file_size_mb", 64)? << 20),
            open_files: Some(positive(&self.open_files, "limits.open_files", 256)?),
            processes: Some(positive(&self.processes, "limits.processes", 256)?),
            disk_bytes: Some(positive(&self.disk_mb, "limits.disk_mb", 256)? << 20),
            millicpus: Some(self.millicpus()?),
        })
    }

    /// `cpus` in thousandths of a CPU; one CPU where the section is silent.
    fn millicpus(&self) -> Result<u64, SectionError> {
        match &self.cpus {
            None => Ok(sandbox::DEFAULT_MILLICPUS),
            Some(v) => sandbox::millicpus(*v.get_ref()).map_err(|e| SectionError {
                span: Some(v.span()),
                field: "limits.cpus".into(),
                message: e.to_string(),
            }),
        }
    }

    /// The largest stderr log per bot process, in KiB.
    pub fn max_log_kb(&self) -> Result<u64, SectionError> {
        positive(
            &self.max_log_kb,
            "limits.max_log_kb",
            crate::bot_command::DEFAULT_MAX_LOG_KB,
        )
    }
}

/// The `sandbox` key: `none`, `limits` or `bwrap`; absent, the strongest this machine offers.
pub fn sandbox_level(key: Option<&Spanned<String>>) -> Result<SandboxLevel, SectionError> {
    let Some(s) = key else {
        return Ok(sandbox::default_level());
    };
    match s.get_ref().as_str() {
        "none" => Ok(SandboxLevel::None),
        "limits" => Ok(SandboxLevel::Limits),
        "bwrap" => Ok(SandboxLevel::Bwrap),
        other => Err(SectionError {
            span: Some(s.span()),
            field: "sandbox".into(),
            message: format!(
                "unknown sandbox {}; expected none, limits or bwrap",
                crate::console::quote::quoted(other)
            ),
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
