//! `arena play` driven as a person would, through a pseudo-terminal: cards and menus are
//! shown, wrong input is asked again (never a crash), a show reveals the other hand, and the
//! game ends normally.

mod common;

use std::process::Command;

use common::{arena, root, sample_bot};

fn drive(game: &str) {
    let driver = root().join("arena/tests/pty/drive_play.py");
    let bot = sample_bot("montecarlo-bot");
    let out = Command::new("python3")
        .arg(&driver)
        .arg(arena())
        .arg(&bot)
        .arg(game)
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
