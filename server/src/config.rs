//! Contest files (TOML): one contest's game and table, languages, limits, ladder policy,
//! accounts and storage, checked with errors that name the file, the line and the field.
//!
//! The game, `[table]`, `[time]`, `[limits]` and `sandbox` are read exactly as a tournament
//! file reads them (the arena's [`arena::tournament::sections`]), so a contest plays the
//! matches a tournament file with the same keys would. Paths in the file (the roster) are
//! relative to its directory; the data directory is relative to the current directory, like a
//! tournament's output.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use arena::tournament::ConfigError;
use arena::tournament::sections::{self, LimitsSection, SectionError, TableSection, TimeSection};
use protocol::{Settings, TimeLimits, Variant};
use sandbox::{Limits, SandboxLevel};
use serde::Deserialize;
use toml::Spanned;

use crate::ladder::provisional::ProvisionalRule;

pub mod assignment;
pub use assignment::{AssignmentPolicy, Counted, Reference};

/// A language a contest accepts bots in (the starter kits' toolchains).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    Python,
    JavaScript,
    C,
    Java,
    Rust,
}

impl Language {
    pub const ALL: [Language; 5] = [
        Language::Python,
        Language::JavaScript,
        Language::C,
        Language::Java,
        Language::Rust,
    ];

    /// The name in contest files, forms and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::C => "c",
            Language::Java => "java",
            Language::Rust => "rust",
        }
    }

    pub fn parse(text: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.as_str() == text)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How accounts come to exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Registration {
    /// Anyone may sign up on the site.
    Open,
    /// Only the accounts of this roster CSV (a class): created at start, no sign-up page.
    Roster(PathBuf),
}

/// Limits on what participants upload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadPolicy {
    /// Largest upload (a source file or an archive), refused at the HTTP layer beyond it.
    pub max_bytes: u64,
    /// Most files an archive may hold.
    pub max_files: u64,
    /// Most bytes an archive may unpack to (counted while unpacking: headers lie).
    pub max_unpacked_bytes: u64,
    /// Most bots one account may own.
    pub bots_per_user: u64,
    /// Most uploads one account may make per hour.
    pub uploads_per_hour: u32,
}

/// Limits of a bot's build (the sandboxed build pipeline reads them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildPolicy {
    pub time_seconds: u64,
    pub memory_bytes: u64,
    /// The build and check logs are cut to this many bytes (head and tail kept).
    pub log_bytes: u64,
    /// Builds run at once by this server (each a sandboxed compiler, then `check-bot`).
    pub builders: u64,
    /// A built bot, packed for the workers (tar.gz, in the database), is at most this big.
    pub max_artifact_bytes: u64,
}

/// How the ladder plays (the scheduler and workers read it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderPolicy {
    pub hands_per_match: u64,
    /// Matches are played as duplicate blocks (every seat order of the same deals).
    pub duplicate: bool,
    /// A worker's claim on a match lasts this long unless renewed; it must outlast a match.
    pub lease_seconds: u64,
    /// A match whose lease expired this many times is given up.
    pub max_attempts: u32,
    /// Matches played at once by this server (each a sandboxed match); 0: this server plays
    /// none (another one does, on the same database).
    pub workers: u64,
    /// Everyone may watch the ladder's replays (else only the owners of the match's bots and
    /// admins).
    pub public_replays: bool,
    /// A ladder replay keeps each decision's stderr lines up to this many bytes per seat
    /// (shown only to that bot's owner); 0 keeps none (fault tails are kept either way).
    pub replay_stderr_bytes: u64,
    /// Which ratings the leaderboard ranks: the others are listed after them, unranked.
    pub provisional: ProvisionalRule,
}

/// The organizer's final round robin (`[final]`): every bot's ready version plays every
/// other, with the arena's tournament engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalPolicy {
    pub hands_per_match: u64,
    /// Each pair plays both seat orders of the same deals (a duplicate block).
    pub duplicate: bool,
    /// Matches played at once (each a sandboxed match of `seats` bots).
    pub jobs: u64,
}

/// Account settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountPolicy {
    pub registration: Registration,
    /// Login names of the organizers: created at start (with a one-time setup token) if
    /// missing, and flagged as admins.
    pub admins: Vec<String>,
    /// Session cookies carry `Secure` (set when the site is served over HTTPS).
    pub secure_cookies: bool,
    /// How long a login lasts.
    pub session_hours: u64,
}

/// How the site treats its connections: slow or idle clients are cut off, and no address
/// (nor all of them together) may hold more than its share of the server's open files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpPolicy {
    /// A request's head (request line and headers) must arrive within this many seconds of
    /// the connection opening or of the previous answer on it: this also closes idle
    /// keep-alive connections.
    pub header_seconds: u64,
    /// A request's body must arrive whole within this many seconds of its head, and a
    /// client must not stop taking an answer for longer.
    pub body_seconds: u64,
    /// Connections open at once, from everyone (lowered at start to fit the process's limit
    /// of open files).
    pub max_connections: u64,
    /// Connections open at once from one client address (an IPv6 client: its /64).
    pub max_connections_per_address: u64,
}

/// A checked contest file.
#[derive(Clone, Debug, PartialEq)]
pub struct Contest {
    pub file: PathBuf,
    /// The file's text, as read: recorded in the database for workers on other machines.
    pub text: String,
    pub name: String,
    pub settings: Settings,
    pub seats: usize,
    pub sandbox: SandboxLevel,
    pub time: TimeLimits,
    pub limits: Limits,
    pub languages: Vec<Language>,
    pub uploads: UploadPolicy,
    pub build: BuildPolicy,
    pub ladder: LadderPolicy,
    pub final_round: FinalPolicy,
    pub accounts: AccountPolicy,
    pub http: HttpPolicy,
    /// `[assignment]`: every upload is graded against reference bots (`crate::assignment`)
    /// instead of playing the ladder.
    pub assignment: Option<AssignmentPolicy>,
    /// Uploads, builds, setup links and the final round robin live here; the SQLite database
    /// too unless `--db` says otherwise (replays are stored in the database).
    pub data_dir: PathBuf,
    /// `[storage] connection_wait_seconds`: how long a query waits for a database connection
    /// before it fails as unavailable (the site then answers 503 and serves what it cached).
    pub connection_wait: std::time::Duration,
    /// Not from the file: `arena-worker --drop-page-cache` (a machine's choice, not the
    /// contest's): the worker empties the page cache after every match (`worker.rs`).
    pub drop_page_cache: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawContest {
    name: Option<Spanned<String>>,
    game: Spanned<String>,
    seats: Option<Spanned<usize>>,
    sandbox: Option<Spanned<String>>,
    languages: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    table: TableSection,
    #[serde(default)]
    time: TimeSection,
    #[serde(default)]
    limits: LimitsSection,
    #[serde(default)]
    uploads: RawUploads,
    #[serde(default)]
    build: RawBuild,
    #[serde(default)]
    ladder: RawLadder,
    #[serde(default, rename = "final")]
    final_round: RawFinal,
    #[serde(default)]
    accounts: RawAccounts,
    #[serde(default)]
    storage: RawStorage,
    #[serde(default)]
    http: RawHttp,
    assignment: Option<Spanned<assignment::RawAssignment>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUploads {
    max_bytes: Option<Spanned<u64>>,
    max_files: Option<Spanned<u64>>,
    max_unpacked_bytes: Option<Spanned<u64>>,
    bots_per_user: Option<Spanned<u64>>,
    uploads_per_hour: Option<Spanned<u32>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuild {
    time_seconds: Option<Spanned<u64>>,
    memory_mb: Option<Spanned<u64>>,
    log_kb: Option<Spanned<u64>>,
    builders: Option<Spanned<u64>>,
    max_artifact_mb: Option<Spanned<u64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLadder {
    hands_per_match: Option<Spanned<u64>>,
    duplicate: Option<bool>,
    lease_seconds: Option<Spanned<u64>>,
    max_attempts: Option<Spanned<u32>>,
    workers: Option<Spanned<u64>>,
    public_replays: Option<bool>,
    replay_stderr_kb: Option<Spanned<u64>>,
    provisional_games: Option<Spanned<u64>>,
    provisional_interval: Option<Spanned<u64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFinal {
    hands_per_match: Option<Spanned<u64>>,
    duplicate: Option<bool>,
    jobs: Option<Spanned<u64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAccounts {
    registration: Option<Spanned<String>>,
    roster: Option<Spanned<String>>,
    #[serde(default)]
    admins: Vec<Spanned<String>>,
    secure_cookies: Option<bool>,
    session_hours: Option<Spanned<u64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHttp {
    header_seconds: Option<Spanned<u64>>,
    body_seconds: Option<Spanned<u64>>,
    max_connections: Option<Spanned<u64>>,
    max_connections_per_address: Option<Spanned<u64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStorage {
    data_dir: Option<String>,
    connection_wait_seconds: Option<Spanned<u64>>,
}

/// A login name: 1 to 32 of `a-z 0-9 _ . -`, starting with a letter or digit. Kept narrow so
/// that names are safe in URLs, file names and pages, and two names cannot look alike.
pub fn valid_login_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 32
        && bytes[0].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_.-".contains(b))
}

impl Contest {
    /// Reads and checks a contest file.
    pub fn load(path: &Path) -> Result<Contest, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: path.to_path_buf(),
            line: None,
            field: None,
            message: format!("cannot read the file: {e}"),
        })?;
        let base = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Contest::parse(&text, path, &base)
    }

    /// Parses the text of a contest file; `base` resolves the roster's path.
    pub fn parse(text: &str, file: &Path, base: &Path) -> Result<Contest, ConfigError> {
        let err = |span: Option<Range<usize>>, field: &str, message: String| ConfigError {
            file: file.to_path_buf(),
            line: span.map(|s| sections::line_of(text, s.start)),
            field: (!field.is_empty()).then(|| field.to_string()),
            message,
        };
        let section_err = |e: SectionError| err(e.span, &e.field, e.message);
        let raw: RawContest =
            toml::from_str(text).map_err(|e| err(e.span(), "", e.message().trim().to_string()))?;

        let variant: Variant =
            raw.game
                .get_ref()
                .parse()
                .map_err(|e: protocol::UnknownVariant| {
                    err(Some(raw.game.span()), "game", e.to_string())
                })?;
        let seats = raw.seats.as_ref().map(|s| *s.get_ref()).unwrap_or(2);
        let settings = raw
            .table
            .settings(variant, seats, raw.seats.as_ref().map(|s| s.span()))
            .map_err(section_err)?;
        let sandbox = sections::sandbox_level(raw.sandbox.as_ref()).map_err(section_err)?;

        let name = match &raw.name {
            Some(n) => {
                let name = n.get_ref().trim();
                if name.is_empty() || name.len() > 100 || name.chars().any(char::is_control) {
                    return Err(err(
                        Some(n.span()),
                        "name",
                        "a name of 1 to 100 printable characters".into(),
                    ));
                }
                name.to_string()
            }
            None => file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "contest".into()),
        };

        let languages = match &raw.languages {
            None => Language::ALL.to_vec(),
            Some(list) => {
                let mut out = Vec::new();
                for l in list.get_ref() {
                    let lang = Language::parse(l.get_ref()).ok_or_else(|| {
                        err(
                            Some(l.span()),
                            "languages",
                            format!(
                                "unknown language {:?}; expected python, javascript, c, java or rust",
                                l.get_ref()
                            ),
                        )
                    })?;
                    if out.contains(&lang) {
                        return Err(err(
                            Some(l.span()),
                            "languages",
                            format!("{lang} is listed twice"),
                        ));
                    }
                    out.push(lang);
                }
                if out.is_empty() {
                    return Err(err(
                        Some(list.span()),
                        "languages",
                        "a contest offers at least one language".into(),
                    ));
                }
                out
            }
        };

        // A positive integer within bounds, else an error naming the field.
        let bounded = |value: &Option<Spanned<u64>>,
                       field: &str,
                       default: u64,
                       range: std::ops::RangeInclusive<u64>|
         -> Result<u64, ConfigError> {
            let Some(v) = value else { return Ok(default) };
            let n = *v.get_ref();
            if range.contains(&n) {
                Ok(n)
            } else {
                Err(err(
                    Some(v.span()),
                    field,
                    format!("{n} is out of range: {} to {}", range.start(), range.end()),
                ))
            }
        };

        let u = &raw.uploads;
        let uploads = UploadPolicy {
            max_bytes: bounded(&u.max_bytes, "uploads.max_bytes", 1 << 20, 1..=(256 << 20))?,
            max_files: bounded(&u.max_files, "uploads.max_files", 256, 1..=100_000)?,
            max_unpacked_bytes: bounded(
                &u.max_unpacked_bytes,
                "uploads.max_unpacked_bytes",
                16 << 20,
                1..=(4 << 30),
            )?,
            bots_per_user: bounded(&u.bots_per_user, "uploads.bots_per_user", 3, 1..=1000)?,
            uploads_per_hour: {
                let as_u64 = u
                    .uploads_per_hour
                    .as_ref()
                    .map(|s| Spanned::new(s.span(), u64::from(*s.get_ref())));
                bounded(&as_u64, "uploads.uploads_per_hour", 30, 1..=10_000)? as u32
            },
        };
        if uploads.max_unpacked_bytes < uploads.max_bytes {
            return Err(err(
                u.max_unpacked_bytes.as_ref().map(|s| s.span()),
                "uploads.max_unpacked_bytes",
                format!(
                    "{} is below uploads.max_bytes = {}: a plain source file of the allowed size would not fit",
                    uploads.max_unpacked_bytes, uploads.max_bytes
                ),
            ));
        }

        let b = &raw.build;
        let build = BuildPolicy {
            time_seconds: bounded(&b.time_seconds, "build.time_seconds", 120, 1..=3600)?,
            memory_bytes: bounded(&b.memory_mb, "build.memory_mb", 2048, 64..=65_536)? << 20,
            log_bytes: bounded(&b.log_kb, "build.log_kb", 64, 1..=10_240)? << 10,
            builders: bounded(&b.builders, "build.builders", 1, 1..=64)?,
            max_artifact_bytes: bounded(&b.max_artifact_mb, "build.max_artifact_mb", 64, 1..=1024)?
                << 20,
        };

        let l = &raw.ladder;
        let time = raw.time.time().map_err(section_err)?;
        let ladder = LadderPolicy {
            hands_per_match: bounded(
                &l.hands_per_match,
                "ladder.hands_per_match",
                100,
                1..=100_000,
            )?,
            duplicate: l.duplicate.unwrap_or(true),
            lease_seconds: bounded(&l.lease_seconds, "ladder.lease_seconds", 900, 10..=86_400)?,
            max_attempts: {
                let as_u64 = l
                    .max_attempts
                    .as_ref()
                    .map(|s| Spanned::new(s.span(), u64::from(*s.get_ref())));
                bounded(&as_u64, "ladder.max_attempts", 3, 1..=100)? as u32
            },
            workers: bounded(&l.workers, "ladder.workers", 1, 0..=64)?,
            public_replays: l.public_replays.unwrap_or(true),
            replay_stderr_bytes: bounded(
                &l.replay_stderr_kb,
                "ladder.replay_stderr_kb",
                64,
                0..=10_240,
            )? << 10,
            provisional: ProvisionalRule {
                min_games: bounded(
                    &l.provisional_games,
                    "ladder.provisional_games",
                    ProvisionalRule::DEFAULT.min_games,
                    0..=100_000,
                )?,
                // A new version's interval is ± 700: a limit of 700 or more turns this half
                // of the rule off.
                max_interval: bounded(
                    &l.provisional_interval,
                    "ladder.provisional_interval",
                    ProvisionalRule::DEFAULT.max_interval,
                    1..=10_000,
                )?,
            },
        };
        // A lease shorter than a match's startups would expire during every match and the
        // match would be played again and again.
        let startups_ms = time.startup_ms.saturating_mul(seats as u64);
        if ladder.lease_seconds.saturating_mul(1000) <= startups_ms {
            return Err(err(
                l.lease_seconds.as_ref().map(|s| s.span()),
                "ladder.lease_seconds",
                format!(
                    "{} s does not even cover the bots' startup ({startups_ms} ms): a lease must outlast a match",
                    ladder.lease_seconds
                ),
            ));
        }

        let f = &raw.final_round;
        let final_round = FinalPolicy {
            hands_per_match: bounded(
                &f.hands_per_match,
                "final.hands_per_match",
                200,
                1..=1_000_000,
            )?,
            duplicate: f.duplicate.unwrap_or(true),
            jobs: bounded(&f.jobs, "final.jobs", 1, 1..=256)?,
        };

        let a = &raw.accounts;
        let registration = match (&a.registration, &a.roster) {
            (None, None) => Registration::Open,
            (Some(r), roster) => match (r.get_ref().as_str(), roster) {
                ("open", None) => Registration::Open,
                ("open", Some(path)) => {
                    return Err(err(
                        Some(path.span()),
                        "accounts.roster",
                        "a roster is for registration = \"roster\"; open registration has none"
                            .into(),
                    ));
                }
                ("roster", Some(path)) => Registration::Roster(base.join(path.get_ref())),
                ("roster", None) => {
                    return Err(err(
                        Some(r.span()),
                        "accounts.roster",
                        "registration = \"roster\" needs roster = \"file.csv\"".into(),
                    ));
                }
                (other, _) => {
                    return Err(err(
                        Some(r.span()),
                        "accounts.registration",
                        format!("unknown registration {other:?}; expected open or roster"),
                    ));
                }
            },
            (None, Some(path)) => Registration::Roster(base.join(path.get_ref())),
        };
        let mut admins: Vec<String> = Vec::new();
        for admin in &a.admins {
            let name = admin.get_ref();
            if !valid_login_name(name) {
                return Err(err(
                    Some(admin.span()),
                    "accounts.admins",
                    format!(
                        "{name:?} is not a login name (1 to 32 of a-z, 0-9, _ . -, starting with a letter or digit)"
                    ),
                ));
            }
            if admins.contains(name) {
                return Err(err(
                    Some(admin.span()),
                    "accounts.admins",
                    format!("{name:?} is listed twice"),
                ));
            }
            admins.push(name.clone());
        }
        let accounts = AccountPolicy {
            registration,
            admins,
            secure_cookies: a.secure_cookies.unwrap_or(false),
            session_hours: bounded(
                &a.session_hours,
                "accounts.session_hours",
                24 * 14,
                1..=24 * 365,
            )?,
        };

        let h = &raw.http;
        let http = HttpPolicy {
            header_seconds: bounded(&h.header_seconds, "http.header_seconds", 10, 1..=600)?,
            body_seconds: bounded(&h.body_seconds, "http.body_seconds", 60, 1..=3600)?,
            max_connections: bounded(
                &h.max_connections,
                "http.max_connections",
                2048,
                1..=1_000_000,
            )?,
            max_connections_per_address: bounded(
                &h.max_connections_per_address,
                "http.max_connections_per_address",
                256,
                1..=1_000_000,
            )?,
        };
        if http.max_connections_per_address > http.max_connections {
            return Err(err(
                h.max_connections_per_address.as_ref().map(|s| s.span()),
                "http.max_connections_per_address",
                format!(
                    "{} is above http.max_connections = {}",
                    http.max_connections_per_address, http.max_connections
                ),
            ));
        }

        let data_dir = PathBuf::from(
            raw.storage
                .data_dir
                .clone()
                .unwrap_or_else(|| format!("out/{}", slug(&name))),
        );
        // Absolute, from the directory the server runs in: bots are started from other
        // directories (their private ones) with paths into it.
        let data_dir = std::path::absolute(&data_dir).map_err(|e| {
            err(
                None,
                "storage.data_dir",
                format!("cannot resolve {}: {e}", data_dir.display()),
            )
        })?;

        // Short, so that a page never hangs while the database is away; at most a minute, past
        // which a visitor has long given up anyway.
        let connection_wait = std::time::Duration::from_secs(bounded(
            &raw.storage.connection_wait_seconds,
            "storage.connection_wait_seconds",
            crate::storage::DEFAULT_CONNECTION_WAIT.as_secs(),
            1..=60,
        )?);

        let assignment = match &raw.assignment {
            None => None,
            Some(section) => {
                if seats != 2 {
                    return Err(err(
                        Some(section.span()),
                        "assignment",
                        format!(
                            "an assignment grades heads-up matches: seats must be 2, not {seats}"
                        ),
                    ));
                }
                let policy = section
                    .get_ref()
                    .check(base, &languages, section.span())
                    .map_err(|(span, field, message)| err(span, &field, message))?;
                Some(policy)
            }
        };

        Ok(Contest {
            file: file.to_path_buf(),
            text: text.to_string(),
            name,
            settings,
            seats,
            sandbox,
            time,
            limits: raw.limits.limits().map_err(section_err)?,
            languages,
            uploads,
            build,
            ladder,
            final_round,
            accounts,
            http,
            assignment,
            data_dir,
            connection_wait,
            drop_page_cache: false,
        })
    }
}

/// A file-name-safe form of a contest name for the default data directory.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_string();
    if out.is_empty() {
        "contest".into()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Contest, ConfigError> {
        Contest::parse(text, Path::new("c.toml"), Path::new("/base"))
    }

    #[test]
    fn a_minimal_file_takes_the_defaults() {
        let c = parse("game = \"classic\"\n").unwrap();
        assert_eq!(c.name, "c");
        assert_eq!(c.seats, 2);
        assert_eq!(c.languages, Language::ALL.to_vec());
        assert_eq!(c.uploads.max_bytes, 1 << 20);
        assert!(c.ladder.duplicate);
        assert_eq!(c.ladder.hands_per_match, 100);
        assert_eq!(c.accounts.registration, Registration::Open);
        assert_eq!(c.data_dir, std::env::current_dir().unwrap().join("out/c"));
        assert_eq!(c.settings, Settings::new(Variant::Classic));
        assert_eq!(c.build.builders, 1);
    }

    #[test]
    fn the_connection_wait_is_short_by_default_and_bounded() {
        let c = parse("game = \"classic\"\n").unwrap();
        assert_eq!(c.connection_wait, std::time::Duration::from_secs(2));
        let c = parse("game = \"classic\"\n[storage]\nconnection_wait_seconds = 5\n").unwrap();
        assert_eq!(c.connection_wait, std::time::Duration::from_secs(5));
        for bad in ["0", "61"] {
            let e = parse(&format!(
                "game = \"classic\"\n[storage]\nconnection_wait_seconds = {bad}\n"
            ))
            .unwrap_err();
            assert_eq!(
                (e.line, e.field.as_deref()),
                (Some(3), Some("storage.connection_wait_seconds"))
            );
        }
    }

    #[test]
    fn builders_are_bounded() {
        let c = parse("game = \"classic\"\n[build]\nbuilders = 4\n").unwrap();
        assert_eq!(c.build.builders, 4);
        let e = parse("game = \"classic\"\n[build]\nbuilders = 0\n").unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(3), Some("build.builders"))
        );
    }

    #[test]
    fn http_limits_have_defaults_and_bounds() {
        let c = parse("game = \"classic\"\n").unwrap();
        assert_eq!(
            c.http,
            HttpPolicy {
                header_seconds: 10,
                body_seconds: 60,
                max_connections: 2048,
                max_connections_per_address: 256,
            }
        );
        let c =
            parse("game = \"classic\"\n[http]\nheader_seconds = 3\nbody_seconds = 4\n").unwrap();
        assert_eq!((c.http.header_seconds, c.http.body_seconds), (3, 4));
        let e = parse("game = \"classic\"\n[http]\nheader_seconds = 0\n").unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(3), Some("http.header_seconds"))
        );
        // One address may not be allowed more than everyone together.
        let e = parse(
            "game = \"classic\"\n[http]\nmax_connections = 10\nmax_connections_per_address = 11\n",
        )
        .unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(4), Some("http.max_connections_per_address"))
        );
        let e = parse("game = \"classic\"\n[http]\ntimeout = 1\n").unwrap_err();
        assert!(e.message.contains("timeout"), "{}", e.message);
    }

    #[test]
    fn table_time_and_limits_read_like_a_tournament_file() {
        let c = parse(
            "game = \"classic\"\nseats = 3\n[table]\nboot = 2\nsequence_order = \"akq-high\"\n\
             [time]\ndecision_ms = 250\n[limits]\nmemory_mb = 512\n",
        )
        .unwrap();
        assert_eq!(c.seats, 3);
        assert_eq!(c.settings.boot, 2);
        assert_eq!(c.time.decision_ms, 250);
        assert_eq!(c.limits.memory_bytes, Some(512 << 20));
        let e =
            parse("game = \"classic\"\n[table]\nsequence_order = \"upside-down\"\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("table.sequence_order"));
        assert_eq!(e.line, Some(3));
    }

    #[test]
    fn errors_name_the_file_line_and_field() {
        let e = parse("game = \"classic\"\nlanguages = [\"python\", \"cobol\"]\n").unwrap_err();
        assert_eq!(e.file, PathBuf::from("c.toml"));
        assert_eq!(e.line, Some(2));
        assert_eq!(e.field.as_deref(), Some("languages"));
        assert!(
            e.to_string().starts_with("c.toml:2: field `languages`"),
            "{e}"
        );

        let e = parse("game = \"poker\"\n").unwrap_err();
        assert_eq!((e.line, e.field.as_deref()), (Some(1), Some("game")));

        let e = parse("game = \"classic\"\n\n[uploads]\nmax_bytes = 0\n").unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(4), Some("uploads.max_bytes"))
        );

        let e = parse("game = \"classic\"\n[ladder]\nhands = 5\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("hands"), "{e}");
    }

    #[test]
    fn languages_are_checked() {
        let c = parse("game = \"classic\"\nlanguages = [\"rust\", \"python\"]\n").unwrap();
        assert_eq!(c.languages, vec![Language::Rust, Language::Python]);
        assert!(parse("game = \"classic\"\nlanguages = []\n").is_err());
        let e = parse("game = \"classic\"\nlanguages = [\"c\", \"c\"]\n").unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
    }

    #[test]
    fn registration_modes() {
        let c = parse(
            "game = \"classic\"\n[accounts]\nregistration = \"roster\"\nroster = \"class.csv\"\n",
        )
        .unwrap();
        assert_eq!(
            c.accounts.registration,
            Registration::Roster(PathBuf::from("/base/class.csv"))
        );
        let e = parse("game = \"classic\"\n[accounts]\nregistration = \"roster\"\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("accounts.roster"));
        let e =
            parse("game = \"classic\"\n[accounts]\nregistration = \"open\"\nroster = \"x.csv\"\n")
                .unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(4), Some("accounts.roster"))
        );
        let e = parse("game = \"classic\"\n[accounts]\nregistration = \"invite\"\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("accounts.registration"));
    }

    #[test]
    fn admins_are_login_names() {
        let c =
            parse("game = \"classic\"\n[accounts]\nadmins = [\"teacher\", \"ta-1\"]\n").unwrap();
        assert_eq!(c.accounts.admins, vec!["teacher", "ta-1"]);
        let e = parse("game = \"classic\"\n[accounts]\nadmins = [\"Bad Name\"]\n").unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(3), Some("accounts.admins"))
        );
    }

    #[test]
    fn ladder_policy_is_validated() {
        let c = parse("game = \"classic\"\n[ladder]\nhands_per_match = 50\nduplicate = false\n")
            .unwrap();
        assert_eq!(c.ladder.hands_per_match, 50);
        assert!(!c.ladder.duplicate);
        let e =
            parse("game = \"classic\"\n[time]\nstartup_ms = 30000\n[ladder]\nlease_seconds = 30\n")
                .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("ladder.lease_seconds"));
        assert_eq!(e.line, Some(5));
        let e = parse("game = \"classic\"\n[ladder]\nmax_attempts = 0\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("ladder.max_attempts"));
    }

    #[test]
    fn provisional_ratings_have_a_default_rule_the_file_can_change() {
        let c = parse("game = \"classic\"\n").unwrap();
        assert_eq!(c.ladder.provisional, ProvisionalRule::DEFAULT);
        let c = parse(
            "game = \"classic\"\n[ladder]\nprovisional_games = 3\nprovisional_interval = 450\n",
        )
        .unwrap();
        assert_eq!(
            c.ladder.provisional,
            ProvisionalRule {
                min_games: 3,
                max_interval: 450
            }
        );
        let e = parse("game = \"classic\"\n[ladder]\n\nprovisional_interval = 0\n").unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(4), Some("ladder.provisional_interval"))
        );
    }

    #[test]
    fn the_final_has_defaults_and_bounds() {
        let c = parse("game = \"classic\"\n").unwrap();
        assert_eq!(
            c.final_round,
            FinalPolicy {
                hands_per_match: 200,
                duplicate: true,
                jobs: 1
            }
        );
        let c = parse(
            "game = \"classic\"\n[final]\nhands_per_match = 40\nduplicate = false\njobs = 3\n",
        )
        .unwrap();
        assert_eq!(c.final_round.hands_per_match, 40);
        assert!(!c.final_round.duplicate);
        assert_eq!(c.final_round.jobs, 3);
        let e = parse("game = \"classic\"\n\n[final]\njobs = 0\n").unwrap_err();
        assert_eq!((e.line, e.field.as_deref()), (Some(4), Some("final.jobs")));
        let e = parse("game = \"classic\"\n[final]\nhands_per_match = 0\n").unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(3), Some("final.hands_per_match"))
        );
        let e = parse("game = \"classic\"\n[final]\nrounds = 2\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("rounds"), "{e}");
    }

    #[test]
    fn unpacked_limit_must_hold_an_upload() {
        let e =
            parse("game = \"classic\"\n[uploads]\nmax_bytes = 2000\nmax_unpacked_bytes = 1000\n")
                .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("uploads.max_unpacked_bytes"));
    }

    #[test]
    fn login_names() {
        for good in ["a", "alice", "bob.smith", "x_1-2", "0day"] {
            assert!(valid_login_name(good), "{good}");
        }
        for bad in [
            "",
            "Alice",
            "-a",
            ".a",
            "a b",
            "é",
            "<script>",
            &"a".repeat(33),
        ] {
            assert!(!valid_login_name(bad), "{bad}");
        }
    }

    #[test]
    fn the_shipped_contest_file_loads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tournaments/contest.toml");
        let c = Contest::load(&path).unwrap();
        assert!(c.languages.len() == 5);
        assert!(c.assignment.is_none());
    }

    #[test]
    fn the_shipped_assignment_loads_and_its_references_exist() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tournaments/classroom-assignment.toml");
        let c = Contest::load(&path).unwrap();
        let a = c.assignment.expect("an [assignment]");
        let names: Vec<&str> = a.references.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["random", "passive", "strength"]);
        for r in &a.references {
            assert!(r.source.is_file(), "{}", r.source.display());
            assert!(r.files.iter().all(|f| f.is_file()), "{:?}", r.files);
        }
        assert_eq!(a.closes_at_ms() - a.deadline_ms, 24 * 3_600_000);
    }

    #[test]
    fn assignment_mistakes_name_the_line_and_field() {
        let base = "game = \"closest-555\"\n[assignment]\n";
        let reference = "[[assignment.reference]]\nname = \"r\"\nsource = \"r.py\"\nlanguage = \"python\"\nmark = 0.5\n";
        let e = parse(&format!("{base}{reference}")).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("assignment.deadline"), "{e}");
        let e = parse(&format!(
            "{base}deadline = 2027-01-01T00:00:00\n{reference}"
        ))
        .unwrap_err();
        assert_eq!(
            (e.field.as_deref(), e.line),
            (Some("assignment.deadline"), Some(3)),
            "{e}"
        );
        assert!(e.to_string().contains("offset"), "{e}");
        let e = parse(&format!("{base}deadline = 2027-01-01T00:00:00Z\n")).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("assignment.reference"), "{e}");
        let e = parse(&format!(
            "{base}deadline = 2027-01-01T00:00:00Z\nmin_blocks = 9\nmax_blocks = 4\n{reference}"
        ))
        .unwrap_err();
        assert_eq!(
            (e.field.as_deref(), e.line),
            (Some("assignment.max_blocks"), Some(5)),
            "{e}"
        );
        let e = parse(&format!(
            "{base}deadline = 2027-01-01T00:00:00Z\ncopy_blocks = 101\n{reference}"
        ))
        .unwrap_err();
        assert_eq!(
            (e.field.as_deref(), e.line),
            (Some("assignment.copy_blocks"), Some(4)),
            "{e}"
        );
        let e = parse(&format!(
            "seats = 3\n{base}deadline = 2027-01-01T00:00:00Z\n{reference}"
        ))
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("assignment"), "{e}");
        let ok = parse(&format!(
            "{base}deadline = 2027-01-01T01:00:00+01:00\n{reference}"
        ))
        .unwrap();
        let a = ok.assignment.unwrap();
        assert_eq!(a.deadline_ms, 1_798_761_600_000);
        assert_eq!(a.references[0].source, Path::new("/base/r.py"));
        assert_eq!(a.copy_blocks, 2, "the default");
    }
}
