//! The arena: bot processes, the referee, replays and the command line.

pub mod bot;
pub mod bot_command;
pub mod cli;
pub mod cmd_match;
pub mod compare;
pub mod output;
pub mod referee;
pub mod replay;
