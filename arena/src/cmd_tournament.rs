//! `arena tournament`, `arena standings` and `arena merge`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use tokio_util::sync::CancellationToken;

use crate::exit::{Exit, ExitKind};
use crate::output::print;
use crate::standings;
use crate::tournament::output::{read_plan, read_results, write_atomically};
use crate::tournament::{MatchRecord, RunOptions, Tournament, grading};

/// `arena tournament FILE`.
pub async fn tournament(
    file: &Path,
    jobs: Option<usize>,
    out: Option<PathBuf>,
    shard: Option<(u64, u64)>,
    quiet: bool,
    affinity: bool,
) -> anyhow::Result<()> {
    let t = Tournament::load(file).map_err(|e| Exit::new(ExitKind::BadInput, e.to_string()))?;
    let jobs = jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let out = out.unwrap_or_else(|| t.output.clone());
    if !quiet {
        eprintln!(
            "{}",
            crate::bot::SandboxReport::new(t.sandbox, &t.limits).line()
        );
    }
    let options = RunOptions {
        jobs,
        out: out.clone(),
        shard,
        progress: !quiet,
        affinity,
    };
    let cancel = CancellationToken::new();
    crate::signals::cancel_on_signal(cancel.clone());
    let plan = t.clone();
    let summary = crate::tournament::run(t, &options, &cancel)
        .await
        .map_err(|e| match e.downcast::<Exit>() {
            Ok(exit) => anyhow::Error::new(exit),
            Err(e) => e,
        })?;
    let text = write_standings(&out, &summary.records, Some(&plan))?;
    let mut report = String::new();
    report.push_str(&text);
    if let Some((decision, llr, (lower, upper))) = summary.sprt {
        report.push_str(&format!(
            "\nSPRT: {decision:?} (LLR {llr:.3}, bounds [{lower:.3}, {upper:.3}], {} matches)\n",
            summary.records.len()
        ));
    }
    report.push_str(&format!(
        "\n{} matches played now, {} from before; results in {}\n",
        summary.played,
        summary.already_done,
        out.display()
    ));
    print(&report)?;
    if summary.interrupted {
        return Err(Exit::new(
            ExitKind::Interrupted,
            "interrupted: finished matches are saved; run the same command again to resume".into(),
        )
        .into());
    }
    Ok(())
}

/// The grades of a gauntlet `t` (with or without pass marks) over `records`; `None` for other
/// formats.
pub fn gauntlet_report(records: &[MatchRecord], t: &Tournament) -> Option<grading::GradeReport> {
    (t.format == crate::tournament::Format::Gauntlet).then(|| {
        let bots: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
        grading::grade(records, &bots, &t.candidates, &t.pass_marks)
    })
}

/// The standings text of `records`: for a gauntlet (`plan` says), the candidates' ranking
/// against the field and the grades first, then the per-bot totals unranked; otherwise the
/// ranked table.
pub fn standings_text(
    standings: &standings::Standings,
    records: &[MatchRecord],
    plan: Option<&Tournament>,
) -> (String, Option<grading::GradeReport>) {
    match plan.and_then(|t| gauntlet_report(records, t).map(|g| (t, g))) {
        Some((t, grades)) => {
            let mut text = grading::render(&grades, !t.pass_marks.is_empty());
            text.push('\n');
            text.push_str(&standings::render_totals(standings));
            (text, Some(grades))
        }
        None => (standings::render_table(standings), None),
    }
}

/// Computes the standings of `records` and writes them as JSON, CSV and text (and a graded
/// gauntlet's grades.json); returns the text. `plan`: the tournament, when known.
pub fn write_standings(
    out: &Path,
    records: &[MatchRecord],
    plan: Option<&Tournament>,
) -> anyhow::Result<String> {
    let standings = standings::compute(records);
    let (text, grades) = standings_text(&standings, records, plan);
    if let Some(grades) = grades
        && plan.is_some_and(|t| !t.pass_marks.is_empty())
    {
        write_atomically(
            &out.join("grades.json"),
            &serde_json::to_string_pretty(&grades)?,
        )?;
    }
    write_atomically(
        &out.join("standings.json"),
        &serde_json::to_string_pretty(&standings)?,
    )?;
    write_atomically(&out.join("standings.csv"), &standings::to_csv(&standings))?;
    write_atomically(&out.join("standings.txt"), &text)?;
    Ok(text)
}

/// `arena standings DIR`: prints the standings of an output directory again.
pub fn show_standings(dir: &Path) -> anyhow::Result<()> {
    let records: Vec<MatchRecord> = read_results(&dir.join("results.jsonl"))?
        .into_values()
        .collect();
    if records.is_empty() {
        bail!("{} has no finished matches", dir.display());
    }
    let plan = if dir.join("plan.json").is_file() {
        Some(read_plan(dir)?.0)
    } else {
        None
    };
    let standings = standings::compute(&records);
    print(&standings_text(&standings, &records, plan.as_ref()).0)?;
    Ok(())
}

/// `arena merge DIR... --out DIR`: combines shard outputs into one directory with the
/// standings one machine would give.
pub fn merge(dirs: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    let mut tournament: Option<(Tournament, String)> = None;
    let mut all: BTreeMap<u64, MatchRecord> = BTreeMap::new();
    for dir in dirs {
        let (t, fingerprint, _shard) = read_plan(dir)?;
        match &tournament {
            None => tournament = Some((t, fingerprint)),
            // A drawn seed is not in the fingerprint: compare the seeds too.
            Some((first, f)) if *f != fingerprint || first.seed != t.seed => bail!(
                "{} holds a different tournament than {}; refusing to merge",
                dir.display(),
                dirs[0].display()
            ),
            Some(_) => {}
        }
        for (index, record) in read_results(&dir.join("results.jsonl"))? {
            if let Some(existing) = all.get(&index)
                && existing != &record
            {
                bail!(
                    "match {index} has different results in two directories (one is {})",
                    dir.display()
                );
            }
            if let Some(replay) = &record.replay {
                let from = dir.join(replay);
                let to = out.join(replay);
                if from.exists() && from != to {
                    std::fs::create_dir_all(to.parent().expect("replays/ dir"))?;
                    std::fs::copy(&from, &to)
                        .with_context(|| format!("cannot copy {}", from.display()))?;
                }
            }
            all.insert(index, record);
        }
    }
    let Some((mut t, _)) = tournament else {
        bail!("nothing to merge");
    };
    let (mut merged, _) = crate::tournament::output::OutputDir::open(out, &mut t, None)?;
    let already: BTreeMap<u64, MatchRecord> = read_results(&out.join("results.jsonl"))?;
    for record in all.values() {
        if !already.contains_key(&record.index) {
            merged.append(record)?;
        }
    }
    let records: Vec<MatchRecord> = read_results(&out.join("results.jsonl"))?
        .into_values()
        .collect();
    let expected = if t.format == crate::tournament::Format::Sprt {
        records.len()
    } else {
        crate::tournament::schedule::schedule(&t).len()
    };
    let text = write_standings(out, &records, Some(&t))?;
    let missing = expected.saturating_sub(records.len());
    print(&format!(
        "{text}\nmerged {} matches into {}{}\n",
        records.len(),
        out.display(),
        if missing > 0 {
            format!(" ({missing} of the schedule still missing: run the missing shards)")
        } else {
            String::new()
        }
    ))?;
    Ok(())
}

/// Parses `I/N` (1 <= I <= N).
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("expected I/N like 2/8, got {text:?}"))?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("bad shard index in {text:?}"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("bad shard count in {text:?}"))?;
    if n == 0 || i == 0 || i > n {
        return Err(format!("shard {text:?}: need 1 <= I <= N"));
    }
    Ok((i, n))
}
