//! `arena pack DIR [--main FILE] [--add FILE]... -o OUT.zip`: a contest upload from a bot's
//! folder (the work is in the library's `pack`).

use std::path::PathBuf;

use clap::Args;

#[derive(Args, Debug)]
pub struct PackArgs {
    /// The bot's folder: a starter kit (sample-bots/c, ...) or your copy of one.
    pub dir: PathBuf,
    /// The bot's main file, relative to DIR (default: the name the server looks for: bot.py,
    /// bot.js, bot.c, Main.java or Bot.java, main.rs; else the folder's only bot). Python
    /// and JavaScript mains are packed as bot.py / bot.js, Rust's as main.rs.
    #[arg(long, value_name = "FILE")]
    pub main: Option<PathBuf>,
    /// Also pack this file (data the bot reads, a .c file no header names), relative to
    /// DIR; repeatable.
    #[arg(long, value_name = "FILE")]
    pub add: Vec<PathBuf>,
    /// The zip to write; its name must end in .zip (the server tells an archive by its name).
    #[arg(short, long, value_name = "OUT.zip")]
    pub out: PathBuf,
}

pub fn run(args: PackArgs) -> anyhow::Result<()> {
    let report = arena::pack::pack(&args.dir, args.main.as_deref(), &args.add, &args.out)
        .map_err(super::exit_error)?;
    arena::console::output::print(&report)?;
    Ok(())
}
