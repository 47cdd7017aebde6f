//! Every place that tells an organizer how to start the contest server names the same
//! command, `arena serve CONTEST.toml`: the READMEs, the contest hosts' guide, the
//! architecture notes, the shipped contest file and `arena-server --help`. Two spellings
//! (`cargo run -p teenpatti-server` in one, `arena serve` in another) left a newcomer
//! wondering which was meant.

use std::path::Path;
use std::process::Command;

/// The texts, by the name a failure shows.
fn texts() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out: Vec<(String, String)> = [
        "README.md",
        "docs/contest-hosts.md",
        "server/README.md",
        "ARCHITECTURE.md",
        "tournaments/contest.toml",
    ]
    .iter()
    .map(|f| {
        let text = std::fs::read_to_string(root.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        (f.to_string(), text)
    })
    .collect();
    let help = Command::new(env!("CARGO_BIN_EXE_arena-server"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success());
    out.push((
        "arena-server --help".to_string(),
        String::from_utf8(help.stdout).unwrap(),
    ));
    out
}

/// The other ways of starting the server a text may show: running the package with cargo,
/// or the `arena-server` binary on a contest file.
fn other_start_commands(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        if line.contains("cargo run") && line.contains("teenpatti-server") {
            found.push(line.trim().to_string());
        }
        let mut rest = line;
        while let Some(at) = rest.find("arena-server ") {
            rest = &rest[at + "arena-server ".len()..];
            let word = rest.split_whitespace().next().unwrap_or("");
            if word
                .trim_end_matches(['`', ',', ')', '.'])
                .ends_with(".toml")
            {
                found.push(line.trim().to_string());
            }
        }
    }
    found
}

#[test]
fn every_doc_starts_the_server_with_arena_serve() {
    for (name, text) in texts() {
        let others = other_start_commands(&text);
        assert!(
            others.is_empty(),
            "{name} starts the server otherwise than `arena serve`: {others:?}"
        );
    }
    // And those that show how to start it say `arena serve` and a contest file.
    for (name, text) in texts() {
        if name == "ARCHITECTURE.md" {
            continue; // explains how `arena serve` works, starts nothing
        }
        assert!(
            text.lines().any(|l| {
                l.split("arena serve ")
                    .nth(1)
                    .and_then(|rest| rest.split_whitespace().next())
                    .is_some_and(|w| w.trim_end_matches('`').ends_with(".toml"))
            }),
            "{name} does not say `arena serve CONTEST.toml`"
        );
    }
}

#[test]
fn the_check_finds_the_other_spellings() {
    assert_eq!(
        other_start_commands(
            "#   cargo run --release -p teenpatti-server -- tournaments/contest.toml\n\
             `arena-server CONTEST.toml [--db URL]` serves\n\
             arena serve tournaments/contest.toml\n\
             `arena serve` runs `arena-server`, the server's binary"
        ),
        [
            "#   cargo run --release -p teenpatti-server -- tournaments/contest.toml",
            "`arena-server CONTEST.toml [--db URL]` serves",
        ]
    );
}
