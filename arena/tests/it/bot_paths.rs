//! Relative paths in bot commands, `..` included, resolve the same way at every sandbox level
//! and in every command: against the current directory on the command line (`match`,
//! `check-bot`, `play`), against the file's folder in a tournament file; and a path that is not
//! there is named as written, with the folder it was taken from.
//!
//! The layout, in a temporary folder any user can traverse (bots run as their own uid at
//! `limits` when the tests run as root): `mybot/` (the Python sample bots), `bin/chaal-bot`,
//! `other/` (where the arena is run from, as a sibling of the bot's folder), `t/` (tournament
//! files).

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{GENEROUS_TIME, bots_toml, root, sample_bot, stderr, stdout};

struct Layout {
    dir: tempfile::TempDir,
}

impl Layout {
    fn new() -> Layout {
        let dir = tempfile::Builder::new()
            .prefix("arena-bot-paths-")
            .tempdir()
            .unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let layout = Layout { dir };
        for sub in ["mybot", "bin", "other", "t"] {
            std::fs::create_dir(layout.path(sub)).unwrap();
        }
        for script in ["random_bot.py", "minimal_bot.py", "teenpatti.py"] {
            std::fs::copy(
                root().join("sample-bots/python").join(script),
                layout.path("mybot").join(script),
            )
            .unwrap();
        }
        std::fs::copy(sample_bot("chaal-bot"), layout.path("bin/chaal-bot")).unwrap();
        layout
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// The arena run from `other/`, its stdin closed or given `input`.
    fn arena(&self, args: &[&str], input: Option<&str>) -> Output {
        common::run_arena_with_input(
            &self.path("other"),
            args,
            input.unwrap_or_default().as_bytes(),
        )
    }
}

/// Every sandbox level this machine has (bwrap skipped where it cannot run, outside CI).
fn levels(test: &str) -> Vec<&'static str> {
    let mut levels = vec!["none", "limits"];
    if common::bwrap_works(test) {
        levels.push("bwrap");
    }
    levels
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        stdout(out),
        stderr(out)
    )
}

/// A script and a program reached through `..` from a sibling folder.
const SCRIPT: &str = "python3 ../mybot/random_bot.py";
const PROGRAM: &str = "../bin/chaal-bot";

#[test]
fn a_match_runs_bots_named_with_dot_dot_at_every_level() {
    let layout = Layout::new();
    for level in levels("a_match_runs_bots_named_with_dot_dot_at_every_level") {
        let out = layout.arena(
            &[
                "match",
                "--game",
                "classic",
                "--hands",
                "3",
                "--seed",
                "4",
                "--json",
                "--sandbox",
                level,
                "--bot",
                SCRIPT,
                "--bot",
                PROGRAM,
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(0), "{level}: {}", show(&out));
        let summary: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        for seat in 0..2 {
            common::assert_no_faults(&summary, seat, level);
        }
    }
}

#[test]
fn check_bot_runs_bots_named_with_dot_dot_at_every_level() {
    let layout = Layout::new();
    for level in levels("check_bot_runs_bots_named_with_dot_dot_at_every_level") {
        for command in [SCRIPT, PROGRAM] {
            let mut args = vec!["check-bot", "--game", "classic", "--sandbox", level, "--"];
            args.extend(command.split(' '));
            let out = layout.arena(&args, None);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{level} {command}: {}",
                show(&out)
            );
            assert!(stdout(&out).contains(" 0 failed"), "{}", show(&out));
        }
    }
}

#[test]
fn play_runs_bots_named_with_dot_dot_at_every_level() {
    let layout = Layout::new();
    for level in levels("play_runs_bots_named_with_dot_dot_at_every_level") {
        let out = layout.arena(
            &[
                "play",
                "--game",
                "classic",
                "--hands",
                "1",
                "--seed",
                "3",
                "--sandbox",
                level,
                "--bot",
                SCRIPT,
                "--bot",
                PROGRAM,
            ],
            Some("quit\n"),
        );
        // 5 would be a bot that did not start.
        assert_eq!(out.status.code(), Some(0), "{level}: {}", show(&out));
        assert!(!stdout(&out).contains("did not start"), "{}", show(&out));
    }
}

/// A two-bot round-robin of two hands in `t/t.toml`, at `level`, with `bots` as its entries.
fn tournament(layout: &Layout, level: &str, bots: &str) -> Output {
    let file = layout.path("t/t.toml");
    std::fs::write(
        &file,
        format!(
            "game = \"classic\"\nhands = 2\nseed = 5\nsandbox = \"{level}\"\n{GENEROUS_TIME}{bots}"
        ),
    )
    .unwrap();
    let out_dir = layout.path(&format!("out-{level}"));
    layout.arena(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
            "-q",
        ],
        None,
    )
}

#[test]
fn a_tournament_runs_bots_named_with_dot_dot_from_its_folder_at_every_level() {
    let layout = Layout::new();
    // Through a folder that is neither the file's nor the bot's (`other/`), so that nothing
    // the sandbox binds for other reasons makes the way exist inside.
    let bots = bots_toml(&[
        ("script", "python3 ../other/../mybot/random_bot.py".into()),
        ("program", "../other/../bin/chaal-bot".into()),
    ]);
    for level in levels("a_tournament_runs_bots_named_with_dot_dot_from_its_folder_at_every_level")
    {
        let out = tournament(&layout, level, &bots);
        assert_eq!(out.status.code(), Some(0), "{level}: {}", show(&out));
        let results =
            std::fs::read_to_string(layout.path(&format!("out-{level}/results.jsonl"))).unwrap();
        assert_eq!(results.lines().count(), 2, "{level}: {results}");
        assert!(!results.contains("\"startup\""), "{level}: {results}");
    }
}

#[test]
fn a_bots_workdir_is_where_its_command_paths_are_taken_from() {
    let layout = Layout::new();
    let bots = format!(
        "{}\n[[bot]]\nname = \"in-workdir\"\nworkdir = \"../mybot\"\ncommand = \"python3 minimal_bot.py\"\n",
        bots_toml(&[("script", "python3 ../mybot/random_bot.py".into())])
    );
    let out = tournament(&layout, "none", &bots);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    // Not there: named with the workdir.
    let bots = "[[bot]]\nname = \"a\"\nworkdir = \"../bin\"\ncommand = \"python3 minimal_bot.py\"\n\
                [[bot]]\nname = \"b\"\ncommand = \"python3 ../mybot/minimal_bot.py\"\n";
    let out = tournament(&layout, "none", bots);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    // The folder as the file names it, from the file's own.
    let bin = layout.path("t/../bin");
    assert!(
        stderr(&out).contains(&format!(
            "`minimal_bot.py` is not a file in {}, the bot's `workdir`",
            bin.display()
        )),
        "{}",
        show(&out)
    );
}

/// The message of a path that is not there, as `folder` would have it.
fn not_a_file(word: &str, folder: &Path, known_as: &str) -> String {
    format!(
        "`{word}` is not a file in {}, {known_as}: relative paths in a bot's command are \
         taken from there",
        folder.display()
    )
}

#[test]
fn a_missing_program_is_named_as_written_with_the_folder_it_was_taken_from() {
    let layout = Layout::new();
    let other = layout.path("other");
    let expected = format!(
        "--bot number 1: program {}",
        not_a_file("../nope/bot", &other, "where the arena was run")
    );
    let out = layout.arena(
        &[
            "match",
            "--game",
            "classic",
            "--hands",
            "1",
            "--bot",
            "../nope/bot",
            "--bot",
            PROGRAM,
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(stderr(&out).contains(&expected), "{}", show(&out));
    let out = layout.arena(
        &[
            "play",
            "--game",
            "classic",
            "--hands",
            "1",
            "--bot",
            "../nope/bot",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(stderr(&out).contains(&expected), "{}", show(&out));
    // check-bot reports it as its failed handshake, with the same words in its note, and
    // never the bot's private directory.
    let out = layout.arena(
        &["check-bot", "--game", "classic", "--", "../nope/bot"],
        None,
    );
    assert_eq!(out.status.code(), Some(4), "{}", show(&out));
    let report = stdout(&out);
    assert!(
        report.contains(&not_a_file(
            "../nope/bot",
            &other,
            "where the arena was run"
        )),
        "{report}"
    );
    assert!(!report.contains("arena-check-bot-"), "{report}");
    // A tournament file's path is taken from the file's folder.
    let out = tournament(
        &layout,
        "none",
        &bots_toml(&[("a", PROGRAM.into()), ("b", "../mybot/nope-bot".into())]),
    );
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    // The line of the second bot's command.
    let text = std::fs::read_to_string(layout.path("t/t.toml")).unwrap();
    let line = 1 + text.lines().position(|l| l.contains("nope-bot")).unwrap();
    assert!(
        stderr(&out).contains(&format!(
            "t.toml:{line}: field `bot.command`: program {}",
            not_a_file(
                "../mybot/nope-bot",
                &layout.path("t"),
                "the tournament file's folder"
            )
        )),
        "{}",
        show(&out)
    );
}

#[test]
fn the_gauntlet_template_copied_elsewhere_says_in_one_line_which_path_is_missing_where() {
    let layout = Layout::new();
    let template = root().join("tournaments/classroom-gauntlet.toml");
    let copy = layout.path("other/grade.toml");
    std::fs::copy(&template, &copy).unwrap();
    let out = layout.arena(&["tournament", "grade.toml", "--out", "out-grade"], None);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let message = stderr(&out);
    assert_eq!(message.trim_end().lines().count(), 1, "{message}");
    let line = std::fs::read_to_string(&copy)
        .unwrap()
        .lines()
        .position(|l| l.starts_with("command = "))
        .unwrap()
        + 1;
    assert!(
        message.contains(&format!(
            "grade.toml:{line}: field `bot.command`: {}",
            not_a_file(
                "../sample-bots/python/strength_bot.py",
                &layout.path("other"),
                "the tournament file's folder"
            )
        )),
        "{message}"
    );
    assert!(!layout.path("other/out-grade").exists(), "nothing written");
}

#[test]
fn the_gauntlet_template_copied_next_to_the_bots_it_names_runs() {
    let layout = Layout::new();
    // `tournaments/` and `sample-bots/python/` side by side, as in the repository, with the
    // reference bots and a short run.
    std::fs::create_dir_all(layout.path("sample-bots/python")).unwrap();
    for script in [
        "random_bot.py",
        "minimal_bot.py",
        "strength_bot.py",
        "teenpatti.py",
    ] {
        std::fs::copy(
            root().join("sample-bots/python").join(script),
            layout.path("sample-bots/python").join(script),
        )
        .unwrap();
    }
    std::fs::create_dir_all(layout.path("tournaments")).unwrap();
    let text = std::fs::read_to_string(root().join("tournaments/classroom-gauntlet.toml"))
        .unwrap()
        .replace("\nhands = 100\n", "\nhands = 2\n")
        .replace("\nrounds = 40\n", "\nrounds = 1\n");
    assert!(text.contains("\nhands = 2\n") && text.contains("\nrounds = 1\n"));
    std::fs::write(layout.path("tournaments/grade.toml"), text).unwrap();
    let out = layout.arena(
        &[
            "tournament",
            "../tournaments/grade.toml",
            "--out",
            "out-grade",
            "-q",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    // `output`/`--out` is taken from the current directory, not the file's.
    assert!(layout.path("other/out-grade/grades.json").is_file());
}
