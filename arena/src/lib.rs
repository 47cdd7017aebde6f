//! The arena: the referee, tournaments, standings, replays and their pages, over the bot
//! processes of the `sandbox` crate. The command line over it is the binary's (`main.rs`,
//! `commands/`).

// `println!` and `eprintln!` panic on a closed pipe (`arena ... | head`, or a stderr whose
// reader has gone, which once killed the signal task): write through `console::output` instead.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

pub mod bot_command;
pub mod check_bot;
pub mod console;
pub mod html;
pub mod pack;
pub mod play;
pub mod referee;
// `arena run-bot`, a public module: its `run`, `Outcome` and `Ending` read as the relay's
// only with its name (`arena::run` would not say which run).
pub mod relay;
pub mod replay;
pub mod standings;
pub mod tournament;
pub mod watch;
