//! `arena check-bot` passes good bots and names every failure of broken ones.

mod common;

use common::{root, run_arena, sample_bot, stdout};

fn check(command: &[&str], game: Option<&str>) -> (i32, String) {
    let mut args = vec!["check-bot", "--decision-ms", "2000"];
    if let Some(game) = game {
        args.extend(["--game", game]);
    }
    args.push("--");
    args.extend_from_slice(command);
    let out = run_arena(&args);
    (out.status.code().unwrap_or(-1), stdout(&out))
}

fn zoo(name: &str) -> String {
    root()
        .join("arena/tests/zoo")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn sample_bots_pass_every_check() {
    let random = sample_bot("random-bot");
    let mc = sample_bot("montecarlo-bot");
    let strength = root().join("sample-bots/python/strength_bot.py");
    let minimal = root().join("sample-bots/python/minimal_bot.py");
    for command in [
        vec![random.as_str()],
        vec![mc.as_str()],
        vec!["python3", strength.to_str().unwrap()],
        vec!["python3", minimal.to_str().unwrap()],
    ] {
        let (code, report) = check(&command, None);
        assert_eq!(code, 0, "{command:?}:\n{report}");
        assert!(report.contains("0 failed"), "{report}");
        for scenario in ["classic:", "closest-555:", "lallan-kallan:"] {
            assert!(
                report.contains(scenario),
                "every variant is checked: {report}"
            );
        }
        // Every decision kind is reached by these bots.
        // Named as PROTOCOL.md names the request kinds.
        for kind in [
            "swap decisions",
            "bet decisions",
            "sideshow_reply decisions",
        ] {
            assert!(
                report.contains(&format!("PASS  {kind}")),
                "{kind} in {report}"
            );
        }
    }
}

#[test]
fn an_illegal_answer_is_named_with_the_line_sent_and_what_was_expected() {
    let bot = zoo("illegal.py");
    let (code, report) = check(&["python3", &bot], Some("classic"));
    assert_eq!(code, 4, "{report}");
    assert!(report.contains("FAIL  bet decision"), "{report}");
    // The line exactly as the bot wrote it (illegal.py puts the id last).
    assert!(report.contains("sent:     {\"action\":"), "{report}");
    assert!(report.contains(",\"id\":"), "{report}");
    assert!(report.contains("expected: \"id\":"), "{report}");
    assert!(
        report.contains("illegal fault: bet 999999 is above the maximum "),
        "{report}"
    );
    assert!(
        report.contains("illegal fault: \"action\":\"accept\" is not offered; offered: pack, "),
        "{report}"
    );
    // No Rust in what the student reads.
    for rust in ["Bet {", "Some(", "BetDecision", "SideshowReply", "Illegal"] {
        assert!(!report.contains(rust), "{rust} in {report}");
    }
}

#[test]
fn checks_a_crashed_bot_never_reached_say_it_had_stopped() {
    let bot = zoo("crash_mid_hand.py");
    let (code, report) = check(&["python3", &bot], Some("closest-555"));
    assert_eq!(code, 4, "{report}");
    assert!(report.contains("crashed fault"), "{report}");
    assert!(
        report.contains(
            "SKIP  exits when told                    not reached: the bot was stopped after a crashed fault at hand 1 (request 2)"
        ),
        "{report}"
    );
    assert!(
        report.contains("skipped (the bot had stopped working: see the failure before them)"),
        "{report}"
    );
    assert!(
        !report.contains("exits when told                    not reached: the bot's own"),
        "{report}"
    );
}

#[test]
fn a_refused_hello_names_the_field() {
    let bot = zoo("bad_hello.py");
    let (code, report) = check(&["python3", &bot, "version_number"], Some("classic"));
    assert_eq!(code, 4, "{report}");
    assert!(
        report.contains(
            "FAIL  handshake                          hello refused: \"version\" is the number 2; write a string, e.g. \"version\":\"1.0\""
        ),
        "{report}"
    );
    assert!(
        report.contains("sent:     {\"type\":\"hello\",\"name\":\"bad-hello\",\"version\":2}"),
        "{report}"
    );
}

#[test]
fn garbage_is_a_malformed_answer() {
    let bot = zoo("garbage.py");
    let (code, report) = check(&["python3", &bot], Some("closest-555"));
    assert_eq!(code, 4, "{report}");
    assert!(report.contains("malformed fault"), "{report}");
}

#[test]
fn a_wrong_id_is_named() {
    let bot = zoo("wrong_id.py");
    let (code, report) = check(&["python3", &bot], Some("lallan-kallan"));
    assert_eq!(code, 4, "{report}");
    assert!(report.contains("wrong_id fault: \"id\":"), "{report}");
    assert!(
        report.contains("no request with that id was sent yet"),
        "{report}"
    );
}

#[test]
fn a_bot_without_hello_fails_the_handshake() {
    let bot = zoo("no_hello.py");
    let out = run_arena(&[
        "check-bot",
        "--startup-ms",
        "500",
        "--game",
        "classic",
        "--",
        "python3",
        &bot,
    ]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(4), "{report}");
    assert!(report.contains("FAIL  handshake"), "{report}");
    assert!(report.contains("expected: within 500 ms"), "{report}");
}

#[test]
fn a_bot_that_never_answers_times_out() {
    let bot = zoo("hang.py");
    let out = run_arena(&[
        "check-bot",
        "--decision-ms",
        "200",
        "--game",
        "closest-555",
        "--",
        "python3",
        &bot,
    ]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(4), "{report}");
    assert!(report.contains("timeout fault"), "{report}");
}

#[test]
fn a_bot_that_does_not_exit_when_told_fails_that_check() {
    let bot = zoo("ignore_sigterm.py");
    let (code, report) = check(&["python3", &bot], Some("classic"));
    assert_eq!(code, 4, "{report}");
    assert!(report.contains("FAIL  exits when told"), "{report}");
}

#[test]
fn a_missing_program_fails_clearly() {
    let (code, report) = check(&["/nonexistent/bot"], Some("classic"));
    assert_eq!(code, 4, "{report}");
    assert!(report.contains("/nonexistent/bot"), "{report}");
}
