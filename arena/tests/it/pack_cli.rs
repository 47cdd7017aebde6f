//! `arena pack`: each starter kit packs to the files the contest server's build needs, named
//! as it expects; what the server could not build is refused with a message that says why
//! (exit status 2), and no zip is written then. That the server accepts and builds the
//! packed kits is tested end to end in the server's `tests/pack_upload.rs`.

use crate::common;

use std::path::Path;

use common::{fails, run_arena, stderr, stdout};

/// The files `arena pack` lists: (name in the zip, where from if renamed).
fn packed(args: &[&str]) -> Vec<String> {
    let out = run_arena(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .filter(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn every_kit_packs_what_its_bot_uses() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bot.zip");
    let o = p(&out);
    for (args, files) in [
        (
            vec!["sample-bots/python", "--main", "strength_bot.py"],
            vec!["bot.py from strength_bot.py", "teenpatti.py"],
        ),
        (
            vec!["sample-bots/python", "--main", "minimal_bot.py"],
            vec!["bot.py from minimal_bot.py"],
        ),
        (
            vec!["sample-bots/javascript"],
            vec!["bot.js", "teenpatti.js"],
        ),
        (
            vec!["sample-bots/javascript", "--main", "example_bot.js"],
            vec!["bot.js from example_bot.js", "teenpatti.js"],
        ),
        (
            vec!["sample-bots/c"],
            vec!["bot.c", "json.c", "json.h", "teenpatti.c", "teenpatti.h"],
        ),
        (
            vec!["sample-bots/java"],
            vec!["Bot.java", "Json.java", "TeenPatti.java"],
        ),
        (
            vec!["sample-bots/java", "--main", "src/ExampleBot.java"],
            vec!["ExampleBot.java", "Json.java", "TeenPatti.java"],
        ),
        (
            vec!["sample-bots/rust", "--main", "src/bin/standalone-bot.rs"],
            vec!["main.rs from standalone-bot.rs"],
        ),
    ] {
        let mut full = vec!["pack"];
        full.extend(&args);
        full.extend(["-o", o]);
        assert_eq!(packed(&full), files, "{args:?}");
        assert!(out.is_file());
    }
    // The C kit's message says its other bot was left out.
    let text = stdout(&run_arena(&["pack", "sample-bots/c", "-o", o]));
    assert!(
        text.contains("left out (the bot does not use them): Makefile, README.md, example_bot.c"),
        "{text}"
    );
    assert!(
        text.contains("runs `./bot`; upload it as language c"),
        "{text}"
    );
    // The same kit, the same bytes.
    let first = std::fs::read(&out).unwrap();
    packed(&["pack", "sample-bots/c", "-o", o]);
    assert_eq!(std::fs::read(&out).unwrap(), first);
}

#[test]
fn what_the_server_could_not_build_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bot.zip");
    let o = p(&out);
    fails(
        &["pack", "sample-bots/python", "-o", o],
        2,
        &[
            "several python bots (minimal_bot.py, random_bot.py, strength_bot.py)",
            "--main",
        ],
    );
    fails(
        &[
            "pack",
            "sample-bots/rust",
            "--main",
            "src/bin/starter-bot.rs",
            "-o",
            o,
        ],
        2,
        &[
            "starter-bot.rs uses the crate",
            "no cargo, no crates",
            "standalone-bot.rs",
        ],
    );
    fails(
        &[
            "pack",
            "sample-bots/c",
            "-o",
            p(&dir.path().join("bot.tar")),
        ],
        2,
        &["must end in .zip"],
    );
    fails(
        &["pack", "no/such/kit", "-o", o],
        2,
        &["no/such/kit: no such folder"],
    );
    fails(
        &["pack", "sample-bots/c", "--main", "nope.c", "-o", o],
        2,
        &["--main nope.c: no such file in sample-bots/c"],
    );
    assert!(!out.exists(), "nothing written after a refusal");
}

/// Writes `files` into a fresh folder of `dir`.
fn kit(dir: &Path, name: &str, files: &[(&str, &str)]) -> String {
    let kit = dir.join(name);
    for (file, text) in files {
        let path = kit.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    kit.to_string_lossy().into_owned()
}

#[test]
fn a_participants_own_folder_is_refused_where_the_build_would_fail() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bot.zip");
    let o = p(&out);
    // C: a helper whose .c file also has a main would link two mains.
    let c = kit(
        dir.path(),
        "c",
        &[
            (
                "bot.c",
                "#include \"util.h\"\nint main(void) { return util(); }\n",
            ),
            ("util.h", "int util(void);\n"),
            (
                "util.c",
                "int util(void) { return 0; }\nint main(void) { return 1; }\n",
            ),
        ],
    );
    fails(
        &["pack", &c, "-o", o],
        2,
        &["bot.c and", "util.c both define main"],
    );
    // Java: a package line, and a main class the server would not pick.
    let java = kit(
        dir.path(),
        "java",
        &[(
            "Main.java",
            "package my.bot;\nclass Main { public static void main(String[] a) {} }\n",
        )],
    );
    fails(
        &["pack", &java, "-o", o],
        2,
        &["Main.java declares a package"],
    );
    let java = kit(
        dir.path(),
        "java2",
        &[
            (
                "Player.java",
                "class Player { public static void main(String[] a) { Bot.go(); } }\n",
            ),
            ("Bot.java", "class Bot { static void go() {} }\n"),
        ],
    );
    fails(
        &["pack", &java, "--main", "Player.java", "-o", o],
        2,
        &["it would run Bot, not Player", "rename Player to Main"],
    );
    // Python: the main imports a module called bot, which the main's rename would replace.
    let py = kit(
        dir.path(),
        "py",
        &[("mine.py", "import bot\n"), ("bot.py", "X = 1\n")],
    );
    fails(
        &["pack", &py, "--main", "mine.py", "-o", o],
        2,
        &["uses", "bot.py", "the server runs the file called bot.py"],
    );
    // Rust: a crate in a `use`, and a module file that is missing.
    let rs = kit(
        dir.path(),
        "rs",
        &[("main.rs", "use serde::Deserialize;\nfn main() {}\n")],
    );
    fails(&["pack", &rs, "-o", o], 2, &["uses the crate serde"]);
    let rs = kit(
        dir.path(),
        "rs2",
        &[("main.rs", "mod strategy;\nfn main() {}\n")],
    );
    fails(
        &["pack", &rs, "-o", o],
        2,
        &["declares `mod strategy;` but neither"],
    );
    // Two languages and no --main.
    let mixed = kit(
        dir.path(),
        "mixed",
        &[("bot.py", ""), ("bot.c", "int main(void){}")],
    );
    fails(
        &["pack", &mixed, "-o", o],
        2,
        &["holds python and c sources", "--main"],
    );
    assert!(!out.exists(), "nothing written after a refusal");
}

#[test]
fn modules_packages_and_added_files_go_along() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bot.zip");
    let o = p(&out);
    let py = kit(
        dir.path(),
        "py",
        &[
            (
                "my_bot.py",
                "from strategy import plan\nimport tables.odds\n",
            ),
            ("strategy.py", "import os\n"),
            ("tables/__init__.py", ""),
            ("tables/odds.py", "from . import data\n"),
            ("tables/data.py", ""),
            ("test_my_bot.py", "import my_bot\n"),
            ("book.json", "{}"),
        ],
    );
    assert_eq!(
        packed(&["pack", &py, "--add", "book.json", "-o", o]),
        [
            "book.json",
            "bot.py from my_bot.py",
            "strategy.py",
            "tables/__init__.py",
            "tables/data.py",
            "tables/odds.py"
        ]
    );
    let rs = kit(
        dir.path(),
        "rs",
        &[
            (
                "src/bin/mine.rs",
                "mod play;\nuse std::io;\nfn main() { play::go() }\n",
            ),
            ("src/bin/play.rs", "mod cards;\npub fn go() {}\n"),
            ("src/bin/play/cards.rs", "use super::go;\n"),
        ],
    );
    assert_eq!(
        packed(&["pack", &rs, "--main", "src/bin/mine.rs", "-o", o]),
        ["main.rs from mine.rs", "play.rs", "play/cards.rs"]
    );
}
