//! The arena: bot processes, the referee, tournaments, standings, replays and their pages.
//! The command line over it is the binary's (`main.rs`, `commands/`).

// `println!` and `eprintln!` panic on a closed pipe (`arena ... | head`, or a stderr whose
// reader has gone, which once killed the signal task): write through `output` instead.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

pub mod bot;
pub mod bot_command;
pub mod check_bot;
pub mod compare;
pub mod exit;
pub mod html;
pub mod output;
pub mod pack;
pub mod play;
pub mod quote;
pub mod referee;
pub mod relay;
pub mod replay;
pub mod seeds;
pub mod signals;
pub mod standings;
pub mod tournament;
pub mod watch;
