//! `arena replay verify|show|html FILE`: check, read or view a replay file.

use std::path::PathBuf;

use anyhow::Context;
use arena::console::output::print;
use clap::Subcommand;

#[derive(Subcommand, Debug)]
pub enum ReplayCommand {
    /// Re-simulate the replay from its seed and recorded actions; fail on any difference.
    Verify {
        /// A replay file (JSON lines, from `arena match --replay` or a tournament).
        file: PathBuf,
    },
    /// Print a readable hand history.
    Show {
        /// A replay file (JSON lines, from `arena match --replay` or a tournament).
        file: PathBuf,
    },
    /// Write a self-contained HTML page that replays the match in a browser.
    Html {
        /// A replay file (JSON lines, from `arena match --replay` or a tournament).
        file: PathBuf,
        /// The HTML file to write; its folder is created if missing.
        #[arg(short, long, alias = "output", value_name = "FILE")]
        out: PathBuf,
    },
}

pub fn run(command: ReplayCommand) -> anyhow::Result<()> {
    match command {
        ReplayCommand::Verify { file } => {
            let records = arena::replay::read(&file)?;
            let verified = arena::replay::verify(&records)
                .with_context(|| format!("{} does not re-simulate", file.display()))?;
            print(&format!(
                "{}: OK ({} hands, {} actions, {} events re-simulated)\n",
                file.display(),
                verified.hands,
                verified.actions,
                verified.events
            ))?;
        }
        ReplayCommand::Show { file } => {
            let records = arena::replay::read(&file)?;
            print(&arena::replay::show(&records))?;
        }
        ReplayCommand::Html { file, out } => {
            let hands = arena::html::write_replay_page(&file, &out, None)?;
            print(&format!(
                "{}: replay page of {} ({hands} hands)\n",
                out.display(),
                file.display()
            ))?;
        }
    }
    Ok(())
}
