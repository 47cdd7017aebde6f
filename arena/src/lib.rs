//! The arena: bot processes, the referee, tournaments, standings, replays and their pages.
//! The command line over it is the binary's (`main.rs`, `commands/`).

// `println!` and `eprintln!` panic on a closed pipe (`arena ... | head`, or a stderr whose
// reader has gone, which once killed the signal task): write through `console::output` instead.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

pub mod bot;
pub mod bot_command;
pub mod check_bot;
pub mod console;
pub mod html;
pub mod pack;
pub mod play;
pub mod referee;
pub mod replay;
pub mod standings;
pub mod tournament;
pub mod watch;
