//! Tournament files (TOML): parsing and validation with errors that name the file, the line
//! and the field.
//!
//! Paths in a tournament file (bot commands, bot working directories) are relative to the
//! directory of the file, so a file works from any current directory; a bot's command is
//! relative to its `workdir` when it has one (`bot_command/paths.rs` says which words are
//! paths). The output directory is relative to the current directory (where a user expects
//! results), and `--out` overrides it.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use protocol::{Settings, TimeLimits, Variant};
use sandbox::{Limits, SandboxLevel};
use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::command::RawCommand;
use super::page_cache::PageCache;
use super::sections::{self, LimitsSection, SectionError, TableSection, TimeSection, line_of};
use crate::bot_command::PathBase;
pub use crate::standings::sprt::{SprtConfig, SprtEstimator};

/// A mistake in a tournament file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// The format of a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every group of `seats` bots plays (every pair for two seats).
    RoundRobin,
    /// Each candidate plays every group of the field.
    Gauntlet,
    /// Two bots, head to head, until a sequential test decides which is better.
    Sprt,
}

/// Where the seed in each bot's hello comes from (`bot_seeds` in a tournament file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BotSeeds {
    /// From the match's deal seed and the seat (the default): in a duplicate block every
    /// match deals alike, so the bot in seat 0 gets the same seed in every seat order. A
    /// program against a copy of itself is then a perfect mirror: the two seat orders play
    /// the same hands move for move and its edge is exactly 0 (whatever its randomness).
    #[default]
    PerSeat,
    /// A fresh seed for every match and every seat, derived one-way from the tournament seed
    /// and (match index, seat) ([`crate::referee::seeds::MATCH_BOT_SEED`]): a randomized program
    /// against itself is no longer a mirror, which A/A tests need. Still deterministic from
    /// the tournament seed, so replays and resumes play alike.
    Independent,
}

impl BotSeeds {
    fn is_default(&self) -> bool {
        *self == BotSeeds::PerSeat
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: Option<String>,
    game: Spanned<String>,
    format: Option<Spanned<String>>,
    seats: Option<Spanned<usize>>,
    hands: Option<Spanned<u64>>,
    seed: Option<u64>,
    rounds: Option<Spanned<u64>>,
    duplicate: Option<bool>,
    output: Option<String>,
    sandbox: Option<Spanned<String>>,
    max_restarts: Option<u32>,
    replay_stderr: Option<bool>,
    replay_stderr_kb: Option<Spanned<u64>>,
    candidates: Option<Spanned<Vec<String>>>,
    bot_seeds: Option<Spanned<String>>,
    page_cache: Option<Spanned<String>>,
    #[serde(default)]
    table: TableSection,
    #[serde(default)]
    time: TimeSection,
    #[serde(default)]
    limits: LimitsSection,
    sprt: Option<RawSprt>,
    #[serde(default)]
    grading: Option<Spanned<RawGrading>>,
    #[serde(default, rename = "bot")]
    bots: Vec<Spanned<RawBot>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSprt {
    /// H0: the candidate's edge is at most this (chips per hand).
    m0: f64,
    /// H1: the candidate's edge is at least this (chips per hand).
    m1: f64,
    alpha: Option<f64>,
    beta: Option<f64>,
    max_blocks: Option<Spanned<u64>>,
    /// No decision before this many duplicate blocks (default 20).
    min_blocks: Option<Spanned<u64>>,
    /// "luck-corrected" or "plain" (default: luck-corrected where the game supports it).
    estimator: Option<Spanned<String>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGrading {
    /// Pass marks: a candidate passes when its chips per hand against this field bot is at
    /// least the mark (e.g. `{ random = 0.0, passive = 0.0 }`).
    pass: BTreeMap<String, f64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBot {
    name: Spanned<String>,
    command: Spanned<RawCommand>,
    workdir: Option<Spanned<String>>,
    author: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
}

/// A bot of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotEntry {
    pub name: String,
    /// Line of the `[[bot]]` entry in the file (for error messages; not part of the identity).
    #[serde(skip)]
    pub line: usize,
    /// The command as written in the file (an array of arguments is joined, each quoted as
    /// a shell would need).
    pub command: String,
    /// The command split, with paths made absolute.
    pub argv: Vec<String>,
    /// Where the bot runs; `None`: a fresh private directory per match.
    pub workdir: Option<PathBuf>,
    pub env: BTreeMap<String, String>,
    /// Who wrote it: a round-robin or gauntlet never seats two bots of one author at one
    /// table, where they could play as a team (pass each other chips, or their cards
    /// through what the machine shares). Left out of plan.json when absent, so that files
    /// without authors keep their fingerprints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
}

/// A checked tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    /// The file it was read from (not part of the identity).
    #[serde(skip)]
    pub file: PathBuf,
    /// The folder the bots' relative paths were taken from, canonical: the file's (not part
    /// of the identity either).
    #[serde(skip)]
    pub paths_from: PathBuf,
    pub name: String,
    pub format: Format,
    pub settings: Settings,
    pub seats: usize,
    pub hands: u64,
    /// The tournament seed: every block's deal seed derives from it. `None` only between
    /// reading a file without `seed` and opening the output directory, which settles it
    /// (see [`Tournament::settle_seed`]); use [`Tournament::seed`].
    pub seed: Option<u64>,
    /// The file names no seed, so it was drawn from the operating system when the output
    /// directory was started and is recorded in its plan.json: a resume takes that one, and
    /// shards (which must share one seed) refuse to run. Not serialized when false, so that
    /// plans and fingerprints of files with a seed stay as they were.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seed_drawn: bool,
    pub rounds: u64,
    pub duplicate: bool,
    pub output: PathBuf,
    pub sandbox: SandboxLevel,
    pub limits: Limits,
    pub time: TimeLimits,
    pub max_restarts: u32,
    pub bots: Vec<BotEntry>,
    /// Gauntlet: the bots under test (the others are the field).
    pub candidates: Vec<String>,
    pub sprt: Option<SprtConfig>,
    /// Gauntlet: pass marks per field bot (chips per hand).
    pub pass_marks: BTreeMap<String, f64>,
    /// Where the bots' hello seeds come from. Not serialized when per-seat (the default), so
    /// that plans and fingerprints of older files stay as they were.
    #[serde(default, skip_serializing_if = "BotSeeds::is_default")]
    pub bot_seeds: BotSeeds,
    /// The largest stderr log per bot process (KiB; `[limits] max_log_kb`, or
    /// `--max-log-kb`). Not serialized: it decides no result, so changing it never stops a
    /// resume.
    #[serde(skip, default = "default_max_log_kb")]
    pub max_log_kb: u64,
    /// `replay_stderr = true`: each replay also records the stderr lines of every decision
    /// (`MatchConfig::decision_stderr`). Off by default: replays are often published and the
    /// lines may reveal a bot's thinking. Not serialized: it decides no result.
    #[serde(skip)]
    pub replay_stderr: bool,
    /// `replay_stderr_kb`: with `replay_stderr`, at most this many KiB of those lines per bot
    /// and match. Not serialized either.
    #[serde(skip, default = "default_replay_stderr_kb")]
    pub replay_stderr_kb: u64,
    /// `page_cache = "drop"`: the machine's page cache is emptied between the matches of a
    /// duplicate block (`page_cache.rs`). Not serialized: it decides no result.
    #[serde(skip)]
    pub page_cache: PageCache,
}

fn default_replay_stderr_kb() -> u64 {
    (sandbox::SEAT_BUDGET_BYTES / 1024) as u64
}

fn default_max_log_kb() -> u64 {
    crate::bot_command::DEFAULT_MAX_LOG_KB
}

impl Tournament {
    /// Where `bot`'s relative paths were taken from: its `workdir`, else the file's folder.
    pub fn paths_of<'a>(&'a self, bot: &'a BotEntry) -> PathBase<'a> {
        match &bot.workdir {
            Some(dir) => PathBase::workdir(dir),
            None => PathBase::tournament_file(&self.paths_from),
        }
    }

    /// Reads and checks a tournament file.
    pub fn load(path: &Path) -> Result<Tournament, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: path.to_path_buf(),
            line: None,
            field: None,
            message: format!("cannot read the file: {e}"),
        })?;
        let base = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let base = if base.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            base
        };
        Tournament::parse(&text, path, &base)
    }

    /// Parses the text of a tournament file. `base` resolves relative bot paths.
    pub fn parse(text: &str, file: &Path, base: &Path) -> Result<Tournament, ConfigError> {
        let err = |span: Option<Range<usize>>, field: Option<&str>, message: String| ConfigError {
            file: file.to_path_buf(),
            line: span.map(|s| line_of(text, s.start)),
            field: field.map(str::to_string),
            message,
        };
        let raw: RawFile = toml::from_str(text).map_err(|e| {
            let (span, field, message) = super::toml_error::describe(e);
            err(span, field.as_deref(), message)
        })?;
        let base = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());

        let variant: Variant = raw
            .game
            .get_ref()
            .parse()
            .map_err(|e: rules::UnknownVariant| {
                err(Some(raw.game.span()), Some("game"), e.to_string())
            })?;
        let format = match &raw.format {
            None => Format::RoundRobin,
            Some(f) => match f.get_ref().as_str() {
                "round-robin" => Format::RoundRobin,
                "gauntlet" => Format::Gauntlet,
                "sprt" => Format::Sprt,
                other => {
                    return Err(err(
                        Some(f.span()),
                        Some("format"),
                        format!(
                            "unknown format {}; expected round-robin, gauntlet or sprt",
                            crate::console::quote::quoted(other)
                        ),
                    ));
                }
            },
        };
        let seats = raw.seats.as_ref().map(|s| *s.get_ref()).unwrap_or(2);
        let seats_span = raw.seats.as_ref().map(|s| s.span());
        let section_err = |e: SectionError| err(e.span, Some(&e.field), e.message);
        let settings = raw
            .table
            .settings(variant, seats, seats_span)
            .map_err(section_err)?;
        let hands = raw.hands.as_ref().map(|h| *h.get_ref()).unwrap_or(100);
        if hands == 0 {
            return Err(err(
                raw.hands.as_ref().map(|h| h.span()),
                Some("hands"),
                "must be at least 1".into(),
            ));
        }
        let rounds = raw.rounds.as_ref().map(|r| *r.get_ref()).unwrap_or(1);
        if rounds == 0 {
            return Err(err(
                raw.rounds.as_ref().map(|r| r.span()),
                Some("rounds"),
                "must be at least 1".into(),
            ));
        }
        let sandbox = sections::sandbox_level(raw.sandbox.as_ref()).map_err(section_err)?;
        let time = raw.time.time().map_err(section_err)?;
        let limits = raw.limits.limits().map_err(section_err)?;
        let max_log_kb = raw.limits.max_log_kb().map_err(section_err)?;
        let replay_stderr_kb = match &raw.replay_stderr_kb {
            None => default_replay_stderr_kb(),
            Some(kb) if *kb.get_ref() == 0 => {
                return Err(err(
                    Some(kb.span()),
                    Some("replay_stderr_kb"),
                    "must be at least 1".into(),
                ));
            }
            Some(kb) => *kb.get_ref(),
        };

        let mut bots: Vec<BotEntry> = Vec::new();
        for bot in &raw.bots {
            let b = bot.get_ref();
            let name = b.name.get_ref().trim().to_string();
            if name.is_empty() || name.len() > 64 || name.chars().any(char::is_control) {
                return Err(err(
                    Some(b.name.span()),
                    Some("bot.name"),
                    "a name of 1 to 64 printable characters".into(),
                ));
            }
            if bots.iter().any(|other| other.name == name) {
                return Err(err(
                    Some(b.name.span()),
                    Some("bot.name"),
                    format!(
                        "two bots are named {}",
                        crate::console::quote::quoted(&name)
                    ),
                ));
            }
            let (argv, command) = b
                .command
                .get_ref()
                .argv()
                .map_err(|m| err(Some(b.command.span()), Some("bot.command"), m))?;
            let workdir = match &b.workdir {
                Some(dir) => {
                    let path = base.join(dir.get_ref());
                    if !path.is_dir() {
                        return Err(err(
                            Some(dir.span()),
                            Some("bot.workdir"),
                            format!("{} is not a directory", path.display()),
                        ));
                    }
                    Some(path)
                }
                None => None,
            };
            let paths_from = match &workdir {
                Some(dir) => PathBase::workdir(dir),
                None => PathBase::tournament_file(&base),
            };
            if let Some(problem) = crate::bot_command::missing_path(&argv, &paths_from)
                .or_else(|| unrunnable_program(&argv[0], paths_from.dir))
            {
                return Err(err(Some(b.command.span()), Some("bot.command"), problem));
            }
            let argv = crate::bot_command::absolutize(&argv, paths_from.dir);
            bots.push(BotEntry {
                line: line_of(text, bot.span().start),
                name,
                command,
                argv,
                workdir,
                env: b.env.clone(),
                author: b.author.clone(),
            });
        }
        let bots_span = raw.bots.first().map(|b| b.span());
        let candidates: Vec<String> = raw
            .candidates
            .as_ref()
            .map(|c| c.get_ref().clone())
            .unwrap_or_default();
        let candidates_span = raw.candidates.as_ref().map(|c| c.span());
        for c in &candidates {
            if !bots.iter().any(|b| &b.name == c) {
                return Err(err(
                    candidates_span.clone(),
                    Some("candidates"),
                    format!(
                        "{} is not the name of a [[bot]]",
                        crate::console::quote::quoted(c)
                    ),
                ));
            }
        }
        match format {
            Format::RoundRobin => {
                if bots.len() < seats {
                    return Err(err(
                        bots_span,
                        Some("bot"),
                        format!(
                            "a {seats}-seat round-robin needs at least {seats} bots, the file has {}",
                            bots.len()
                        ),
                    ));
                }
            }
            Format::Gauntlet => {
                if candidates.is_empty() {
                    return Err(err(
                        raw.format.as_ref().map(|f| f.span()),
                        Some("candidates"),
                        "a gauntlet names its candidates, e.g. candidates = [\"mybot\"]".into(),
                    ));
                }
                let field = bots.len() - candidates.len();
                if field < seats - 1 {
                    return Err(err(
                        candidates_span,
                        Some("candidates"),
                        format!(
                            "a {seats}-seat gauntlet needs at least {} field bots besides the candidates, the file has {field}",
                            seats - 1
                        ),
                    ));
                }
            }
            Format::Sprt => {
                if bots.len() != 2 || seats != 2 {
                    return Err(err(
                        bots_span,
                        Some("bot"),
                        "an sprt tournament has exactly two bots at a two-seat table (the first is the candidate, the second the baseline)".into(),
                    ));
                }
            }
        }
        let sprt = match (&raw.sprt, format) {
            (Some(s), _) => {
                let alpha = s.alpha.unwrap_or(0.05);
                let beta = s.beta.unwrap_or(0.05);
                let valid = s.m1 > s.m0 && 0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5;
                if !valid {
                    return Err(err(
                        None,
                        Some("sprt"),
                        "needs m1 > m0 and 0 < alpha, beta < 0.5".into(),
                    ));
                }
                let min_blocks = s
                    .min_blocks
                    .as_ref()
                    .map(|m| *m.get_ref())
                    .unwrap_or(SprtConfig::DEFAULT_MIN_BLOCKS);
                if min_blocks < 2 {
                    return Err(err(
                        s.min_blocks.as_ref().map(|m| m.span()),
                        Some("sprt.min_blocks"),
                        format!(
                            "must be at least 2 (the test estimates a variance), got {min_blocks}"
                        ),
                    ));
                }
                let max_blocks = s
                    .max_blocks
                    .as_ref()
                    .map(|m| *m.get_ref())
                    .unwrap_or(10_000);
                if max_blocks < min_blocks {
                    return Err(err(
                        s.max_blocks.as_ref().map(|m| m.span()),
                        Some("sprt.max_blocks"),
                        format!(
                            "{max_blocks} is below min_blocks = {min_blocks}: the test takes no \
                             decision before min_blocks duplicate blocks, so it could never \
                             decide; raise max_blocks or lower min_blocks"
                        ),
                    ));
                }
                // The luck terms exist for every game, with two seats.
                let supported = seats == 2;
                let estimator = match s
                    .estimator
                    .as_ref()
                    .map(|e| (e.get_ref().as_str(), e.span()))
                {
                    None if supported => SprtEstimator::LuckCorrected,
                    None | Some(("plain", _)) => SprtEstimator::Plain,
                    Some(("luck-corrected", _)) if supported => SprtEstimator::LuckCorrected,
                    Some(("luck-corrected", span)) => {
                        return Err(err(
                            Some(span),
                            Some("sprt.estimator"),
                            format!(
                                "luck-corrected needs a two-seat table, not {seats} seats; use plain"
                            ),
                        ));
                    }
                    Some((other, span)) => {
                        return Err(err(
                            Some(span),
                            Some("sprt.estimator"),
                            format!(
                                "unknown estimator {}; expected luck-corrected or plain",
                                crate::console::quote::quoted(other)
                            ),
                        ));
                    }
                };
                Some(SprtConfig {
                    m0: s.m0,
                    m1: s.m1,
                    alpha,
                    beta,
                    max_blocks,
                    min_blocks,
                    estimator,
                })
            }
            (None, Format::Sprt) => {
                return Err(err(
                    raw.format.as_ref().map(|f| f.span()),
                    Some("sprt"),
                    "an sprt tournament needs a [sprt] table with m0 and m1 (chips per hand)"
                        .into(),
                ));
            }
            (None, _) => None,
        };
        let mut pass_marks = BTreeMap::new();
        if let Some(grading) = &raw.grading {
            for name in grading.get_ref().pass.keys() {
                if !bots.iter().any(|b| &b.name == name) || candidates.contains(name) {
                    return Err(err(
                        Some(grading.span()),
                        Some("grading.pass"),
                        format!(
                            "{} is not a field bot of this gauntlet",
                            crate::console::quote::quoted(name)
                        ),
                    ));
                }
            }
            pass_marks = grading.get_ref().pass.clone();
        }
        let bot_seeds = match &raw.bot_seeds {
            None => BotSeeds::PerSeat,
            Some(s) => match s.get_ref().as_str() {
                "per-seat" => BotSeeds::PerSeat,
                "independent" => BotSeeds::Independent,
                other => {
                    return Err(err(
                        Some(s.span()),
                        Some("bot_seeds"),
                        format!(
                            "unknown bot_seeds {}; expected per-seat or independent",
                            crate::console::quote::quoted(other)
                        ),
                    ));
                }
            },
        };
        let page_cache = match &raw.page_cache {
            None => PageCache::Shared,
            Some(s) => PageCache::parse(s.get_ref()).ok_or_else(|| {
                err(
                    Some(s.span()),
                    Some("page_cache"),
                    format!(
                        "unknown page_cache {}; expected shared or drop",
                        crate::console::quote::quoted(s.get_ref())
                    ),
                )
            })?,
        };
        let name = raw.name.clone().unwrap_or_else(|| {
            file.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "tournament".into())
        });
        let t = Tournament {
            file: file.to_path_buf(),
            paths_from: base,
            output: PathBuf::from(raw.output.clone().unwrap_or_else(|| format!("out/{name}"))),
            name,
            format,
            settings,
            seats,
            hands,
            seed: raw.seed,
            seed_drawn: raw.seed.is_none(),
            rounds,
            duplicate: raw.duplicate.unwrap_or(true),
            sandbox,
            limits,
            time,
            max_restarts: raw.max_restarts.unwrap_or(2),
            bots,
            candidates,
            sprt,
            pass_marks,
            bot_seeds,
            max_log_kb,
            replay_stderr: raw.replay_stderr.unwrap_or(false),
            replay_stderr_kb,
            page_cache,
        };
        if t.bots.iter().any(|b| b.author.is_some()) && super::schedule::groups(&t).is_empty() {
            return Err(err(
                bots_span,
                Some("bot.author"),
                "no table is left: every one would seat two bots of one author".into(),
            ));
        }
        Ok(t)
    }

    /// The tournament seed, once settled (by opening the output directory).
    pub fn seed(&self) -> u64 {
        self.seed
            .expect("the seed is settled when the output directory is opened")
    }

    /// Settles a seed the file does not give: the one `recorded` in an existing plan.json
    /// (a resume never draws another), else a fresh one from the operating system. A seed
    /// from the file (or already settled) stays.
    pub fn settle_seed(
        &mut self,
        recorded: Option<&Tournament>,
    ) -> Result<(), super::error::SettleSeedError> {
        if self.seed.is_some() {
            return Ok(());
        }
        self.seed = Some(match recorded {
            Some(plan) => plan
                .seed
                .ok_or(super::error::SettleSeedError::NotRecorded)?,
            None => crate::referee::seeds::from_os()?,
        });
        Ok(())
    }

    /// Whether this is an SPRT tournament scored by the luck-corrected estimator.
    pub fn is_luck_corrected_sprt(&self) -> bool {
        self.format == Format::Sprt
            && self
                .sprt
                .is_some_and(|s| s.estimator == SprtEstimator::LuckCorrected)
    }

    /// A fingerprint of everything that decides the matches' results (not the output place):
    /// resuming refuses a changed tournament. A drawn seed is left out (the file has none, so
    /// a resume matches before taking the recorded one).
    pub fn fingerprint(&self) -> String {
        let mut copy = self.clone();
        copy.output = PathBuf::new();
        if copy.seed_drawn {
            copy.seed = None;
        }
        let text = serde_json::to_string(&copy).expect("tournaments serialize");
        // FNV-1a, 64 bits: stable across versions and platforms, unlike std's hasher.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in text.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{hash:016x}")
    }
}

/// Why the program of a command cannot be run, if it cannot (a relative path that is not a
/// file is [`missing_path`](crate::bot_command::missing_path)'s).
fn unrunnable_program(program: &str, base: &Path) -> Option<String> {
    let path = Path::new(program);
    if path.components().count() > 1 || path.is_absolute() {
        let full = if path.is_absolute() {
            path.to_path_buf()
        } else {
            base.join(path)
        };
        if !full.is_file() {
            return Some(format!("program {} does not exist", full.display()));
        }
        let executable = std::fs::metadata(&full)
            .is_ok_and(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0);
        return (!executable).then(|| {
            format!(
                "program {} exists but is not executable; chmod +x it or run it through its \
                 interpreter",
                full.display()
            )
        });
    }
    let found = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
        .unwrap_or(false);
    (!found).then(|| {
        format!(
            "program {} is not on the PATH",
            crate::console::quote::quoted(program)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt_file(extra: &str) -> String {
        format!(
            "game = \"classic\"\nformat = \"sprt\"\n[sprt]\nm0 = 0.0\nm1 = 1.0\n{extra}\n\
             [[bot]]\nname = \"a\"\ncommand = \"sh\"\n[[bot]]\nname = \"b\"\ncommand = \"sh\"\n"
        )
    }

    fn parse(text: &str) -> Result<Tournament, ConfigError> {
        Tournament::parse(text, Path::new("t.toml"), Path::new("."))
    }

    #[test]
    fn every_game_defaults_to_the_luck_corrected_sprt() {
        for game in ["classic", "closest-555", "lallan-kallan"] {
            let text = sprt_file("").replace("\"classic\"", &format!("\"{game}\""));
            let t = parse(&text).unwrap();
            assert_eq!(
                t.sprt.unwrap().estimator,
                SprtEstimator::LuckCorrected,
                "{game}"
            );
        }
    }

    #[test]
    fn a_luck_corrected_estimator_on_a_larger_table_is_refused() {
        let bots: String = (0..6)
            .map(|i| format!("[[bot]]\nname = \"b{i}\"\ncommand = \"sh\"\n"))
            .collect();
        let text = format!(
            "game = \"lallan-kallan\"\nseats = 6\n[sprt]\nm0 = 0.0\nm1 = 1.0\n\
             estimator = \"luck-corrected\"\n{bots}"
        );
        let err = parse(&text).unwrap_err().to_string();
        assert!(
            err.contains("sprt.estimator") && err.contains("two-seat table"),
            "{err}"
        );
    }

    #[test]
    fn the_sprt_estimator_defaults_to_luck_corrected_and_old_plans_read_as_plain() {
        let t = parse(&sprt_file("")).unwrap();
        assert_eq!(t.sprt.unwrap().estimator, SprtEstimator::LuckCorrected);
        let json = serde_json::to_string(&t).unwrap();
        assert!(json.contains("\"estimator\":\"luck-corrected\""), "{json}");
        // "plain" stays out of plan.json: a plan written before the estimator existed (which
        // ran plain) reads as plain, with the fingerprint of a file that says plain.
        let plain = parse(&sprt_file("estimator = \"plain\"")).unwrap();
        let json = serde_json::to_string(&plain).unwrap();
        assert!(!json.contains("estimator"), "{json}");
        let old: Tournament = serde_json::from_str(&json).unwrap();
        assert_eq!(old.sprt.unwrap().estimator, SprtEstimator::Plain);
        assert_eq!(old.fingerprint(), plain.fingerprint());
        assert_ne!(t.fingerprint(), plain.fingerprint());
    }

    #[test]
    fn min_blocks_defaults_to_20_and_stays_out_of_plans_and_fingerprints_then() {
        let t = parse(&sprt_file("")).unwrap();
        assert_eq!(t.sprt.unwrap().min_blocks, 20);
        let json = serde_json::to_string(&t).unwrap();
        assert!(!json.contains("min_blocks"), "{json}");
        // A plan written before min_blocks existed reads as the default, same fingerprint.
        let old: Tournament = serde_json::from_str(&json).unwrap();
        assert_eq!(old.sprt.unwrap().min_blocks, 20);
        assert_eq!(
            t.fingerprint(),
            parse(&sprt_file("min_blocks = 20")).unwrap().fingerprint()
        );
        let t = parse(&sprt_file("min_blocks = 5\nmax_blocks = 5")).unwrap();
        assert_eq!(t.sprt.unwrap().min_blocks, 5);
        assert!(
            serde_json::to_string(&t)
                .unwrap()
                .contains("\"min_blocks\":5")
        );
    }

    #[test]
    fn max_log_kb_is_read_checked_and_left_out_of_the_fingerprint() {
        let plain = parse(&sprt_file("")).unwrap();
        assert_eq!(plain.max_log_kb, 128);
        let text = sprt_file("").replace("[sprt]", "[limits]\nmax_log_kb = 16\n[sprt]");
        let small = parse(&text).unwrap();
        assert_eq!(small.max_log_kb, 16);
        assert_eq!(small.fingerprint(), plain.fingerprint());
        let e = parse(&text.replace("= 16", "= 0")).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("limits.max_log_kb"));
        assert_eq!(e.line, Some(4));
    }

    #[test]
    fn cpus_is_read_checked_and_the_default_keeps_the_fingerprint() {
        let plain = parse(&sprt_file("")).unwrap();
        assert_eq!(plain.limits.millicpus, Some(1000));
        let with = |cpus: &str| {
            sprt_file("").replace("[sprt]", &format!("[limits]\ncpus = {cpus}\n[sprt]"))
        };
        let one = parse(&with("1")).unwrap();
        assert_eq!(one.fingerprint(), plain.fingerprint());
        let half = parse(&with("0.5")).unwrap();
        assert_eq!(half.limits.millicpus, Some(500));
        assert_ne!(half.fingerprint(), plain.fingerprint());
        for bad in ["0", "-1", "2000", "0.001"] {
            let e = parse(&with(bad)).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("limits.cpus"), "{bad}: {e}");
            assert_eq!(e.line, Some(4), "{bad}: {e}");
            assert!(
                e.message.contains("not a number of CPUs from 0.01 to 1024"),
                "{e}"
            );
        }
        assert!(parse(&with("\"two\"")).is_err());
    }

    #[test]
    fn max_blocks_below_min_blocks_is_refused_with_line_and_field() {
        let e = parse(&sprt_file("min_blocks = 30\nmax_blocks = 29")).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("sprt.max_blocks"));
        assert_eq!(e.line, Some(7));
        assert!(e.message.contains("min_blocks = 30"), "{e}");
        let e = parse(&sprt_file("min_blocks = 1")).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("sprt.min_blocks"));
    }
}

#[cfg(test)]
mod author_tests {
    use super::*;
    use crate::tournament::schedule::schedule;

    fn file(format: &str, seats: usize, bots: &[(&str, Option<&str>)], extra: &str) -> String {
        let mut text = format!(
            "game = \"classic\"\nformat = \"{format}\"\nseats = {seats}\nhands = 2\nseed = 1\n\
             rounds = 1\n{extra}\n"
        );
        for (name, author) in bots {
            text.push_str(&format!("[[bot]]\nname = \"{name}\"\ncommand = \"true\"\n"));
            if let Some(author) = author {
                text.push_str(&format!("author = \"{author}\"\n"));
            }
        }
        text
    }

    fn tables_of(t: &mut Tournament) -> Vec<Vec<String>> {
        t.seed = Some(1);
        let mut out: Vec<Vec<String>> = schedule(t)
            .iter()
            .map(|m| {
                let mut names: Vec<String> =
                    m.seats.iter().map(|&b| t.bots[b].name.clone()).collect();
                names.sort();
                names
            })
            .collect();
        out.dedup();
        out
    }

    #[test]
    fn a_round_robin_never_seats_two_bots_of_one_author_together() {
        let bots = [
            ("a1", Some("alice")),
            ("a2", Some("alice")),
            ("b", Some("bob")),
            ("c", None),
        ];
        let mut t = Tournament::parse(
            &file("round-robin", 2, &bots, ""),
            Path::new("t.toml"),
            Path::new("."),
        )
        .unwrap();
        let tables = tables_of(&mut t);
        assert_eq!(tables.len(), 5, "{tables:?}");
        assert!(!tables.contains(&vec!["a1".to_string(), "a2".to_string()]));
        // Three seats: every table with both of alice's bots is left out.
        let mut t = Tournament::parse(
            &file("round-robin", 3, &bots, ""),
            Path::new("t.toml"),
            Path::new("."),
        )
        .unwrap();
        let tables = tables_of(&mut t);
        assert_eq!(tables.len(), 2, "{tables:?}");
        for table in &tables {
            assert!(!(table.contains(&"a1".into()) && table.contains(&"a2".into())));
        }
        // A bot without an author shares none.
        let anonymous = [("x", None), ("y", None)];
        let mut t = Tournament::parse(
            &file("round-robin", 2, &anonymous, ""),
            Path::new("t.toml"),
            Path::new("."),
        )
        .unwrap();
        assert_eq!(tables_of(&mut t).len(), 1);
    }

    #[test]
    fn a_gauntlet_skips_the_candidates_own_field_bots_and_nothing_left_is_an_error() {
        let bots = [
            ("me", Some("alice")),
            ("mine", Some("alice")),
            ("ref", None),
        ];
        let mut t = Tournament::parse(
            &file("gauntlet", 2, &bots, "candidates = [\"me\"]"),
            Path::new("t.toml"),
            Path::new("."),
        )
        .unwrap();
        assert_eq!(
            tables_of(&mut t),
            vec![vec!["me".to_string(), "ref".to_string()]]
        );
        let both = [("a1", Some("alice")), ("a2", Some("alice"))];
        let error = Tournament::parse(
            &file("round-robin", 2, &both, ""),
            Path::new("t.toml"),
            Path::new("."),
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("bot.author") && error.contains("no table is left"),
            "{error}"
        );
        // An SPRT compares two versions of one author's bot: allowed.
        let sprt = file("sprt", 2, &both, "[sprt]\nm0 = 0.0\nm1 = 1.0\n");
        assert!(Tournament::parse(&sprt, Path::new("t.toml"), Path::new(".")).is_ok());
    }
}
