//! `arena merge DIR... --out DIR [--partial]`: shard outputs combined into one directory.

use std::path::PathBuf;

use arena::tournament::{Merged, merge};
use clap::Args;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Shard output directories.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The merged output directory, created if missing.
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// Merge even if shards or matches are missing (the standings are then partial).
    #[arg(long)]
    pub partial: bool,
}

pub fn run(args: MergeArgs) -> anyhow::Result<()> {
    let Merged {
        standings_text,
        matches,
        still_missing,
    } = merge(&args.dirs, &args.out, args.partial).map_err(super::exit_error)?;
    arena::console::output::print(&format!(
        "{standings_text}\nmerged {matches} matches into {}{}\n",
        args.out.display(),
        match still_missing {
            Some(what) => format!(
                "\nPARTIAL standings (--partial): {what}; merge again with the missing shards"
            ),
            None => String::new(),
        }
    ))?;
    Ok(())
}
