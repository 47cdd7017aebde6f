//! The HTML replay page and tournament report in a real browser: the real arena binary plays
//! matches and a small tournament of the Python sample bots (and the zoo's `illegal.py`, for
//! faults), writes the pages, and the Node scripts of `tests/browser/` drive Debian's Chromium
//! headless through playwright-core to click through them and compare what is shown with the
//! replay files and `standings.json` (see `check_replay.js` and `check_report.js`).
//!
//! Needs `node` and `/usr/bin/chromium` (or `$CHROMIUM`); without them each test says so on
//! stderr and passes without checking. `npm ci` runs in `tests/browser/` when its
//! `node_modules` is missing.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant, SystemTime};

use common::{python_bot, root, run_arena, sample_bot, stderr, stdout};

fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Why the browser tests cannot run here, if they cannot.
fn missing_tools() -> Option<String> {
    if !chromium().exists() {
        return Some(format!(
            "{} is missing (apt-get install chromium)",
            chromium().display()
        ));
    }
    if !runs("node") {
        return Some("node is missing (apt-get install nodejs npm)".into());
    }
    if !browser_dir().join("node_modules/playwright-core").exists() && !runs("npm") {
        return Some("npm is missing and tests/browser/node_modules is not installed".into());
    }
    None
}

/// Runs `npm ci` in tests/browser unless node_modules is there. Test processes may race; a
/// lock directory lets one install while the others wait.
/// The set-up of a browser test named `name`: `None` (the test skipped, saying why) without
/// node or Chromium; else the node modules installed and a fresh temporary directory.
fn browser_test(name: &str) -> Option<tempfile::TempDir> {
    if let Some(why) = missing_tools() {
        common::skip(name, &why);
        return None;
    }
    ensure_node_modules();
    Some(tempfile::tempdir().unwrap())
}

fn ensure_node_modules() {
    let dir = browser_dir();
    let installed = || {
        dir.join("node_modules/playwright-core/package.json")
            .exists()
    };
    let lock = dir.join(".npm-ci.lock");
    let start = Instant::now();
    while !installed() {
        match std::fs::create_dir(&lock) {
            Ok(()) => {
                let result = (!installed()).then(|| {
                    Command::new("npm")
                        .args(["ci", "--no-audit", "--no-fund"])
                        .current_dir(&dir)
                        .output()
                        .expect("npm runs")
                });
                let _ = std::fs::remove_dir(&lock);
                if let Some(output) = result {
                    assert!(
                        output.status.success(),
                        "npm ci in {} failed:\n{}{}",
                        dir.display(),
                        stdout(&output),
                        stderr(&output)
                    );
                }
            }
            Err(_) => {
                // Another test installs; a lock older than five minutes was left by a killed run.
                let stale = std::fs::metadata(&lock)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| SystemTime::now().duration_since(t).ok())
                    .is_some_and(|age| age > Duration::from_secs(300));
                if stale {
                    let _ = std::fs::remove_dir(&lock);
                }
                assert!(
                    start.elapsed() < Duration::from_secs(600),
                    "timed out waiting for npm ci"
                );
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
}

/// `node SCRIPT ARGS...` in tests/browser; fails the test with its output unless it passes.
fn node(script: &str, args: &[&Path]) {
    let output = Command::new("node")
        .arg(script)
        .args(args)
        .current_dir(browser_dir())
        .output()
        .expect("node runs");
    print!("{}", stdout(&output));
    eprint!("{}", stderr(&output));
    assert!(
        output.status.success(),
        "node {script} failed ({}):\n{}{}",
        output.status,
        stdout(&output),
        stderr(&output)
    );
}

/// Runs the tournament file `toml` in `dir`; returns its output directory.
fn tournament(dir: &Path, toml: &str) -> PathBuf {
    let file = dir.join("t.toml");
    std::fs::write(&file, toml).unwrap();
    let out = dir.join("out");
    check(
        &run_arena(&["tournament", p(&file), "--out", p(&out), "-q"]),
        "the tournament",
    );
    out
}

fn check(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}{}",
        output.status,
        stdout(output),
        stderr(output)
    );
}

fn p(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

fn zoo_bot(name: &str) -> String {
    format!(
        "python3 {}",
        root().join("arena/tests/zoo").join(name).display()
    )
}

/// Plays a match with a replay and writes its page; returns (replay, page).
fn match_page(
    dir: &Path,
    label: &str,
    game: &str,
    seed: u64,
    hands: u64,
    bots: &[String],
) -> [PathBuf; 2] {
    let replay = dir.join(format!("{label}.jsonl"));
    let page = dir.join(format!("{label}.html"));
    let hands = hands.to_string();
    let seed = seed.to_string();
    let mut args = vec![
        "match", "--game", game, "--hands", &hands, "--seed", &seed, "--replay",
    ];
    args.push(p(&replay));
    for bot in bots {
        args.extend(["--bot", bot.as_str()]);
    }
    args.extend(["--decision-ms", "10000", "--bank-ms", "600000"]);
    check(&run_arena(&args), &format!("the {game} match"));
    let html = run_arena(&["replay", "html", p(&replay), "-o", p(&page)]);
    check(&html, "arena replay html");
    assert!(stdout(&html).contains(p(&page)), "{}", stdout(&html));
    [replay, page]
}

#[test]
fn replay_pages_in_a_real_browser() {
    let Some(dir) = browser_test("replay_pages_in_a_real_browser") else {
        return;
    };
    let random = python_bot("sample-bots/python/random_bot.py");
    let strength = python_bot("sample-bots/python/strength_bot.py");
    let minimal = python_bot("sample-bots/python/minimal_bot.py");
    let games: [(&str, &str, u64, u64, Vec<String>); 5] = [
        (
            "classic",
            "classic",
            5,
            12,
            vec![random.clone(), strength.clone(), minimal.clone()],
        ),
        // The illegal bot faults at every decision: faults, and actions chosen by the arena.
        (
            "faults",
            "closest-555",
            7,
            10,
            vec![strength.clone(), random.clone(), zoo_bot("illegal.py")],
        ),
        (
            "lallan",
            "lallan-kallan",
            11,
            12,
            vec![random.clone(), strength.clone(), minimal, random.clone()],
        ),
        // Two seats, seed 2: every hand dead (a redeal) twice in these 12 hands.
        ("redeal", "lallan-kallan", 2, 12, vec![strength, random]),
        // Twelve seats named random-bot ... random-bot#12 (names that a narrow seat used to
        // cut to "random-…"), seats beyond the digit keys, and the largest seed.
        (
            "crowd",
            "lallan-kallan",
            u64::MAX,
            8,
            vec![sample_bot("random-bot"); 12],
        ),
    ];
    let pages: Vec<[PathBuf; 2]> = std::thread::scope(|scope| {
        let jobs: Vec<_> = games
            .iter()
            .map(|(label, game, seed, hands, bots)| {
                let dir = dir.path();
                scope.spawn(move || match_page(dir, label, game, *seed, *hands, bots))
            })
            .collect();
        jobs.into_iter().map(|j| j.join().unwrap()).collect()
    });
    let replay = |i: usize| std::fs::read_to_string(&pages[i][0]).unwrap();
    assert!(
        replay(1).contains(r#""type":"fault""#),
        "the closest-555 replay should hold faults"
    );
    assert!(
        replay(3).contains(r#""event":"redeal""#),
        "the two-seat Lallan Kallan replay should hold a redeal"
    );
    assert!(replay(4).contains(r#""seed":18446744073709551615"#));
    assert!(
        replay(4).contains(r#""event":"sideshow_compared""#),
        "the twelve-seat replay should hold a sideshow"
    );
    let args: Vec<&Path> = pages.iter().flatten().map(PathBuf::as_path).collect();
    node("check_replay.js", &args);
}

/// A match kept with `--logs` between bots that write to stderr at every decision: the
/// page's time and bank line, and its Logs toggle (`check_decision_logs.js`).
#[test]
fn decision_logs_in_a_real_browser() {
    let Some(dir) = browser_test("decision_logs_in_a_real_browser") else {
        return;
    };
    let replay = dir.path().join("logs.jsonl");
    let page = dir.path().join("logs.html");
    let logs = dir.path().join("logs");
    let thinking = python_bot("arena/tests/bots/thinking.py");
    let mut args = vec!["match", "--game", "classic", "--hands", "3", "--seed", "5"];
    for _ in 0..3 {
        args.extend(["--bot", thinking.as_str()]);
    }
    args.extend(["--replay", p(&replay), "--logs", p(&logs)]);
    check(&run_arena(&args), "the match with logs");
    check(
        &run_arena(&["replay", "html", p(&replay), "-o", p(&page)]),
        "arena replay html",
    );
    node("check_decision_logs.js", &[&replay, &page]);
}

#[test]
fn tournament_report_in_a_real_browser() {
    let Some(dir) = browser_test("tournament_report_in_a_real_browser") else {
        return;
    };
    let q = |text: &str| serde_json::to_string(text).unwrap();
    let bots = [
        ("random", python_bot("sample-bots/python/random_bot.py")),
        ("minimal", python_bot("sample-bots/python/minimal_bot.py")),
        ("strength", python_bot("sample-bots/python/strength_bot.py")),
        ("illegal", zoo_bot("illegal.py")),
    ];
    let mut toml = String::from(
        "name = \"html-report\"\ngame = \"classic\"\nformat = \"round-robin\"\nseats = 2\n\
         hands = 8\nseed = 42\nrounds = 1\nduplicate = true\n\
         [time]\nstartup_ms = 30000\ndecision_ms = 10000\nbank_ms = 600000\n",
    );
    for (name, command) in &bots {
        toml.push_str(&format!(
            "\n[[bot]]\nname = {}\ncommand = {}\n",
            q(name),
            q(command)
        ));
    }
    let out = tournament(dir.path(), &toml);

    let site = dir.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    let report = site.join("report.html");
    let output = run_arena(&["report", p(&out), "-o", p(&report)]);
    check(&output, "arena report");
    assert!(
        stdout(&output).contains("12 replay pages"),
        "{}",
        stdout(&output)
    );
    assert!(site.join("report_replays/match-000000.html").is_file());
    node("check_report.js", &[&out, &report]);

    // The same tournament with a sample of its replays: the other pages are removed, and
    // their matches say their replay is left out.
    let output = run_arena(&["report", p(&out), "-o", p(&report), "--replays", "sample:5"]);
    check(&output, "arena report --replays sample:5");
    assert!(
        stdout(&output).contains("5 replay pages")
            && stdout(&output).contains("7 replays left out"),
        "{}",
        stdout(&output)
    );
    let pages = std::fs::read_dir(site.join("report_replays"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("match-")
        })
        .count();
    assert_eq!(pages, 5);
    node("check_report.js", &[&out, &report, Path::new("sample:5")]);

    let output = run_arena(&["report", p(&out), "-o", p(&report), "--replays", "sample:0"]);
    assert!(!output.status.success(), "sample:0 is refused");
    assert!(stderr(&output).contains("sample:N"), "{}", stderr(&output));
}

/// The SPRT panel of a luck-corrected SPRT's report: its verdict and estimator revision; then,
/// the directory made to look as if an arena of another estimator revision had run it, the
/// verdict that run saved, with the note that says so.
#[test]
fn sprt_report_in_a_real_browser() {
    let Some(dir) = browser_test("sprt_report_in_a_real_browser") else {
        return;
    };
    let q = |text: &str| serde_json::to_string(text).unwrap();
    let toml = format!(
        "name = \"html-sprt\"\ngame = \"closest-555\"\nformat = \"sprt\"\nhands = 20\n\
         seed = 9\n[time]\nstartup_ms = 30000\ndecision_ms = 10000\nbank_ms = 600000\n\
         [sprt]\nm0 = 0.0\nm1 = 0.3\nmin_blocks = 4\nmax_blocks = 6\n\
         [[bot]]\nname = \"strength\"\ncommand = {}\n[[bot]]\nname = \"random\"\ncommand = {}\n",
        q(&python_bot("sample-bots/python/strength_bot.py")),
        q(&python_bot("sample-bots/python/random_bot.py")),
    );
    let out = tournament(dir.path(), &toml);
    let report = dir.path().join("report.html");
    check(
        &run_arena(&["report", p(&out), "-o", p(&report)]),
        "arena report",
    );
    let standings = out.join("standings.json");
    node("check_sprt_report.js", &[&report, &standings]);

    let edit = |path: &Path, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        edit(&mut value);
        std::fs::write(path, value.to_string()).unwrap();
    };
    edit(&out.join("plan.json"), &|plan| {
        plan["luck_estimator_revision"] = 1000.into();
    });
    edit(&standings, &|s| {
        s["sprt"]["estimator_revision"] = 1000.into();
        s["sprt"]["verdict"] = "the verdict revision 1000 saved".into();
    });
    check(
        &run_arena(&["report", p(&out), "-o", p(&report)]),
        "arena report of another revision",
    );
    node(
        "check_sprt_report.js",
        &[
            &report,
            &standings,
            Path::new("this is the verdict the run saved"),
        ],
    );
}

/// `arena match --watch --pace 100 --keep-serving`: the live page in Chromium while the
/// match is played (paced, it lasts some seconds and each hand reaches the page a step at a
/// time), until it ends; then a page opened on the finished match, still served until Ctrl-C.
#[test]
fn the_live_view_in_a_real_browser() {
    use std::io::{BufRead, BufReader, Read};
    let Some(dir) = browser_test("the_live_view_in_a_real_browser") else {
        return;
    };
    let replay = dir.path().join("live.jsonl");
    let paced = format!(
        "python3 {} 25",
        root().join("arena/tests/bots/paced.py").display()
    );
    let seed = u64::MAX.to_string();
    let mut arena = KilledOnDrop(
        Command::new(common::arena())
            .args([
                "match", "--game", "classic", "--hands", "40", "--seed", &seed,
            ])
            .args(["--bot", &sample_bot("random-bot"), "--bot", &paced])
            .args(["--sandbox", "none", "--replay"])
            .arg(&replay)
            .args(["--watch", "127.0.0.1:0", "--pace", "100", "--keep-serving"])
            .current_dir(root())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let arena = &mut arena.0;
    let mut err = BufReader::new(arena.stderr.take().unwrap());
    let mut line = String::new();
    let url = loop {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "no URL printed");
        if let Some(at) = line.find("http://") {
            break line[at..].trim().to_string();
        }
    };
    let drain = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = err.read_to_string(&mut rest);
        rest
    });
    let args = [Path::new(&url), replay.as_path(), Path::new(&seed)];
    node("check_live.js", &args);
    // Still serving after the end (the check opened a page then): Ctrl-C stops it, a success.
    assert!(
        arena.try_wait().unwrap().is_none(),
        "the arena keeps serving"
    );
    let pid = rustix::process::Pid::from_raw(arena.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    let status = arena.wait().unwrap();
    let rest = drain.join().unwrap();
    assert!(status.success(), "{status:?}: {rest}");
}

/// A child process killed (and reaped) when a failed assertion unwinds past it: an arena
/// that keeps serving would otherwise run on after the test.
struct KilledOnDrop(std::process::Child);

impl Drop for KilledOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
