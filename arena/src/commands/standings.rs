//! `arena standings DIR`: prints the standings of a tournament output directory again.

use std::path::PathBuf;

use anyhow::bail;
use arena::tournament::read_results;
use arena::tournament::{MatchRecord, planned, standings_of, standings_text};
use clap::Args;

#[derive(Args, Debug)]
pub struct StandingsArgs {
    /// A tournament output directory (`arena tournament --out`, or the file's `output`).
    pub dir: PathBuf,
}

pub fn run(args: StandingsArgs) -> anyhow::Result<()> {
    let dir = &args.dir;
    let records: Vec<MatchRecord> = read_results(&dir.join("results.jsonl"))?
        .into_values()
        .collect();
    if records.is_empty() {
        bail!("{} has no finished matches", dir.display());
    }
    let standings = standings_of(dir, &records);
    let plan = planned(dir).map(|p| p.tournament);
    arena::console::output::print(&standings_text(&standings, plan.as_ref()).0)?;
    Ok(())
}
