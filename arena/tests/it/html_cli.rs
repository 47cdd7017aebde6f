//! `arena replay html` and `arena report` from the command line, without a browser: the pages
//! are written, self-contained, and errors name the file at fault.

use crate::common;

use std::path::Path;

use common::{python_bot, run_arena, stderr, stdout};

fn p(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// The text between `<script type="application/json" id="ID">` and its end, parsed.
fn embedded(page: &str, id: &str) -> serde_json::Value {
    let open = format!(r#"<script type="application/json" id="{id}">"#);
    let start = page.find(&open).expect("data element") + open.len();
    let end = start + page[start..].find("</script>").expect("end of data");
    serde_json::from_str(&page[start..end]).expect("the embedded data is JSON")
}

fn assert_self_contained(page: &str) {
    for external in [
        "http://",
        "https://",
        "//fonts",
        "src=\"",
        "<link rel=\"stylesheet\"",
    ] {
        // The only URL-like text allowed is the SVG namespace, which is not fetched.
        let found = page
            .match_indices(external)
            .filter(|(i, _)| !page[*i..].starts_with("http://www.w3.org/2000/svg"))
            .count();
        assert_eq!(found, 0, "the page refers to {external}");
    }
}

#[test]
fn replay_html_writes_a_self_contained_page_of_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("m.jsonl");
    let bot = python_bot("sample-bots/python/minimal_bot.py");
    let output = run_arena(&[
        "match",
        "--game",
        "closest-555",
        "--hands",
        "3",
        "--seed",
        "4",
        "--bot",
        &bot,
        "--bot",
        &bot,
        "--replay",
        p(&replay),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));

    let page = dir.path().join("m.html");
    let output = run_arena(&["replay", "html", p(&replay), "--output", p(&page)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("3 hands"), "{}", stdout(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    assert_self_contained(&html);
    let data = embedded(&html, "replay-data");
    let lines = std::fs::read_to_string(&replay).unwrap().lines().count();
    assert_eq!(data["records"].as_array().unwrap().len(), lines);
    assert_eq!(data["source"], "m.jsonl");
}

#[test]
fn replay_html_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nowhere.jsonl");
    let output = run_arena(&["replay", "html", p(&missing), "-o", "x.html"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("nowhere.jsonl"),
        "{}",
        stderr(&output)
    );

    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"type\":\"header\"}\n").unwrap();
    let output = run_arena(&["replay", "html", p(&bad), "-o", "x.html"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("bad.jsonl:1"),
        "{}",
        stderr(&output)
    );

    let output = run_arena(&["replay", "html", p(&bad)]);
    assert_eq!(output.status.code(), Some(2), "-o is required");
}

#[test]
fn report_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let output = run_arena(&["report", p(dir.path()), "-o", p(&dir.path().join("r.html"))]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("results.jsonl"),
        "{}",
        stderr(&output)
    );

    std::fs::write(dir.path().join("results.jsonl"), "{}\n{}\n").unwrap();
    let output = run_arena(&["report", p(dir.path()), "-o", p(&dir.path().join("r.html"))]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("results.jsonl:1"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn report_of_an_empty_tournament_is_still_a_page() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("results.jsonl"), "").unwrap();
    let report = dir.path().join("r.html");
    let output = run_arena(&["report", p(dir.path()), "-o", p(&report)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&report).unwrap();
    assert_self_contained(&html);
    let data = embedded(&html, "report-data");
    assert_eq!(data["standings"]["matches"], 0);
    assert_eq!(data["matches"], serde_json::json!([]));
    assert!(!dir.path().join("r_replays").exists());
}
