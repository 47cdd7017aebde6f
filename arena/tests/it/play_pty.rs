//! `arena play` driven as a person would, through a pseudo-terminal: cards and menus are
//! shown, wrong input is asked again (never a crash), a show reveals the other hand, and the
//! game ends normally.

use crate::common;

use std::process::Command;

use common::{arena, root, sample_bot};

fn drive(game: &str) {
    drive_with(game, &[]);
}

fn drive_with(game: &str, extra: &[&str]) {
    let driver = root().join("arena/tests/pty/drive_play.py");
    let bot = sample_bot("montecarlo-bot");
    let out = Command::new("python3")
        .arg(&driver)
        .arg(arena())
        .arg(&bot)
        .arg(game)
        .args(extra)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_person_plays_closest_555_through_a_terminal() {
    drive("closest-555");
}

#[test]
fn a_person_plays_the_classic_game_through_a_terminal() {
    drive("classic");
}

/// The wild card of each of the person's live deals is named from the deal on.
#[test]
fn a_person_plays_lallan_kallan_and_sees_the_wild_card() {
    drive("lallan-kallan");
}

/// `quit` at a prompt ends the game there, cleanly (exit 0, the result line).
#[test]
fn a_person_leaves_with_quit() {
    drive_with("closest-555", &["quit"]);
}

/// A bot that faults is played by the arena for the rest of that hand (as in a match): the
/// person sees one fault line per hand at most, and the game goes on to the end. Closest to
/// 555, because there a fault at the swap (kept for the bot) is followed by the same seat's
/// betting decision in the same hand, which must not be asked again.
#[test]
fn a_faulty_bot_is_played_by_the_arena_for_the_rest_of_the_hand() {
    use arena::bot_command::{self, SpecInput};
    use arena::play::{Console, PlayConfig, play};

    let work = tempfile::tempdir().unwrap();
    let zoo = common::zoo("garbage.py");
    let spec = bot_command::spec(SpecInput {
        name: "garbage",
        argv: vec!["python3".into(), zoo.to_string_lossy().into_owned()],
        workdir: work.path().join("bot"),
        log_dir: work.path(),
        seat: 1,
        sandbox: sandbox::SandboxLevel::Limits,
        limits: bot_command::DEFAULT_LIMITS,
    });
    let hands = 6;
    let config = PlayConfig {
        settings: protocol::Settings::new(protocol::Variant::Closest555),
        hands,
        seed: 4,
        seat: 0,
        bots: vec![spec],
        time: protocol::TimeLimits {
            startup_ms: 10_000,
            decision_ms: 5000,
            bank_ms: 0,
        },
    };
    // The person keeps at a swap and bets the minimum; a line that does not fit the prompt
    // is asked again, and the next one fits.
    let input = "keep\nbet\n".repeat(200);
    let mut console = Console {
        input: std::io::Cursor::new(input),
        output: Vec::new(),
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(play(&config, &mut console)).unwrap();
    let screen = String::from_utf8(console.output).unwrap();
    assert!(screen.contains("Game over:"), "{screen}");
    let faults = screen.matches("! garbage fault").count();
    assert!(faults >= 1, "the garbage bot faulted: {screen}");
    assert!(
        faults <= hands as usize,
        "at most one fault a hand: {faults}\n{screen}"
    );
    // garbage.py writes text on stdout: where its output belongs is said once, not each hand
    // (it faults in several).
    assert!(faults >= 2, "{screen}");
    assert_eq!(
        screen
            .matches("    note: stdout carries the protocol: every line a bot writes there must be one JSON object. Write logs and debug output to stderr")
            .count(),
        1,
        "{screen}"
    );
}
