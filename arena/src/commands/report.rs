//! `arena report DIR -o OUT [--replays all|none|sample:N]`: the HTML report of a tournament.

use std::path::PathBuf;

use arena::console::output::{eprint_line, print};
use arena::html::{ReplaySelection, parse_replays, write_report};
use clap::Args;

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A tournament output directory (`arena tournament --out`, or the file's `output`).
    pub dir: PathBuf,
    /// The HTML file to write; its folder is created if missing.
    #[arg(short, long, alias = "output", value_name = "FILE")]
    pub out: PathBuf,
    /// Which matches get a replay page: all, none, or sample:N (N matches spread evenly
    /// over the tournament).
    #[arg(long, default_value = "all", value_parser = parse_replays)]
    pub replays: ReplaySelection,
}

pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let summary = write_report(&args.dir, &args.out, args.replays)?;
    for warning in &summary.warnings {
        eprint_line(&format!("arena: warning: {warning}"));
    }
    let mut pages = match &summary.pages_dir {
        Some(pages_dir) => format!(
            ", {} replay pages in {}",
            summary.pages,
            pages_dir.display()
        ),
        None => String::new(),
    };
    if summary.omitted > 0 {
        pages.push_str(&format!(" ({} replays left out)", summary.omitted));
    }
    print(&format!(
        "{}: report of {} matches{pages}\n",
        args.out.display(),
        summary.matches
    ))?;
    Ok(())
}
