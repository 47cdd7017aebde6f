//! `arena compare --game G`: JSON lines of hands on stdin, one verdict line each on stdout.

use std::io;
use std::process::ExitCode;

use arena::console::exit::ExitKind;
use arena::console::output::eprint_line;
use clap::Args;
use protocol::{SequenceOrder, Variant};

use super::shared_args::{order_parser, variant_parser};

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The game whose hand ranking applies.
    #[arg(long, alias = "variant", value_parser = variant_parser())]
    pub game: Variant,
    /// Which of the two top runs ranks higher.
    #[arg(long, default_value = "a23-high", value_parser = order_parser())]
    pub sequence_order: SequenceOrder,
}

/// Bad lines are answered with error lines and counted: the exit code says there were some.
pub fn run(args: CompareArgs) -> anyhow::Result<ExitCode> {
    let stdin = io::stdin().lock();
    let bad =
        arena::referee::compare::run(args.game, args.sequence_order, stdin, io::stdout().lock())?;
    if bad > 0 {
        eprint_line(&format!(
            "arena compare: {bad} bad line(s); see the error lines"
        ));
        return Ok(ExitCode::from(ExitKind::BadLines.code()));
    }
    Ok(ExitCode::SUCCESS)
}
