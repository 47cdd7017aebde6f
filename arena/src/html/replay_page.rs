//! Replay pages. `arena replay html` writes a self-contained one: `assets/replay.html` with the
//! styles and the viewer script inlined, and the replay's records embedded as JSON in
//! `<script type="application/json" id="replay-data">`.
//!
//! A report's replay pages share one viewer instead: each page links `viewer.css` and
//! `viewer.js` beside it (written once per report), and embeds its replay file's lines gzipped
//! and base64-encoded (`replay_gzip_base64` in the same JSON element), which the viewer
//! decompresses in the browser. A contest server's replay pages are made the same way from
//! records ([`linked_replay_page`]), linking the viewer where the server serves it. Either way
//! the script interprets the records in the browser; nothing is fetched from the network.

use std::path::Path;

use serde::Serialize;

use super::compress::gzip_base64;
use super::error::ReplayPageError;
use super::template::{escape_html, fill, json_for_script};
use crate::replay::{Header, Record, ReplayReadError};

const TEMPLATE: &str = include_str!("../../assets/replay.html");
const COMMON_CSS: &str = include_str!("../../assets/common.css");
const REPLAY_CSS: &str = include_str!("../../assets/replay.css");
const EXACT_JSON_JS: &str = include_str!("../../assets/exact_json.js");
const REPLAY_JS: &str = include_str!("../../assets/replay.js");

/// The shared viewer's files, in the folder of a report's replay pages.
pub const VIEWER_JS: &str = "viewer.js";
pub const VIEWER_CSS: &str = "viewer.css";

/// Where a page that does not inline the viewer finds its script and styles (URLs, as
/// written in the page's `src` and `href`; escaped there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewerLinks<'a> {
    pub script: &'a str,
    pub style: &'a str,
}

impl ViewerLinks<'static> {
    /// A report's: the files beside the page ([`write_shared_viewer`]).
    pub const BESIDE: ViewerLinks<'static> = ViewerLinks {
        script: VIEWER_JS,
        style: VIEWER_CSS,
    };
}

/// A link shown at the top of a replay page (e.g. back to the tournament report).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BackLink {
    /// A relative URL, already percent-encoded.
    pub href: String,
    pub label: String,
}

/// What a replay page shows besides the records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayPageOptions {
    /// The replay file's name, shown in the footer.
    pub source: Option<String>,
    pub back: Option<BackLink>,
}

/// The JSON embedded in the page: the records themselves, or (in a report's pages) the replay
/// file's lines compressed. Later additions (per-step times, logs) are more records: the
/// viewer skips record types it does not know.
#[derive(Serialize)]
struct PageData<'a> {
    source: Option<&'a str>,
    back: Option<&'a BackLink>,
    #[serde(skip_serializing_if = "Option::is_none")]
    records: Option<&'a [serde_json::Value]>,
    /// The replay file (JSON lines), gzipped, base64.
    #[serde(skip_serializing_if = "Option::is_none")]
    replay_gzip_base64: Option<String>,
}

/// The page's title: the game, the bots (their number at a big table) and the seed.
pub fn replay_title(header: &Header) -> String {
    let bots = if header.bots.len() <= 4 {
        let names: Vec<&str> = header.bots.iter().map(|b| b.name.as_str()).collect();
        names.join(" vs ")
    } else {
        format!("{} bots", header.bots.len())
    };
    format!("{}: {bots} (seed {})", header.settings.variant, header.seed)
}

/// The viewer script as one file: exact JSON parsing, then the viewer (what a page linking
/// it through [`ViewerLinks`] must find there).
pub fn viewer_script() -> String {
    format!("{EXACT_JSON_JS}\n{REPLAY_JS}")
}

/// The viewer's styles as one file.
pub fn viewer_style() -> String {
    format!("{COMMON_CSS}\n{REPLAY_CSS}")
}

fn fill_page(
    header: &Header,
    style: &str,
    script: &str,
    data: &PageData,
) -> Result<String, ReplayPageError> {
    Ok(fill(
        TEMPLATE,
        &[
            ("TITLE", &escape_html(&replay_title(header))),
            (
                "GENERATOR",
                &escape_html(&format!("arena {}", env!("CARGO_PKG_VERSION"))),
            ),
            ("STYLE", style),
            ("SCRIPT", script),
            (
                "DATA",
                &json_for_script(data).map_err(ReplayPageError::Encode)?,
            ),
        ],
    )?)
}

fn header_of(records: &[Record]) -> Result<&Header, ReplayPageError> {
    match records.first() {
        Some(Record::Header(header)) => Ok(header),
        _ => Err(ReplayPageError::NoHeader),
    }
}

/// A record as the viewer gets it: its JSON line, with what the viewer shows beyond the
/// records themselves (a Lallan Kallan deal's wild card, the values at a sideshow; see
/// [`crate::replay::annotated_line`]).
fn viewer_line(settings: &protocol::Settings, record: &Record) -> Result<String, ReplayPageError> {
    match crate::replay::annotated_line(settings, record) {
        Some(line) => Ok(line),
        None => serde_json::to_string(record).map_err(ReplayPageError::Encode),
    }
}

/// The live view's page (`--watch`): the viewer, with no records; it gets them from the
/// server that serves it, as server-sent events.
pub fn live_page() -> Result<String, ReplayPageError> {
    Ok(fill(
        TEMPLATE,
        &[
            ("TITLE", "arena: live"),
            (
                "GENERATOR",
                &escape_html(&format!("arena {}", env!("CARGO_PKG_VERSION"))),
            ),
            ("STYLE", &format!("<style>\n{}\n</style>", viewer_style())),
            (
                "SCRIPT",
                &format!("<script>\n{}\n</script>", viewer_script()),
            ),
            (
                "DATA",
                &json_for_script(&serde_json::json!({ "live": true }))
                    .map_err(ReplayPageError::Encode)?,
            ),
        ],
    )?)
}

/// The self-contained HTML page of a replay. The records must start with a header.
pub fn replay_page(
    records: &[Record],
    options: &ReplayPageOptions,
) -> Result<String, ReplayPageError> {
    let header = header_of(records)?;
    let records = records
        .iter()
        .map(|r| {
            serde_json::from_str(&viewer_line(&header.settings, r)?)
                .map_err(ReplayPageError::Encode)
        })
        .collect::<Result<Vec<serde_json::Value>, _>>()?;
    let data = PageData {
        source: options.source.as_deref(),
        back: options.back.as_ref(),
        records: Some(&records),
        replay_gzip_base64: None,
    };
    fill_page(
        header,
        &format!("<style>\n{}\n</style>", viewer_style()),
        &format!("<script>\n{}\n</script>", viewer_script()),
        &data,
    )
}

/// What [`shared_replay_page`] reads of every line: its record type; the rest of the line is
/// only checked to be JSON (parsing every event whole took 40% of a report), but for the
/// events the viewer shows more of (`crate::replay::annotate_line`).
#[derive(serde::Deserialize)]
struct LineKind<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
}

const RECORD_TYPES: [&str; 6] = ["header", "bot", "event", "action", "fault", "result"];

/// A replay page of a report: it links the shared viewer ([`write_shared_viewer`], in the same
/// folder) and embeds `text`, the replay file's lines, compressed. Every line is checked to be
/// a record of a known type (so that a bad replay is refused here, naming `path` and the line,
/// rather than in a browser); the header and the lines the viewer shows more of (see
/// [`crate::replay::annotate`]) are read whole, and the others embedded as they are.
pub fn shared_replay_page(
    text: &str,
    path: &Path,
    options: &ReplayPageOptions,
) -> Result<String, ReplayPageError> {
    let mut lines = String::with_capacity(text.len() + text.len() / 32);
    let mut header: Option<Header> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |source| ReplayPageError::BadRecord {
            replay: path.to_path_buf(),
            line: i + 1,
            source,
        };
        let kind: LineKind = serde_json::from_str(line).map_err(bad)?;
        if !RECORD_TYPES.contains(&kind.kind.as_ref()) {
            return Err(ReplayPageError::UnknownRecordType {
                replay: path.to_path_buf(),
                line: i + 1,
                kind: kind.kind.into_owned(),
            });
        }
        match &header {
            None if kind.kind == "header" => {
                let Record::Header(h) = serde_json::from_str(line).map_err(bad)? else {
                    return Err(ReplayPageError::NotAHeader {
                        replay: path.to_path_buf(),
                        line: i + 1,
                    });
                };
                header = Some(h);
            }
            None => return Err(ReplayPageError::NoHeader),
            Some(h) if kind.kind == "event" => {
                if let Some(annotated) =
                    crate::replay::annotate_line(&h.settings, line).map_err(bad)?
                {
                    lines.push_str(&annotated);
                    lines.push('\n');
                    continue;
                }
            }
            Some(_) => {}
        }
        lines.push_str(line);
        lines.push('\n');
    }
    let Some(header) = header else {
        return Err(ReplayPageError::NoHeader);
    };
    compressed_page(&header, &lines, options, ViewerLinks::BESIDE)
}

/// A replay page linking the viewer at `links` and embedding `records` as JSON lines,
/// compressed, as a report's replay pages do (a contest server's: the records' JSON is ten
/// times the size of its gzip, and the viewer is served once for every page). The records
/// must start with a header.
pub fn linked_replay_page(
    records: &[Record],
    options: &ReplayPageOptions,
    links: ViewerLinks,
) -> Result<String, ReplayPageError> {
    let header = header_of(records)?;
    let mut lines = String::new();
    for record in records {
        lines.push_str(&viewer_line(&header.settings, record)?);
        lines.push('\n');
    }
    compressed_page(header, &lines, options, links)
}

/// The page of a replay's `lines` (JSON lines, annotated), gzipped and base64-encoded in its
/// data element, with the viewer linked at `links`.
fn compressed_page(
    header: &Header,
    lines: &str,
    options: &ReplayPageOptions,
    links: ViewerLinks,
) -> Result<String, ReplayPageError> {
    let data = PageData {
        source: options.source.as_deref(),
        back: options.back.as_ref(),
        records: None,
        replay_gzip_base64: Some(gzip_base64(lines.as_bytes())),
    };
    fill_page(
        header,
        &format!(
            r#"<link rel="stylesheet" href="{}">"#,
            escape_html(links.style)
        ),
        &format!(r#"<script src="{}"></script>"#, escape_html(links.script)),
        &data,
    )
}

/// Writes the shared viewer's script and styles into `dir`.
pub fn write_shared_viewer(dir: &Path) -> Result<(), ReplayPageError> {
    for (name, text) in [(VIEWER_JS, viewer_script()), (VIEWER_CSS, viewer_style())] {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|source| ReplayPageError::WriteViewer { path, source })?;
    }
    Ok(())
}

fn source_name(input: &Path) -> Option<String> {
    input
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
}

/// Reads the replay `input` and writes its self-contained page to `output`; errors name the
/// file. Returns the number of hands in the replay.
pub fn write_replay_page(
    input: &Path,
    output: &Path,
    back: Option<BackLink>,
) -> Result<u64, ReplayPageError> {
    let records = crate::replay::read(input)?;
    let source = source_name(input);
    let page = replay_page(&records, &ReplayPageOptions { source, back })
        .map_err(|e| e.of_replay(input))?;
    crate::console::output::create_parent(output)?;
    write_page(output, page)?;
    Ok(hands_in(&records))
}

/// Reads the replay `input` and writes its page for a report to `output` (the shared viewer
/// must be in the same folder); errors name the file.
pub fn write_shared_replay_page(
    input: &Path,
    output: &Path,
    back: Option<BackLink>,
) -> Result<(), ReplayPageError> {
    let text = std::fs::read_to_string(input).map_err(|source| ReplayReadError::Read {
        path: input.to_path_buf(),
        source,
    })?;
    let source = source_name(input);
    let page = shared_replay_page(&text, input, &ReplayPageOptions { source, back })
        .map_err(|e| e.of_replay(input))?;
    write_page(output, page)
}

fn write_page(path: &Path, page: String) -> Result<(), ReplayPageError> {
    std::fs::write(path, page).map_err(|source| ReplayPageError::Write {
        path: path.to_path_buf(),
        source,
    })
}

impl ReplayPageError {
    /// This error of making a page, said as the page of `replay` that could not be made.
    fn of_replay(self, replay: &Path) -> ReplayPageError {
        ReplayPageError::Page {
            replay: replay.to_path_buf(),
            source: Box::new(self),
        }
    }
}

/// Distinct hands that have events.
fn hands_in(records: &[Record]) -> u64 {
    let mut hands: Vec<u64> = records
        .iter()
        .filter_map(|r| match r {
            Record::Event { hand, .. } => Some(*hand),
            _ => None,
        })
        .collect();
    hands.dedup();
    hands.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::console::output::chain;
    use crate::replay::BotRecord;
    use protocol::{Settings, TimeLimits, Variant};

    fn header(names: &[&str]) -> Record {
        Record::Header(Header {
            format: crate::replay::REPLAY_FORMAT.into(),
            version: crate::replay::REPLAY_VERSION,
            protocol: 1,
            deal: "test".into(),
            arena_version: "0".into(),
            settings: Settings::new(Variant::Closest555),
            seed: 7,
            hands: 1,
            first_hand: 0,
            first_dealer: 0,
            time: TimeLimits {
                startup_ms: 1,
                decision_ms: 1,
                bank_ms: 1,
            },
            bots: names
                .iter()
                .enumerate()
                .map(|(seat, name)| BotRecord {
                    seat,
                    name: name.to_string(),
                    command: vec![name.to_string()],
                })
                .collect(),
        })
    }

    fn event(hand: u64, json: serde_json::Value) -> Record {
        Record::Event {
            hand,
            event: serde_json::from_value(json).expect("an engine event"),
        }
    }

    /// The JSON between the data element's tags.
    fn embedded_json(page: &str) -> serde_json::Value {
        let open = r#"<script type="application/json" id="replay-data">"#;
        let start = page.find(open).expect("data element") + open.len();
        let end = start + page[start..].find("</script>").expect("end of data");
        serde_json::from_str(&page[start..end]).expect("embedded JSON parses")
    }

    #[test]
    fn the_page_is_self_contained_and_embeds_every_record() {
        let records = vec![
            header(&["alpha", "beta"]),
            event(
                0,
                serde_json::json!({"event": "hand_started", "dealer": 0, "seats": 2, "boot": 1, "pot": 2, "stake": 1}),
            ),
        ];
        let page = replay_page(&records, &ReplayPageOptions::default()).unwrap();
        assert!(page.starts_with("<!doctype html>"));
        assert!(page.contains("<title>closest-555: alpha vs beta (seed 7)</title>"));
        assert!(!page.contains("{{"), "unfilled placeholder");
        for external in ["http://", "https://", "<link rel=\"stylesheet\"", "src=\""] {
            assert!(!page.contains(external), "page refers to {external}");
        }
        let data = embedded_json(&page);
        assert_eq!(data["records"].as_array().unwrap().len(), 2);
        assert_eq!(data["records"][1]["event"], "hand_started");
        assert_eq!(data["records"][0]["bots"][1]["name"], "beta");
        // The script and the styles are inline.
        assert!(page.contains("function buildMatch"));
        assert!(page.contains(".felt {"));
    }

    #[test]
    fn names_cannot_break_out_of_the_page() {
        let evil = "</script><script>alert(1)</script><!--";
        let records = vec![header(&[evil, "b & <c>"])];
        let page = replay_page(
            &records,
            &ReplayPageOptions {
                source: Some("x</script>.jsonl".into()),
                back: Some(BackLink {
                    href: "../r.html".into(),
                    label: "</script>".into(),
                }),
            },
        )
        .unwrap();
        // Exactly the two script elements of the template end.
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(page.contains("&lt;/script&gt;&lt;script&gt;alert(1)"));
        let data = embedded_json(&page);
        assert_eq!(data["records"][0]["bots"][0]["name"], evil);
        assert_eq!(data["source"], "x</script>.jsonl");
        assert_eq!(data["back"]["label"], "</script>");
    }

    #[test]
    fn a_report_page_links_the_shared_viewer_and_embeds_its_replay_compressed() {
        let mut head = header(&["alpha", "beta"]);
        if let Record::Header(h) = &mut head {
            h.seed = u64::MAX;
            h.settings = Settings::new(Variant::LallanKallan);
        }
        let deal = serde_json::json!({"event": "dealt", "seat": 0, "redeal": 0, "cards": ["Kh", "Kd", "5s"]});
        let lines = [
            serde_json::to_string(&head).unwrap(),
            serde_json::to_string(&event(0, deal)).unwrap(),
            r#"{"type":"action","hand":0,"seat":0,"kind":"bet","action":"pack","source":"bot"}"#
                .to_string(),
        ];
        let text = lines.join("\n") + "\n";
        let page =
            shared_replay_page(&text, Path::new("m.jsonl"), &ReplayPageOptions::default()).unwrap();
        assert!(page.contains(r#"<script src="viewer.js"></script>"#));
        assert!(page.contains(r#"<link rel="stylesheet" href="viewer.css">"#));
        assert!(
            !page.contains("function buildMatch"),
            "the viewer is not inline"
        );
        // The exact seed in the title.
        assert!(page.contains("(seed 18446744073709551615)</title>"));
        let data = embedded_json(&page);
        assert!(data.get("records").is_none());
        let embedded =
            super::super::compress::gunzip_base64(data["replay_gzip_base64"].as_str().unwrap());
        let embedded: Vec<&str> = embedded.lines().collect();
        // The header and the action line as they were; the deal names its wild card.
        assert_eq!(embedded[0], lines[0]);
        assert!(embedded[0].contains(r#""seed":18446744073709551615"#));
        assert_eq!(embedded[2], lines[2]);
        let dealt: serde_json::Value = serde_json::from_str(embedded[1]).unwrap();
        assert_eq!(dealt["wild"], "5s");
        assert_eq!(dealt["cards"], serde_json::json!(["Kh", "Kd", "5s"]));
    }

    #[test]
    fn a_linked_page_embeds_the_records_compressed_and_links_the_viewer_where_told() {
        let mut head = header(&["alpha", "</script>"]);
        if let Record::Header(h) = &mut head {
            h.settings = Settings::new(Variant::LallanKallan);
        }
        let deal = serde_json::json!({"event": "dealt", "seat": 0, "redeal": 0, "cards": ["Kh", "Kd", "5s"]});
        let records = vec![head.clone(), event(0, deal)];
        let links = ViewerLinks {
            script: "/assets/viewer.js?a&b",
            style: "/assets/viewer.css",
        };
        let page = linked_replay_page(&records, &ReplayPageOptions::default(), links).unwrap();
        assert!(page.contains(r#"<script src="/assets/viewer.js?a&amp;b"></script>"#));
        assert!(page.contains(r#"<link rel="stylesheet" href="/assets/viewer.css">"#));
        assert!(!page.contains("function buildMatch"));
        assert_eq!(
            page.matches("</script>").count(),
            2,
            "names stay in the data"
        );
        let data = embedded_json(&page);
        assert!(data.get("records").is_none());
        let embedded =
            super::super::compress::gunzip_base64(data["replay_gzip_base64"].as_str().unwrap());
        let embedded: Vec<serde_json::Value> = embedded
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(embedded.len(), 2);
        assert_eq!(embedded[0], serde_json::to_value(&head).unwrap());
        // Annotated as the inline page's records are: the deal names its wild card.
        assert_eq!(embedded[1]["event"], "dealt");
        assert_eq!(embedded[1]["wild"], "5s");
        let err =
            linked_replay_page(&records[1..], &ReplayPageOptions::default(), links).unwrap_err();
        assert!(err.to_string().contains("header"), "{err}");
    }

    #[test]
    fn a_shared_page_of_a_bad_replay_names_the_line() {
        let text = serde_json::to_string(&header(&["a", "b"])).unwrap() + "\n\nnot json\n";
        let err = shared_replay_page(&text, Path::new("x.jsonl"), &ReplayPageOptions::default())
            .unwrap_err();
        assert!(chain(&err).contains("x.jsonl:3"), "{}", chain(&err));
        let err = shared_replay_page(
            "{\"type\":\"event\",\"hand\":0,\"event\":\"kept\",\"seat\":0}\n",
            Path::new("x.jsonl"),
            &ReplayPageOptions::default(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("header"), "{err}");
        let err = shared_replay_page("", Path::new("x.jsonl"), &ReplayPageOptions::default())
            .unwrap_err();
        assert!(err.to_string().contains("header"), "{err}");
    }

    #[test]
    fn a_replay_without_a_header_is_refused() {
        let err = replay_page(&[], &ReplayPageOptions::default()).unwrap_err();
        assert!(err.to_string().contains("header"), "{err}");
    }

    #[test]
    fn assets_never_close_their_own_element() {
        for (name, text) in [
            ("replay.js", REPLAY_JS),
            ("exact_json.js", EXACT_JSON_JS),
            ("common.css", COMMON_CSS),
            ("replay.css", REPLAY_CSS),
        ] {
            let lower = text.to_ascii_lowercase();
            assert!(!lower.contains("</script"), "{name} contains </script");
            assert!(!lower.contains("</style"), "{name} contains </style");
            assert!(!lower.contains("{{"), "{name} contains a placeholder");
        }
    }

    #[test]
    fn errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.jsonl");
        let err = write_replay_page(&missing, &dir.path().join("out.html"), None).unwrap_err();
        assert!(chain(&err).contains("missing.jsonl"), "{}", chain(&err));

        let bad = dir.path().join("bad.jsonl");
        std::fs::write(&bad, "{\"type\":\"nonsense\"}\n").unwrap();
        let err = write_replay_page(&bad, &dir.path().join("out.html"), None).unwrap_err();
        assert!(chain(&err).contains("bad.jsonl:1"), "{}", chain(&err));

        let headless = dir.path().join("headless.jsonl");
        std::fs::write(
            &headless,
            "{\"type\":\"event\",\"hand\":0,\"event\":\"kept\",\"seat\":0}\n",
        )
        .unwrap();
        let err = write_replay_page(&headless, &dir.path().join("out.html"), None).unwrap_err();
        assert!(chain(&err).contains("headless.jsonl"), "{}", chain(&err));

        let good = dir.path().join("good.jsonl");
        std::fs::write(
            &good,
            serde_json::to_string(&header(&["a", "b"])).unwrap() + "\n",
        )
        .unwrap();
        // A missing folder is created; a file where the folder should be is an error.
        let created = dir.path().join("no-such-dir").join("out.html");
        write_replay_page(&good, &created, None).unwrap();
        assert!(created.is_file());
        let blocker = dir.path().join("a-file");
        std::fs::write(&blocker, "").unwrap();
        let err = write_replay_page(&good, &blocker.join("out.html"), None).unwrap_err();
        assert!(chain(&err).contains("a-file"), "{}", chain(&err));
    }
}
