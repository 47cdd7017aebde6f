//! `arena report DIR -o OUT.html`: one self-contained HTML page with a tournament's standings
//! (confidence-interval bars), crosstable heat map, chips over time, faults, and links to a
//! replay page per match.
//!
//! The replay pages are written next to the report, in a folder named after it:
//! `OUT.html` links to `OUT_replays/match-NNNNNN.html` (relative links, so the report and its
//! folder can be moved or served together), and each replay page links back to the report.
//! The report itself embeds only the standings and the match results (small); the replays stay
//! in their own pages, so a large tournament does not make one huge page. The pages share one
//! viewer (`viewer.js`, `viewer.css` in that folder) and embed their replay compressed, so a
//! page weighs about a twentieth of its replay file; `--replays none|sample:N` leaves out all or
//! all but N of them.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::error::ReportError;
use super::replay_page::{BackLink, write_shared_replay_page, write_shared_viewer};
use super::template::{encode_path_segment, escape_html, fill, json_for_script};
use crate::standings::Standings;
use crate::tournament::MatchRecord;
use crate::tournament::grading::GradeReport;
use crate::tournament::{read_plan, read_results};

const TEMPLATE: &str = include_str!("../../assets/report.html");
const COMMON_CSS: &str = include_str!("../../assets/common.css");
const REPORT_CSS: &str = include_str!("../../assets/report.css");
const REPORT_JS: &str = include_str!("../../assets/report.js");
const EXACT_JSON_JS: &str = include_str!("../../assets/exact_json.js");

/// What the report shows of the tournament file (from the output directory's `plan.json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentInfo {
    pub name: String,
    pub format: serde_json::Value,
    pub settings: protocol::Settings,
    pub seats: usize,
    pub hands: u64,
    pub seed: u64,
    pub rounds: u64,
    pub duplicate: bool,
    pub bots: Vec<String>,
}

/// One finished match and the link to its replay page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportMatch {
    #[serde(flatten)]
    pub record: MatchRecord,
    /// Relative URL of the match's replay page; `None` when its replay is missing or was
    /// left out.
    pub page: Option<String>,
    /// The replay was there but left out (`--replays none` or `sample:N`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub omitted: bool,
}

/// Which matches get a replay page (`arena report --replays`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReplaySelection {
    /// Every match with a replay (the default).
    #[default]
    All,
    /// None: the report alone.
    None,
    /// At most N matches, spread evenly over the match indices (the first included).
    Sample(usize),
}

/// A `--replays` value that is none of `all`, `none` or `sample:N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: expected all, none or sample:N (N a number above 0)")]
pub struct ReplaySelectionError(pub String);

/// Parses `all`, `none` or `sample:N` (N > 0).
pub fn parse_replays(text: &str) -> Result<ReplaySelection, ReplaySelectionError> {
    match text {
        "all" => Ok(ReplaySelection::All),
        "none" => Ok(ReplaySelection::None),
        _ => {
            let n = text
                .strip_prefix("sample:")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| ReplaySelectionError(text.to_string()))?;
            Ok(ReplaySelection::Sample(n))
        }
    }
}

impl ReplaySelection {
    /// Which of `count` matches (in index order) get a page.
    fn chosen(self, count: usize) -> Vec<bool> {
        match self {
            ReplaySelection::All => vec![true; count],
            ReplaySelection::None => vec![false; count],
            ReplaySelection::Sample(n) if n >= count => vec![true; count],
            ReplaySelection::Sample(n) => {
                let mut chosen = vec![false; count];
                for i in 0..n {
                    chosen[i * count / n] = true;
                }
                chosen
            }
        }
    }
}

/// Everything the report page shows; embedded in it as JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportData {
    pub title: String,
    pub tournament: Option<TournamentInfo>,
    pub standings: Standings,
    /// In index order.
    pub matches: Vec<ReportMatch>,
    /// A gauntlet's ranking of the candidates against the field, and its grades (the same as
    /// grades.json); absent for other formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gauntlet: Option<GradeReport>,
}

/// What `write_report` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReportSummary {
    pub matches: usize,
    /// Replay pages written.
    pub pages: usize,
    /// Where they are.
    pub pages_dir: Option<PathBuf>,
    /// Matches whose replay was left out by the selection.
    pub omitted: usize,
    /// Matches whose replay file is missing (no page, no link).
    pub warnings: Vec<String>,
}

/// The report page.
pub fn report_page(data: &ReportData) -> Result<String, ReportError> {
    let style = format!("{COMMON_CSS}\n{REPORT_CSS}");
    Ok(fill(
        TEMPLATE,
        &[
            ("TITLE", &escape_html(&data.title)),
            (
                "GENERATOR",
                &escape_html(&format!("arena {}", env!("CARGO_PKG_VERSION"))),
            ),
            ("STYLE", &style),
            ("SCRIPT", &format!("{EXACT_JSON_JS}\n{REPORT_JS}")),
            ("DATA", &json_for_script(data).map_err(ReportError::Encode)?),
            ("GAUNTLET", &gauntlet_section(data.gauntlet.as_ref())),
        ],
    )?)
}

fn signed(x: f64) -> String {
    format!("{x:+.3}")
}

fn interval_cell(lower: Option<f64>, upper: Option<f64>) -> String {
    match (lower, upper) {
        (Some(l), Some(u)) => format!("[{}, {}]", signed(l), signed(u)),
        _ => "unbounded".to_string(),
    }
}

/// A gauntlet's ranking and grades tables, drawn here (static HTML, readable without
/// JavaScript); empty for other formats.
fn gauntlet_section(report: Option<&GradeReport>) -> String {
    let Some(report) = report else {
        return String::new();
    };
    let g = &report.gauntlet;
    let mut html = String::from(
        r#"<section class="panel wide" aria-labelledby="gauntlet-h" data-testid="gauntlet"><h2 id="gauntlet-h">Gauntlet: candidates against the field</h2>"#,
    );
    html.push_str(&format!(r#"<p class="note">{}</p>"#, escape_html(&g.note)));
    html.push_str(r#"<div class="scroll"><table class="gauntlet-ranking" data-testid="gauntlet-ranking"><thead><tr><th class="num">#</th><th>Candidate</th><th class="num">Mean edge</th>"#);
    for f in &g.field {
        html.push_str(&format!(
            r#"<th class="num" title="edge in chips per hand and its 95% interval">vs {}</th>"#,
            escape_html(f)
        ));
    }
    html.push_str("</tr></thead><tbody>");
    for row in &g.candidates {
        html.push_str(&format!(
            r#"<tr data-bot="{}"><td class="num">{}</td><td class="bot">{}</td><td class="num">{}</td>"#,
            escape_html(&row.candidate),
            row.rank,
            escape_html(&row.candidate),
            signed(row.mean_edge)
        ));
        for e in &row.edges {
            html.push_str(&format!(
                r#"<td class="num">{} {}</td>"#,
                signed(e.edge_per_hand),
                interval_cell(e.ci.map(|c| c.low), e.ci.map(|c| c.high))
            ));
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table></div>");
    if !report.grades.is_empty() {
        html.push_str(&format!(
            r#"<h3 id="grades-h">Grades</h3><p class="note">A candidate {}. {}.</p>"#,
            escape_html(&report.rule),
            escape_html(&capitalized(&report.caveat))
        ));
        html.push_str(r#"<div class="scroll"><table class="grades" data-testid="grades"><thead><tr><th>Candidate</th><th>Reference</th><th class="num">Edge</th><th class="num">95% CI</th><th class="num">Blocks</th><th class="num">Mark</th><th>Result</th><th>Why</th></tr></thead><tbody>"#);
        for grade in &report.grades {
            html.push_str(&format!(
                r#"<tr data-candidate="{}" data-opponent="{}" data-pass="{}"><td>{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="{}">{}</td><td>{}</td></tr>"#,
                escape_html(&grade.candidate),
                escape_html(&grade.opponent),
                grade.pass,
                escape_html(&grade.candidate),
                escape_html(&grade.opponent),
                signed(grade.estimate),
                interval_cell(grade.lower, grade.upper),
                grade.blocks,
                signed(grade.mark),
                if grade.pass { "pos" } else { "neg" },
                if grade.pass { "PASS" } else { "FAIL" },
                escape_html(&grade.reason)
            ));
        }
        html.push_str("</tbody></table></div><ul class=\"verdicts\">");
        for v in &report.verdicts {
            html.push_str(&format!(
                r#"<li data-testid="verdict"><b>{}</b>: {}</li>"#,
                escape_html(&v.candidate),
                escape_html(&v.verdict)
            ));
        }
        html.push_str("</ul>");
    }
    html.push_str("</section>");
    html
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The folder of replay pages for the report `output`: `<stem>_replays` beside it.
pub fn replay_pages_dir(output: &Path) -> Result<(PathBuf, String), ReportError> {
    let stem = output
        .file_stem()
        .ok_or_else(|| ReportError::NoFileName {
            output: output.to_path_buf(),
        })?
        .to_string_lossy()
        .into_owned();
    let name = format!("{stem}_replays");
    Ok((output.with_file_name(&name), name))
}

fn tournament_info(t: &crate::tournament::Tournament) -> Result<TournamentInfo, ReportError> {
    Ok(TournamentInfo {
        name: t.name.clone(),
        format: serde_json::to_value(t.format).map_err(ReportError::Encode)?,
        settings: t.settings,
        seats: t.seats,
        hands: t.hands,
        seed: t.seed(),
        rounds: t.rounds,
        duplicate: t.duplicate,
        bots: t.bots.iter().map(|b| b.name.clone()).collect(),
    })
}

/// Reads the tournament output directory `dir` and writes the report to `output`, with a
/// replay page for every selected match whose replay is there. Errors name the file.
pub fn write_report(
    dir: &Path,
    output: &Path,
    replays: ReplaySelection,
) -> Result<ReportSummary, ReportError> {
    let results = dir.join("results.jsonl");
    if !results.is_file() {
        return Err(ReportError::NotAnOutputDirectory {
            dir: dir.to_path_buf(),
            results,
        });
    }
    let records: Vec<MatchRecord> = read_results(&results)?.into_values().collect();
    let plan = if dir.join("plan.json").exists() {
        Some(read_plan(dir)?.tournament)
    } else {
        None
    };
    let tournament = plan.as_ref().map(tournament_info).transpose()?;
    let title = match &tournament {
        Some(t) => format!("Tournament {}", t.name),
        None => format!("Tournament {}", dir.display()),
    };
    let standings = crate::tournament::standings_of(dir, &records);
    let gauntlet = plan
        .as_ref()
        .and_then(|t| crate::tournament::gauntlet_report(&standings, t));
    let (pages_dir, pages_name) = replay_pages_dir(output)?;
    let report_name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let back = BackLink {
        href: format!("../{}", encode_path_segment(&report_name)),
        label: title.clone(),
    };

    let mut summary = ReportSummary {
        matches: records.len(),
        ..ReportSummary::default()
    };
    let chosen = replays.chosen(records.len());
    let mut matches = Vec::with_capacity(records.len());
    // (replay file, page file) of every page to write.
    let mut jobs: Vec<(PathBuf, String)> = Vec::new();
    for (record, chosen) in records.into_iter().zip(chosen) {
        let mut omitted = false;
        let page = match &record.replay {
            Some(replay) if dir.join(replay).is_file() => {
                if chosen {
                    let file = format!("match-{:06}.html", record.index);
                    jobs.push((dir.join(replay), file.clone()));
                    Some(format!("{}/{file}", encode_path_segment(&pages_name)))
                } else {
                    omitted = true;
                    summary.omitted += 1;
                    None
                }
            }
            Some(replay) => {
                summary.warnings.push(format!(
                    "match {}: replay {} is missing; no replay page",
                    record.index,
                    dir.join(replay).display()
                ));
                None
            }
            None => None,
        };
        matches.push(ReportMatch {
            record,
            page,
            omitted,
        });
    }
    remove_stale_pages(&pages_dir, &jobs)?;
    if !jobs.is_empty() {
        std::fs::create_dir_all(&pages_dir).map_err(|source| ReportError::CreatePagesFolder {
            dir: pages_dir.clone(),
            source,
        })?;
        write_shared_viewer(&pages_dir)?;
        write_pages(&jobs, &pages_dir, &back)?;
        summary.pages = jobs.len();
        summary.pages_dir = Some(pages_dir.clone());
    }

    let data = ReportData {
        title,
        tournament,
        standings,
        matches,
        gauntlet,
    };
    let page = report_page(&data)?;
    crate::console::output::create_parent(output)?;
    std::fs::write(output, page).map_err(|source| ReportError::Write {
        path: output.to_path_buf(),
        source,
    })?;
    Ok(summary)
}

/// Writes the replay pages, on every core: compressing the replays is most of a report's time.
fn write_pages(
    jobs: &[(PathBuf, String)],
    pages_dir: &Path,
    back: &BackLink,
) -> Result<(), ReportError> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(jobs.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> Result<(), ReportError> {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((replay, file)) = jobs.get(i) else {
                            return Ok(());
                        };
                        write_shared_replay_page(
                            replay,
                            &pages_dir.join(file),
                            Some(back.clone()),
                        )?;
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("a page writer panicked"))
    })
}

/// Removes the replay pages of an earlier report in `pages_dir` that this one does not write
/// (e.g. after `--replays none`), so that the folder holds only pages the report links to.
/// Only files named like the report's pages are touched.
fn remove_stale_pages(pages_dir: &Path, jobs: &[(PathBuf, String)]) -> Result<(), ReportError> {
    let Ok(entries) = std::fs::read_dir(pages_dir) else {
        return Ok(());
    };
    let keep: std::collections::HashSet<&str> = jobs.iter().map(|(_, f)| f.as_str()).collect();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_page = name
            .strip_prefix("match-")
            .and_then(|rest| rest.strip_suffix(".html"))
            .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
        if is_page && !keep.contains(name.as_str()) {
            std::fs::remove_file(entry.path()).map_err(|source| ReportError::RemoveStalePage {
                path: entry.path(),
                source,
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::console::output::chain;

    /// A replay header with nothing in it but `seed`.
    fn test_header(seed: u64) -> crate::replay::Header {
        crate::replay::Header {
            format: crate::replay::REPLAY_FORMAT.into(),
            version: crate::replay::REPLAY_VERSION,
            protocol: 1,
            deal: "test".into(),
            arena_version: "0".into(),
            settings: protocol::Settings::new(protocol::Variant::Classic),
            seed,
            hands: 0,
            first_hand: 0,
            first_dealer: 0,
            time: protocol::TimeLimits {
                startup_ms: 1,
                decision_ms: 1,
                bank_ms: 1,
            },
            bots: vec![],
        }
    }
    use crate::standings;
    use protocol::FaultKind;

    fn record(index: u64, seats: [&str; 2], net: i64, replay: Option<&str>) -> MatchRecord {
        MatchRecord {
            index,
            block: index / 2,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            hands: 10,
            net: vec![net, -net],
            hands_won: vec![6, 4],
            faults: vec![
                BTreeMap::from([(FaultKind::Timeout, index)]),
                BTreeMap::new(),
            ],
            replay: replay.map(str::to_string),
        }
    }

    fn embedded_json(page: &str) -> serde_json::Value {
        let open = r#"<script type="application/json" id="report-data">"#;
        let start = page.find(open).expect("data element") + open.len();
        let end = start + page[start..].find("</script>").expect("end of data");
        serde_json::from_str(&page[start..end]).expect("embedded JSON parses")
    }

    #[test]
    fn the_report_embeds_standings_and_matches() {
        let records = vec![
            record(0, ["a", "</script>b"], 5, None),
            record(1, ["</script>b", "a"], -3, None),
        ];
        let data = ReportData {
            title: "Tournament <x>".into(),
            tournament: None,
            standings: standings::compute(&records),
            matches: records
                .into_iter()
                .map(|record| ReportMatch {
                    page: Some(format!("r_replays/match-{:06}.html", record.index)),
                    record,
                    omitted: false,
                })
                .collect(),
            gauntlet: None,
        };
        let page = report_page(&data).unwrap();
        assert!(page.contains("<title>Tournament &lt;x&gt;</title>"));
        assert!(!page.contains("{{"));
        // The SVG namespace names a URL but is never fetched; nothing else may.
        let without_namespace = page.replace("http://www.w3.org/2000/svg", "");
        assert!(!without_namespace.contains("http://") && !without_namespace.contains("https://"));
        assert_eq!(page.matches("</script>").count(), 2);
        let json = embedded_json(&page);
        assert_eq!(json["standings"]["bots"][0]["name"], "a");
        assert_eq!(json["standings"]["bots"][1]["name"], "</script>b");
        assert_eq!(json["matches"][1]["index"], 1);
        assert_eq!(json["matches"][1]["page"], "r_replays/match-000001.html");
        assert_eq!(json["matches"][1]["faults"][0]["timeout"], 1);
        assert_eq!(json["standings"]["crosstable"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn assets_never_close_their_own_element() {
        for (name, text) in [("report.js", REPORT_JS), ("report.css", REPORT_CSS)] {
            let lower = text.to_ascii_lowercase();
            assert!(!lower.contains("</script"), "{name} contains </script");
            assert!(!lower.contains("</style"), "{name} contains </style");
            assert!(!lower.contains("{{"), "{name} contains a placeholder");
        }
    }

    #[test]
    fn replay_pages_go_beside_the_report() {
        let (dir, name) = replay_pages_dir(Path::new("/tmp/x/my report.html")).unwrap();
        assert_eq!(dir, Path::new("/tmp/x/my report_replays"));
        assert_eq!(name, "my report_replays");
        assert!(replay_pages_dir(Path::new("/")).is_err());
    }

    #[test]
    fn a_directory_without_results_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let err =
            write_report(dir.path(), &dir.path().join("r.html"), ReplaySelection::All).unwrap_err();
        assert!(chain(&err).contains("results.jsonl"), "{}", chain(&err));
    }

    #[test]
    fn a_bad_results_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("results.jsonl"), "garbage\n{}\n").unwrap();
        let err =
            write_report(dir.path(), &dir.path().join("r.html"), ReplaySelection::All).unwrap_err();
        assert!(chain(&err).contains("results.jsonl:1"), "{}", chain(&err));
    }

    #[test]
    fn missing_replays_are_warnings_and_present_ones_get_pages() {
        let dir = tempfile::tempdir().unwrap();
        let replays = dir.path().join("replays");
        std::fs::create_dir_all(&replays).unwrap();
        // A minimal replay: just a header.
        let header = crate::replay::Record::Header(test_header(1));
        std::fs::write(
            replays.join("match-000000.jsonl"),
            serde_json::to_string(&header).unwrap() + "\n",
        )
        .unwrap();
        let mut text = String::new();
        for r in [
            record(0, ["a", "b"], 1, Some("replays/match-000000.jsonl")),
            record(1, ["b", "a"], 1, Some("replays/match-000001.jsonl")),
        ] {
            text.push_str(&serde_json::to_string(&r).unwrap());
            text.push('\n');
        }
        std::fs::write(dir.path().join("results.jsonl"), text).unwrap();
        let out = dir.path().join("site").join("report.html");
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        let summary = write_report(dir.path(), &out, ReplaySelection::All).unwrap();
        assert_eq!(summary.matches, 2);
        assert_eq!(summary.pages, 1);
        assert_eq!(summary.warnings.len(), 1);
        assert!(summary.warnings[0].contains("match-000001.jsonl"));
        let pages = dir.path().join("site").join("report_replays");
        assert!(pages.join("match-000000.html").is_file());
        let replay_page = std::fs::read_to_string(pages.join("match-000000.html")).unwrap();
        assert!(replay_page.contains(r#""back":{"href":"../report.html""#));
        // The page uses the shared viewer beside it.
        assert!(replay_page.contains(r#"<script src="viewer.js"></script>"#));
        assert!(pages.join("viewer.js").is_file() && pages.join("viewer.css").is_file());
        let json = embedded_json(&std::fs::read_to_string(&out).unwrap());
        assert_eq!(
            json["matches"][0]["page"],
            "report_replays/match-000000.html"
        );
        assert_eq!(json["matches"][1]["page"], serde_json::Value::Null);
    }

    #[test]
    fn replay_selections_parse_and_spread_evenly() {
        assert_eq!(parse_replays("all"), Ok(ReplaySelection::All));
        assert_eq!(parse_replays("none"), Ok(ReplaySelection::None));
        assert_eq!(parse_replays("sample:3"), Ok(ReplaySelection::Sample(3)));
        for bad in ["sample:0", "sample:", "sample:x", "some", "", "sample:-1"] {
            let err = parse_replays(bad).unwrap_err().to_string();
            assert!(err.contains("sample:N"), "{bad}: {err}");
        }
        let picked = |s: ReplaySelection, n: usize| -> Vec<usize> {
            s.chosen(n)
                .iter()
                .enumerate()
                .filter(|(_, c)| **c)
                .map(|(i, _)| i)
                .collect()
        };
        assert_eq!(picked(ReplaySelection::Sample(3), 12), vec![0, 4, 8]);
        assert_eq!(picked(ReplaySelection::Sample(5), 3), vec![0, 1, 2]);
        assert_eq!(picked(ReplaySelection::Sample(4), 4), vec![0, 1, 2, 3]);
        assert_eq!(picked(ReplaySelection::None, 4), Vec::<usize>::new());
        assert_eq!(picked(ReplaySelection::All, 2), vec![0, 1]);
        assert_eq!(picked(ReplaySelection::Sample(7), 120).len(), 7);
    }

    /// A tournament directory of `count` matches, each with a header-only replay.
    fn tournament_dir(count: u64) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let replays = dir.path().join("replays");
        std::fs::create_dir_all(&replays).unwrap();
        let mut header = test_header(u64::MAX);
        let mut results = String::new();
        for index in 0..count {
            header.seed = u64::MAX - index;
            let name = format!("replays/match-{index:06}.jsonl");
            std::fs::write(
                dir.path().join(&name),
                serde_json::to_string(&crate::replay::Record::Header(header.clone())).unwrap()
                    + "\n",
            )
            .unwrap();
            let r = record(index, ["a", "b"], 1, Some(&name));
            results.push_str(&serde_json::to_string(&r).unwrap());
            results.push('\n');
        }
        std::fs::write(dir.path().join("results.jsonl"), results).unwrap();
        dir
    }

    #[test]
    fn left_out_replays_are_marked_and_old_pages_removed() {
        let dir = tournament_dir(6);
        let out = dir.path().join("report.html");
        let pages = dir.path().join("report_replays");
        let summary = write_report(dir.path(), &out, ReplaySelection::All).unwrap();
        assert_eq!((summary.pages, summary.omitted), (6, 0));
        // A file of the user's in the folder is never touched.
        std::fs::write(pages.join("notes.html"), "mine").unwrap();

        let summary = write_report(dir.path(), &out, ReplaySelection::Sample(2)).unwrap();
        assert_eq!((summary.pages, summary.omitted), (2, 4));
        let mut left: Vec<String> = std::fs::read_dir(&pages)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "match-000000.html",
                "match-000003.html",
                "notes.html",
                "viewer.css",
                "viewer.js"
            ]
        );
        let json = embedded_json(&std::fs::read_to_string(&out).unwrap());
        assert_eq!(
            json["matches"][3]["page"],
            "report_replays/match-000003.html"
        );
        assert_eq!(json["matches"][1]["page"], serde_json::Value::Null);
        assert_eq!(json["matches"][1]["omitted"], true);
        assert!(json["matches"][0].get("omitted").is_none());

        let summary = write_report(dir.path(), &out, ReplaySelection::None).unwrap();
        assert_eq!((summary.pages, summary.omitted), (0, 6));
        assert!(summary.pages_dir.is_none());
        assert!(!pages.join("match-000000.html").exists());
        assert!(pages.join("notes.html").exists());
    }

    #[test]
    fn a_bad_replay_is_named_by_file_and_line() {
        let dir = tournament_dir(2);
        let replay = dir.path().join("replays/match-000001.jsonl");
        let mut text = std::fs::read_to_string(&replay).unwrap();
        text.push_str("{\"type\":\"nonsense\"}\n");
        std::fs::write(&replay, text).unwrap();
        let err =
            write_report(dir.path(), &dir.path().join("r.html"), ReplaySelection::All).unwrap_err();
        assert!(
            chain(&err).contains("match-000001.jsonl:2"),
            "{}",
            chain(&err)
        );
    }
}
