//! Gauntlet grading end to end, with the real reference bots and the pass marks of
//! `tournaments/classroom-gauntlet.toml`: a candidate passes against a reference bot only when
//! the lower end of the 95% interval of its edge is above the mark. Copies of reference bots
//! and a random bot must fail where they should, a strong bot must pass; grades reach
//! grades.json, `arena standings` and the HTML report. And the A/A calibration of
//! `bot_seeds = "independent"`: a random bot against a copy of itself is no mirror then.
//!
//! Fixed tournament seeds make every run deterministic (time limits are far above what the
//! bots need); each outcome asserted here is also far from its threshold for these seeds (the
//! margins are asserted too), so it does not hinge on one lucky deal.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{python_bot, root, run_arena, sample_bot, stderr, stdout};
use serde_json::Value;

use common::{GENEROUS_TIME as TIME, bots_toml};

fn p(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn ok(output: Output, what: &str) -> Output {
    assert!(
        output.status.success(),
        "{what} failed ({:?}):\n{}\n{}",
        output.status,
        stdout(&output),
        stderr(&output)
    );
    output
}

/// Writes `text` as a tournament file in `dir` and plays it into `dir/<name>`.
fn play(dir: &Path, name: &str, text: &str) -> PathBuf {
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, text).unwrap();
    let out = dir.join(name);
    ok(
        run_arena(&[
            "tournament",
            p(&file),
            "--out",
            p(&out),
            "-q",
            "--jobs",
            "2",
        ]),
        "arena tournament",
    );
    out
}

/// The `pass = { ... }` line of the classroom template: the tests grade with its marks.
fn template_marks() -> (String, BTreeMap<String, f64>) {
    let text = read(&root().join("tournaments/classroom-gauntlet.toml"));
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("pass = {"))
        .expect("the template has a pass line")
        .to_string();
    let table: toml::Table = toml::from_str(&line).expect("the pass line is TOML");
    let marks = table["pass"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_float().unwrap()))
        .collect();
    (line, marks)
}

/// The grade of `candidate` against `opponent` in grades.json.
fn grade<'a>(report: &'a Value, candidate: &str, opponent: &str) -> &'a Value {
    report["grades"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["candidate"] == candidate && g["opponent"] == opponent)
        .unwrap_or_else(|| panic!("no grade of {candidate} against {opponent}: {report}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Per duplicate block, `bot`'s net chips summed over the block's matches.
fn block_nets(out: &Path, bot: &str) -> BTreeMap<u64, i64> {
    let mut nets = BTreeMap::new();
    for line in read(&out.join("results.jsonl")).lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        for (seat, name) in r["seats"].as_array().unwrap().iter().enumerate() {
            if name == bot {
                *nets.entry(r["block"].as_u64().unwrap()).or_default() +=
                    r["net"][seat].as_i64().unwrap();
            }
        }
    }
    nets
}

/// The template's game and marks, three candidates against its three reference bots:
/// a copy of the strength bot (must pass everything), a uniformly random bot (must fail the
/// strength mark) and a copy of the passive bot (must fail the passive mark). The Rust
/// random-bot and chaal-bot (the passive bot's strategy) stand in for the Python random and
/// passive bots where they can, to keep the test short; the strength bot is the Python one.
#[test]
fn the_template_marks_pass_the_strong_bot_and_fail_copies_and_random() {
    let (pass_line, marks) = template_marks();
    assert_eq!(
        marks.keys().collect::<Vec<_>>(),
        ["passive", "random", "strength"]
    );
    let dir = tempfile::tempdir().unwrap();
    let strength = python_bot("sample-bots/python/strength_bot.py");
    let text = format!(
        "name = \"grading\"\ngame = \"closest-555\"\nformat = \"gauntlet\"\n\
         candidates = [\"strength-copy\", \"random-student\", \"passive-copy\"]\nseats = 2\n\
         hands = 50\nseed = 42\nrounds = 10\nsandbox = \"none\"\n{TIME}\n[grading]\n{pass_line}\n{}",
        bots_toml(&[
            ("strength-copy", strength.clone()),
            ("random-student", sample_bot("random-bot")),
            ("passive-copy", sample_bot("chaal-bot")),
            ("random", sample_bot("random-bot")),
            ("passive", sample_bot("chaal-bot")),
            ("strength", strength),
        ])
    );
    let out = play(dir.path(), "gauntlet", &text);
    let report = json(&out.join("grades.json"));

    // Every field of every grade.
    assert_eq!(report["grades"].as_array().unwrap().len(), 9, "{report}");
    for g in report["grades"].as_array().unwrap() {
        for field in [
            "candidate",
            "opponent",
            "estimate",
            "lower",
            "upper",
            "blocks",
            "mark",
            "pass",
            "reason",
            "chips_per_hand",
            "hands",
        ] {
            assert!(g.get(field).is_some(), "no {field} in {g}");
        }
        assert_eq!(g["blocks"], 10, "{g}");
        assert_eq!(f(&g["mark"]), marks[g["opponent"].as_str().unwrap()]);
        assert!(f(&g["lower"]) <= f(&g["estimate"]) && f(&g["estimate"]) <= f(&g["upper"]));
        assert_eq!(
            g["pass"].as_bool().unwrap(),
            f(&g["lower"]) > f(&g["mark"]),
            "{g}"
        );
        assert!(!g["reason"].as_str().unwrap().is_empty(), "{g}");
    }
    assert!(report["rule"].as_str().unwrap().contains("lower end"));
    assert!(report["caveat"].as_str().unwrap().contains("1 in 40"));

    // A copy of the passive bot is a perfect mirror: exactly 0 in every block, and a
    // zero-width interval at the mark is not above it.
    let mirror = grade(&report, "passive-copy", "passive");
    assert_eq!(
        (
            f(&mirror["estimate"]),
            f(&mirror["lower"]),
            f(&mirror["upper"])
        ),
        (0.0, 0.0, 0.0),
        "{mirror}"
    );
    assert!(block_nets(&out, "passive-copy").len() == 30);
    assert_eq!(mirror["pass"], false, "{mirror}");
    assert!(mirror["reason"].as_str().unwrap().contains("mirror"));

    // A random bot fails the strength mark: its lower end is far below it.
    let random = grade(&report, "random-student", "strength");
    assert_eq!(random["pass"], false, "{random}");
    assert!(f(&random["mark"]) - f(&random["lower"]) > 0.3, "{random}");

    // The strength bot passes against random and passive with room to spare, and its copy
    // of itself (a mirror at 0) is above the strength mark, which is below 0.
    for opponent in ["random", "passive", "strength"] {
        let g = grade(&report, "strength-copy", opponent);
        assert_eq!(g["pass"], true, "{g}");
    }
    let vs_random = grade(&report, "strength-copy", "random");
    assert!(
        f(&vs_random["lower"]) - f(&vs_random["mark"]) > 0.3,
        "{vs_random}"
    );

    // Verdicts per candidate.
    let verdicts: BTreeMap<String, &Value> = report["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["candidate"].as_str().unwrap().to_string(), v))
        .collect();
    assert_eq!(verdicts["strength-copy"]["passes_all"], true);
    assert_eq!(verdicts["random-student"]["passes_all"], false);
    assert!(
        verdicts["random-student"]["failed"]
            .as_array()
            .unwrap()
            .contains(&Value::from("strength"))
    );
    assert_eq!(verdicts["passive-copy"]["passes_all"], false);
    assert!(
        verdicts["passive-copy"]["failed"]
            .as_array()
            .unwrap()
            .contains(&Value::from("passive"))
    );

    // The gauntlet ranks the candidates only, the strong one first.
    let ranking = &report["gauntlet"]["candidates"];
    assert_eq!(ranking.as_array().unwrap().len(), 3);
    assert_eq!(ranking[0]["candidate"], "strength-copy");
    assert!(
        report["gauntlet"]["note"]
            .as_str()
            .unwrap()
            .contains("never each other")
    );

    // `arena standings DIR` shows the ranking and the grades, and does not rank the field.
    let shown = stdout(&ok(run_arena(&["standings", p(&out)]), "arena standings"));
    eprintln!("{shown}");
    for needle in [
        "Gauntlet: 3 candidate(s) against 3 reference bots",
        "Grades: a candidate passes",
        "random-student: FAIL (against",
        "strength-copy: PASS (all 3 references)",
        "never each other, so they are not ranked",
        // The table under the ranking says what it is, and explains its columns.
        "Every bot's totals, in rating order (the reference bots met only the candidates",
        "  #, rating: order by rating, Bradley-Terry",
    ] {
        assert!(shown.contains(needle), "no {needle:?} in:\n{shown}");
    }
    assert!(!shown.contains("Standings: "), "{shown}");
    assert!(!shown.contains("not a ranking"), "{shown}");
    assert_eq!(shown, read(&out.join("standings.txt")));

    // The HTML report has the ranking and the grades table.
    let html_path = dir.path().join("report.html");
    ok(
        run_arena(&["report", p(&out), "-o", p(&html_path)]),
        "arena report",
    );
    let html = read(&html_path);
    for needle in [
        r#"data-testid="gauntlet-ranking""#,
        r#"data-testid="grades""#,
        r#"data-candidate="passive-copy" data-opponent="passive" data-pass="false""#,
        r#"data-candidate="strength-copy" data-opponent="random" data-pass="true""#,
        "strength-copy</b>: PASS (all 3 references)",
        "never each other",
    ] {
        assert!(html.contains(needle), "no {needle:?} in the report");
    }
}

/// A/A calibration. Under the default per-seat hello seeds, a random bot against a copy of
/// itself is a mirror (both seat orders of a block get the same deals and the same seeds, so
/// they play the same hands move for move): exactly 0 in every block. With
/// `bot_seeds = "independent"` it is not: the blocks differ from 0, and the 95% interval of
/// the edge covers 0, as it should for two equal bots. Independent seeds are still
/// deterministic: the same file plays the same results.
#[test]
fn independent_seeds_make_an_a_a_test_no_mirror() {
    let dir = tempfile::tempdir().unwrap();
    let file = |bot_seeds: &str| {
        format!(
            "game = \"classic\"\nformat = \"gauntlet\"\ncandidates = [\"copy\"]\nseats = 2\n\
             hands = 50\nseed = 2024\nrounds = 12\nsandbox = \"none\"\n{bot_seeds}\n{TIME}\n\
             [grading]\npass = {{ random = 0.0 }}\n{}",
            bots_toml(&[
                ("copy", sample_bot("random-bot")),
                ("random", sample_bot("random-bot")),
            ])
        )
    };

    let per_seat = play(dir.path(), "per-seat", &file(""));
    let nets = block_nets(&per_seat, "copy");
    assert_eq!(nets.len(), 12);
    assert!(nets.values().all(|&n| n == 0), "a mirror: {nets:?}");
    let report = json(&per_seat.join("grades.json"));
    assert_eq!(grade(&report, "copy", "random")["pass"], false);

    let independent = play(
        dir.path(),
        "independent",
        &file("bot_seeds = \"independent\""),
    );
    let nets = block_nets(&independent, "copy");
    assert_eq!(nets.len(), 12);
    let nonzero = nets.values().filter(|&&n| n != 0).count();
    assert!(nonzero >= 10, "no mirror any more: {nets:?}");
    let report = json(&independent.join("grades.json"));
    let g = grade(&report, "copy", "random");
    assert!(
        f(&g["lower"]) < 0.0 && 0.0 < f(&g["upper"]),
        "the 95% interval of an A/A test covers 0: {g}"
    );
    assert!(f(&g["upper"]) > f(&g["lower"]), "{g}");
    assert_eq!(g["pass"], false, "{g}");
    let plan = json(&independent.join("plan.json"));
    assert_eq!(plan["tournament"]["bot_seeds"], "independent");
    // The default is left out of the plan, so older plans keep their fingerprints.
    let plan = json(&per_seat.join("plan.json"));
    assert!(plan["tournament"].get("bot_seeds").is_none(), "{plan}");

    // Deterministic from the tournament seed.
    let again = play(dir.path(), "again", &file("bot_seeds = \"independent\""));
    assert_eq!(block_nets(&again, "copy"), nets);
}
