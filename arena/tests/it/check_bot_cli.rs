//! `arena check-bot` passes good bots and names every failure of broken ones.

use crate::common;

use common::{root, run_arena, sample_bot, stdout};

/// Within each scenario of `report`, no PASS line comes after a FAIL line: a pass read below a
/// failure of the same situation contradicts it.
fn assert_no_pass_after_a_failure(report: &str) {
    for block in report.split("\n\n") {
        if let Some(failed) = block.find("\n  FAIL  ") {
            assert!(
                !block[failed..].contains("\n  PASS  "),
                "a PASS after a FAIL in:\n{block}\n\nwhole report:\n{report}"
            );
        }
    }
}

fn check(command: &[&str], game: Option<&str>) -> (i32, String) {
    let mut args = vec!["check-bot", "--decision-ms", "2000"];
    if let Some(game) = game {
        args.extend(["--game", game]);
    }
    args.push("--");
    args.extend_from_slice(command);
    let out = run_arena(&args);
    let report = stdout(&out);
    assert_no_pass_after_a_failure(&report);
    (out.status.code().unwrap_or(-1), report)
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
    // illegal.py answers some bets legally: no "bet decisions ... answered" pass beside the
    // failed ones.
    assert!(!report.contains("PASS  bet decisions"), "{report}");
    // No Rust in what the student reads.
    for rust in ["Bet {", "Some(", "BetDecision", "SideshowReply", "Illegal"] {
        assert!(!report.contains(rust), "{rust} in {report}");
    }
}

#[test]
fn the_fault_notice_is_sent_as_in_a_match() {
    // A bot that crashes on the `fault` message would crash in its first match with a
    // fault: check-bot sends the notice too, so the crash shows here.
    let bot = zoo("fault_notice.py");
    let (code, report) = check(&["python3", &bot], Some("classic"));
    assert_eq!(code, 4, "{report}");
    assert!(report.contains("illegal fault: bet 999999"), "{report}");
    assert!(report.contains("crashed fault"), "{report}");
    assert!(
        report.contains("fault notice: illegal for request 1, applied {'action': 'pack'}"),
        "the notice and its fields, in the bot's own stderr: {report}"
    );
}

#[test]
fn checks_a_crashed_bot_never_reached_say_it_had_stopped() {
    let bot = zoo("crash_mid_hand.py");
    let (code, report) = check(&["python3", &bot], Some("closest-555"));
    assert_eq!(code, 4, "{report}");
    assert!(report.contains("crashed fault"), "{report}");
    assert!(
        report.contains(
            "SKIP  exits when told                    not reached: the bot was stopped after a crashed fault at hand 1 (the request with \"id\":2, \"hand\":0)"
        ),
        "{report}"
    );
    assert!(
        report.contains(
            "skipped (not checked after an earlier failure: see the failure before them)"
        ),
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

/// reused_id.py answers its first request right and every later one with a stale id: the
/// failures are the report; no "bet decisions ... answered" pass stands beside them, and the
/// pass that is true of another check (it exits when told) comes before them.
#[test]
fn a_kind_of_decision_that_failed_gets_no_pass() {
    let bot = zoo("reused_id.py");
    let (code, report) = check(&["python3", &bot], Some("classic"));
    assert_eq!(code, 4, "{report}");
    assert!(
        report.contains("FAIL  bet decision (hand 2, \"id\":2)"),
        "{report}"
    );
    assert!(!report.contains("PASS  bet decisions"), "{report}");
    assert!(
        report.contains("\n  PASS  exits when told                    exited with status 0 after match_end\n  FAIL  "),
        "{report}"
    );
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
    // check-bot gives no time bank: the message names the one limit there is.
    assert!(
        report.contains(
            "timeout fault: no answer within 200 ms, the time for one decision (--decision-ms; \
             check-bot has no time bank); a late answer with \"id\":1 is dropped"
        ),
        "{report}"
    );
    assert!(
        !report.contains("plus the bank") && !report.contains("in the bank"),
        "{report}"
    );
    // The sideshow the scenario is for never came: the arena's packs for the bot avoided it,
    // not the bot's own choices.
    assert!(
        report.contains(
            "SKIP  sideshow_reply decisions           not reached: the arena answered the failed decisions above for the bot (pack, keep, refuse), which avoided this situation"
        ),
        "{report}"
    );
    assert!(!report.contains("the bot's own choices"), "{report}");
    assert_no_pass_after_a_failure(&report);
}

/// A debug `print` on stdout: one failure, one hint saying where logs belong, and no cascade
/// (the correct answer that follows the debug line is not read as the next request's).
#[test]
fn text_on_stdout_is_one_failure_with_a_hint_and_no_cascade() {
    let bot = zoo("debug_stdout.py");
    let (code, report) = check(&["python3", &bot], None);
    assert_eq!(code, 4, "{report}");
    assert_eq!(report.matches("FAIL  ").count(), 1, "{report}");
    assert!(
        report.contains("FAIL  bet decision (hand 1, \"id\":1)      malformed fault: "),
        "{report}"
    );
    assert!(
        report.contains("sent:     thinking about request 1\n"),
        "{report}"
    );
    assert_eq!(
        report
            .matches("note:     stdout carries the protocol: every line a bot writes there must be one JSON object. Write logs and debug output to stderr instead (Python: print(..., file=sys.stderr);")
            .count(),
        1,
        "{report}"
    );
    assert!(!report.contains("wrong_id"), "{report}");
    assert!(
        report.contains(
            "SKIP  exits when told                    not checked: the checks stopped at hand 1 (the request with \"id\":1, \"hand\":0), where the bot wrote text on stdout"
        ),
        "{report}"
    );
    // The other scenarios would repeat the same failure: they are not run, and that is said.
    assert!(
        report.contains(
            "\nthe 6 other scenarios\n  SKIP  not run                            the bot writes text that is not JSON on its stdout (see above); fix that first\n"
        ),
        "{report}"
    );
    assert!(
        report.contains("\n1 passed, 1 failed, 2 skipped (not checked after an earlier failure"),
        "{report}"
    );
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
