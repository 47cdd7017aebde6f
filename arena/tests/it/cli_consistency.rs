//! One command line across subcommands: `-o`/`--out` for every output file or folder (the old
//! `--output` still works), `--game` everywhere (`compare --variant` still works), folders of
//! output files created on demand, zero counts refused, every value listed in `--help`,
//! tournament-file errors that name the field, bot commands as TOML arrays, file errors that
//! name the file, and bots that exist but are not executable said to be so.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{GENEROUS_TIME, fails, run_arena, sample_bot, stderr, stdout, toml_string as q};

fn p(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

fn succeeds(args: &[&str]) -> Output {
    let out = run_arena(args);
    assert!(
        out.status.success(),
        "arena {args:?} failed ({:?}): {}",
        out.status,
        stderr(&out)
    );
    out
}

/// A two-hand classic match of the Rust random bot against itself, its replay at `replay`.
fn play_match(replay: &Path) {
    let random = sample_bot("random-bot");
    succeeds(&[
        "match",
        "--game",
        "classic",
        "--hands",
        "2",
        "--seed",
        "5",
        "--bot",
        &random,
        "--bot",
        &random,
        "--replay",
        p(replay),
    ]);
}

/// A two-bot round-robin file of two hands, with `header` lines added and `bots` as written
/// (each a `[[bot]]` entry's lines).
fn tournament_file(dir: &Path, header: &str, bots: &[String]) -> PathBuf {
    let mut text = format!("name = \"t\"\ngame = \"classic\"\nhands = 2\nseed = 9\n{header}\n");
    // Generous time limits, unless the case is about them (a table is given once).
    if !header.contains("[time]") {
        text.push_str(GENEROUS_TIME);
    }
    for bot in bots {
        text.push_str(&format!("\n[[bot]]\n{bot}\n"));
    }
    let file = dir.join("t.toml");
    std::fs::write(&file, text).unwrap();
    file
}

fn random_bots() -> Vec<String> {
    let random = q(&sample_bot("random-bot"));
    vec![
        format!("name = \"a\"\ncommand = {random}"),
        format!("name = \"b\"\ncommand = {random}"),
    ]
}

#[test]
fn out_and_o_and_the_old_output_write_the_same_page_in_new_folders() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("m.jsonl");
    play_match(&replay);
    let mut pages = Vec::new();
    for (i, flag) in ["-o", "--out", "--output"].iter().enumerate() {
        // A folder that does not exist yet, two levels deep.
        let page = dir.path().join(format!("new{i}/deeper/m.html"));
        succeeds(&["replay", "html", p(&replay), flag, p(&page)]);
        pages.push(std::fs::read_to_string(&page).unwrap());
    }
    assert!(pages[0].contains("<html"), "a page: {}", &pages[0][..100]);
    assert!(pages.iter().all(|page| page == &pages[0]));

    // Tournament: -o and --out; report: all three spellings; merge: -o.
    let file = tournament_file(dir.path(), "", &random_bots());
    let short = dir.path().join("runs/short");
    let long = dir.path().join("runs/long");
    succeeds(&["tournament", p(&file), "-o", p(&short), "-q"]);
    succeeds(&["tournament", p(&file), "--out", p(&long), "-q"]);
    // Each match's net chips (the records also hold timings, which vary).
    let results = |d: &Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(d.join("results.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["net"].clone())
            .collect()
    };
    assert_eq!(results(&short).len(), 2);
    assert!(results(&short).iter().all(serde_json::Value::is_array));
    assert_eq!(results(&short), results(&long));
    for (i, flag) in ["-o", "--out", "--output"].iter().enumerate() {
        let report = dir.path().join(format!("reports{i}/r.html"));
        succeeds(&["report", p(&short), flag, p(&report)]);
        assert!(report.is_file());
    }
    let merged = dir.path().join("merged/all");
    succeeds(&["merge", p(&short), "-o", p(&merged)]);
    assert_eq!(results(&merged), results(&short));
}

#[test]
fn compare_takes_game_like_every_other_command_and_still_variant() {
    for flag in ["--game", "--variant"] {
        let out = common::run_arena_with_input(
            &common::root(),
            &["compare", flag, "closest-555"],
            b"[[\"5s\",\"5d\",\"4h\"],[\"5c\",\"5h\",\"7s\"]]\n",
        );
        assert!(out.status.success(), "{flag}: {}", stderr(&out));
        assert!(stdout(&out).contains("\"winners\":[0]"), "{}", stdout(&out));
    }
}

#[test]
fn zero_counts_are_refused_on_the_command_line() {
    let random = sample_bot("random-bot");
    let two_bots = ["--bot", random.as_str(), "--bot", random.as_str()];
    for option in [
        "--hands",
        "--startup-ms",
        "--memory-mb",
        "--processes",
        "--disk-mb",
        "--cpu-seconds",
    ] {
        let mut args = vec!["match", "--game", "classic", option, "0"];
        args.extend(two_bots);
        fails(&args, 2, &[option, "must be at least 1"]);
    }
    let mut args = vec![
        "match",
        "--game",
        "classic",
        "--decision-ms",
        "0",
        "--bank-ms",
        "0",
    ];
    args.extend(two_bots);
    fails(&args, 2, &["--decision-ms 0", "--bank-ms 0"]);
    let demo = common::root().join("tournaments/demo.toml");
    fails(
        &["tournament", p(&demo), "--jobs", "0"],
        2,
        &["--jobs", "must be at least 1"],
    );
    fails(
        &[
            "play", "--game", "classic", "--bot", &random, "--hands", "0",
        ],
        2,
        &["--hands", "must be at least 1"],
    );
    fails(
        &["check-bot", "--decision-ms", "0", "--", &random],
        2,
        &["--decision-ms", "must be at least 1"],
    );
    fails(
        &["run-bot", "--memory-mb", "0", "--", &random],
        2,
        &["--memory-mb", "must be at least 1"],
    );
}

#[test]
fn zero_counts_and_wrong_types_in_a_tournament_file_name_the_field() {
    let dir = tempfile::tempdir().unwrap();
    // (lines added to the file, the line they start on, what the message must say)
    let cases = [
        (
            "[limits]\nprocesses = 0",
            "limits.processes",
            "must be at least 1",
        ),
        (
            "[time]\nstartup_ms = 0",
            "time.startup_ms",
            "must be at least 1",
        ),
        (
            "[table]\nsideshow = 1",
            "table.sideshow",
            "expected true or false, found integer `1`",
        ),
        (
            "[time]\nbank_ms = \"lots\"",
            "time.bank_ms",
            "expected an integer, found string \"lots\"",
        ),
    ];
    for (lines, field, message) in cases {
        let file = tournament_file(dir.path(), lines, &random_bots());
        // The header's 4 lines come first, then the table line, then the key.
        fails(
            &["tournament", p(&file), "-q"],
            2,
            &[&format!("{}:6: field `{field}`: {message}", file.display())],
        );
    }
    // A top-level key: `hands` itself is on line 3.
    let text = format!(
        "name = \"t\"\ngame = \"classic\"\nhands = \"ten\"\n{}",
        random_bots()
            .iter()
            .map(|b| format!("[[bot]]\n{b}\n"))
            .collect::<String>()
    );
    let file = dir.path().join("typo.toml");
    std::fs::write(&file, text).unwrap();
    fails(
        &["tournament", p(&file)],
        2,
        &[&format!(
            "{}:3: field `hands`: expected an integer, found string \"ten\"",
            file.display()
        )],
    );
}

#[test]
fn a_bot_command_given_as_an_array_is_its_argv() {
    let dir = tempfile::tempdir().unwrap();
    // A path with a space and a quote: as one string it would need shell quoting.
    let bot_dir = dir.path().join("a bot's folder");
    std::fs::create_dir(&bot_dir).unwrap();
    let script = bot_dir.join("minimal bot.py");
    std::fs::copy(
        common::root().join("sample-bots/python/minimal_bot.py"),
        &script,
    )
    .unwrap();
    let random = q(&sample_bot("random-bot"));
    let bots = [
        format!(
            "name = \"array\"\ncommand = [\"python3\", {}]",
            q(p(&script))
        ),
        format!("name = \"string\"\ncommand = {random}"),
    ];
    let file = tournament_file(dir.path(), "", &bots);
    let out = dir.path().join("out");
    succeeds(&["tournament", p(&file), "--out", p(&out), "-q"]);
    let results = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    assert_eq!(results.lines().count(), 2, "both seat orders: {results}");
    for line in results.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        for faults in record["faults"].as_array().unwrap() {
            assert_eq!(faults, &serde_json::json!({}), "no faults: {line}");
        }
    }
    // An empty array is refused, naming the field.
    let bots = [
        "name = \"nothing\"\ncommand = []".to_string(),
        format!("name = \"string\"\ncommand = {random}"),
    ];
    let file = tournament_file(dir.path(), "", &bots);
    fails(
        &["tournament", p(&file)],
        2,
        &["field `bot.command`", "empty bot command"],
    );
}

/// The command line names a setting as a tournament file does (`--processes` and `[limits]
/// processes`, `--sideshow false` and `sideshow = false`); the old spelling still works and is
/// not listed.
#[test]
fn the_command_line_names_settings_as_the_files_do() {
    let random = sample_bot("random-bot");
    for (option, value) in [
        ("--processes", "64"),
        ("--max-processes", "64"),
        ("--sideshow", "false"),
        ("--sideshow", "true"),
        ("--sideshow", "off"),
    ] {
        succeeds(&[
            "match", "--game", "classic", "--hands", "1", "--seed", "1", "--bot", &random, "--bot",
            &random, option, value,
        ]);
    }
    let help = stdout(&succeeds(&["match", "--help"]));
    assert!(help.contains("--processes <PROCESSES>"), "{help}");
    assert!(!help.contains("--max-processes <"), "{help}");
    assert!(help.contains("[possible values: on, off]"), "{help}");
}

#[test]
fn help_lists_every_value_and_describes_every_argument() {
    let help = |args: &[&str]| stdout(&succeeds(args));
    let games = "classic, closest-555, lallan-kallan";
    for command in ["match", "play", "check-bot", "compare"] {
        let text = help(&[command, "--help"]);
        assert!(text.contains(games), "{command} --help: {text}");
    }
    for command in ["match", "play", "compare"] {
        let text = help(&[command, "--help"]);
        assert!(text.contains("a23-high, akq-high"), "{command}: {text}");
    }
    // `run-bot` takes the same sandbox and limit options as `match`, spelled alike.
    for command in ["match", "run-bot"] {
        let text = help(&[command, "--help"]);
        for words in [
            "none:",
            "limits:",
            "bwrap:",
            "--memory-mb <MEMORY_MB>",
            "--processes <PROCESSES>",
            "--disk-mb <DISK_MB>",
            "--cpu-seconds <CPU_SECONDS>",
            "--cpus <CPUS>",
        ] {
            assert!(text.contains(words), "{command} --help, {words}: {text}");
        }
    }
    let text = help(&["play", "--help"]);
    for words in ["Number of hands", "Time for a bot to start", "Your seat"] {
        assert!(text.contains(words), "play --help: {words:?}: {text}");
    }
    for (args, words) in [
        (&["standings", "--help"][..], "tournament output directory"),
        (&["report", "--help"][..], "tournament output directory"),
        (&["replay", "show", "--help"][..], "A replay file"),
        (&["replay", "verify", "--help"][..], "A replay file"),
        (&["replay", "html", "--help"][..], "A replay file"),
        (&["tournament", "--help"][..], "The tournament file"),
    ] {
        let text = help(args);
        assert!(text.contains(words), "{args:?}: {words:?}: {text}");
        assert!(text.contains("--help"), "{text}");
    }
    for (args, option) in [
        (&["replay", "html", "--help"][..], "-o, --out <FILE>"),
        (&["report", "--help"][..], "-o, --out <FILE>"),
        (&["tournament", "--help"][..], "-o, --out <DIR>"),
        (&["merge", "--help"][..], "-o, --out <DIR>"),
    ] {
        let text = help(args);
        assert!(text.contains(option), "{args:?}: {option}: {text}");
        assert!(
            !text.contains("--output"),
            "the old spelling is hidden: {text}"
        );
    }
}

#[test]
fn a_replay_that_cannot_be_written_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the replay's folder should be: fails even for root.
    let blocker = dir.path().join("blocker");
    std::fs::write(&blocker, "").unwrap();
    let replay = blocker.join("m.jsonl");
    let random = sample_bot("random-bot");
    let err = fails(
        &[
            "match",
            "--game",
            "classic",
            "--hands",
            "1",
            "--bot",
            &random,
            "--bot",
            &random,
            "--replay",
            p(&replay),
        ],
        1,
        &[&format!(
            "cannot write replay {}: {} is a file, not a folder",
            replay.display(),
            blocker.display()
        )],
    );
    assert!(!err.contains("os error"), "{err}");
    // Transcripts and logs: refused before the match, naming the folder.
    for option in ["--transcripts", "--logs"] {
        let folder = blocker.join("more");
        let err = fails(
            &[
                "match",
                "--game",
                "classic",
                "--hands",
                "1",
                "--bot",
                &random,
                "--bot",
                &random,
                option,
                p(&folder),
            ],
            1,
            &[&format!("{}: not a directory", folder.display())],
        );
        assert!(!err.contains("os error"), "{err}");
    }
    // The same for an HTML page.
    let source = dir.path().join("ok.jsonl");
    play_match(&source);
    fails(
        &[
            "replay",
            "html",
            p(&source),
            "-o",
            p(&blocker.join("m.html")),
        ],
        1,
        &[&blocker.display().to_string(), "not a folder"],
    );
}

#[test]
fn a_bot_file_without_the_execute_bit_is_said_to_be_one() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("mybot.py");
    std::fs::copy(
        common::root().join("sample-bots/python/minimal_bot.py"),
        &script,
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let random = sample_bot("random-bot");
    let needles = [
        script.display().to_string(),
        "exists but is not executable; chmod +x it or run it through its interpreter".into(),
    ];
    let needles: Vec<&str> = needles.iter().map(String::as_str).collect();
    let mut with_hint = needles.clone();
    let hint = format!("python3 {}", script.display());
    with_hint.push(&hint);
    let err = fails(
        &[
            "match",
            "--game",
            "classic",
            "--hands",
            "1",
            "--bot",
            p(&script),
            "--bot",
            &random,
        ],
        1,
        &with_hint,
    );
    assert!(!err.contains("not found"), "{err}");
    let out = run_arena(&["check-bot", "--game", "classic", "--", p(&script)]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    for needle in &needles {
        assert!(stdout(&out).contains(needle), "{}", stdout(&out));
    }
    let bots = [
        format!("name = \"mine\"\ncommand = {}", q(p(&script))),
        format!("name = \"other\"\ncommand = {}", q(&random)),
    ];
    let file = tournament_file(dir.path(), "", &bots);
    fails(&["tournament", p(&file)], 2, &needles);
}

/// `arena serve` becomes the contest server installed next to the arena (scripts/test builds
/// every binary of the workspace): its own errors and exit codes come through.
#[test]
fn arena_serve_runs_the_contest_server_next_to_it() {
    let server = common::arena().parent().unwrap().join("arena-server");
    if !server.exists() {
        common::skip(
            "arena_serve_runs_the_contest_server_next_to_it",
            "arena-server is not built (cargo build --workspace --bins)",
        );
        return;
    }
    let out = common::run_arena(&["serve", "/nonexistent/contest.toml"]);
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains("/nonexistent/contest.toml"),
        "{}",
        common::stderr(&out)
    );
    let help = common::run_arena(&["serve", "--help"]);
    assert!(help.status.success());
    assert!(
        common::stdout(&help).contains("--db"),
        "{}",
        common::stdout(&help)
    );
    // `arena worker` likewise becomes arena-worker: its usage errors exit 2.
    let help = common::run_arena(&["worker", "--help"]);
    assert!(help.status.success(), "{}", common::stderr(&help));
    assert!(
        common::stdout(&help).contains("ARENA_DB_URL"),
        "{}",
        common::stdout(&help)
    );
    let out = common::run_arena(&["worker", "--jobs", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
}
