//! `arena replay html`: one self-contained HTML page that replays a match.
//!
//! The page is `assets/replay.html` with the styles and the viewer script inlined, and the
//! replay's records embedded as JSON in `<script type="application/json" id="replay-data">`.
//! The script interprets the records in the browser; nothing is fetched from anywhere.

use std::path::Path;

use anyhow::{Context, bail};
use serde::Serialize;

use super::template::{escape_html, fill, json_for_script};
use crate::replay::{Header, Record};

const TEMPLATE: &str = include_str!("../../assets/replay.html");
const COMMON_CSS: &str = include_str!("../../assets/common.css");
const REPLAY_CSS: &str = include_str!("../../assets/replay.css");
const REPLAY_JS: &str = include_str!("../../assets/replay.js");

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

/// The JSON embedded in the page.
#[derive(Serialize)]
struct PageData<'a> {
    source: Option<&'a str>,
    back: Option<&'a BackLink>,
    records: &'a [Record],
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

/// The HTML page of a replay. The records must start with a header.
pub fn replay_page(records: &[Record], options: &ReplayPageOptions) -> anyhow::Result<String> {
    let Some(Record::Header(header)) = records.first() else {
        bail!("not a replay: the first record is not a header");
    };
    let data = PageData {
        source: options.source.as_deref(),
        back: options.back.as_ref(),
        records,
    };
    let style = format!("{COMMON_CSS}\n{REPLAY_CSS}");
    let page = fill(
        TEMPLATE,
        &[
            ("TITLE", &escape_html(&replay_title(header))),
            (
                "GENERATOR",
                &escape_html(&format!("arena {}", env!("CARGO_PKG_VERSION"))),
            ),
            ("STYLE", &style),
            ("SCRIPT", REPLAY_JS),
            ("DATA", &json_for_script(&data)?),
        ],
    )
    .map_err(anyhow::Error::msg)?;
    Ok(page)
}

/// Reads the replay `input` and writes its page to `output`; errors name the file.
/// Returns the number of hands in the replay.
pub fn write_replay_page(
    input: &Path,
    output: &Path,
    back: Option<BackLink>,
) -> anyhow::Result<u64> {
    let records = crate::replay::read(input)?;
    let source = input
        .file_name()
        .map(|name| name.to_string_lossy().into_owned());
    let page = replay_page(&records, &ReplayPageOptions { source, back })
        .with_context(|| format!("{}: cannot make a replay page", input.display()))?;
    crate::output::create_parent(output)?;
    std::fs::write(output, page)
        .with_context(|| format!("cannot write the replay page {}", output.display()))?;
    Ok(hands_in(&records))
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

/// `arena replay html FILE -o OUT`.
pub fn cmd_replay_html(file: &Path, output: &Path) -> anyhow::Result<()> {
    let hands = write_replay_page(file, output, None)?;
    crate::output::print(&format!(
        "{}: replay page of {} ({hands} hands)\n",
        output.display(),
        file.display()
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
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
        Record::Event { hand, event: json }
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
    fn a_replay_without_a_header_is_refused() {
        let err = replay_page(&[], &ReplayPageOptions::default()).unwrap_err();
        assert!(err.to_string().contains("header"), "{err}");
    }

    #[test]
    fn assets_never_close_their_own_element() {
        for (name, text) in [
            ("replay.js", REPLAY_JS),
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
        assert!(format!("{err:#}").contains("missing.jsonl"), "{err:#}");

        let bad = dir.path().join("bad.jsonl");
        std::fs::write(&bad, "{\"type\":\"nonsense\"}\n").unwrap();
        let err = write_replay_page(&bad, &dir.path().join("out.html"), None).unwrap_err();
        assert!(format!("{err:#}").contains("bad.jsonl:1"), "{err:#}");

        let headless = dir.path().join("headless.jsonl");
        std::fs::write(
            &headless,
            "{\"type\":\"event\",\"hand\":0,\"event\":\"kept\",\"seat\":0}\n",
        )
        .unwrap();
        let err = write_replay_page(&headless, &dir.path().join("out.html"), None).unwrap_err();
        assert!(format!("{err:#}").contains("headless.jsonl"), "{err:#}");

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
        assert!(format!("{err:#}").contains("a-file"), "{err:#}");
    }
}
