//! Printing the standings: a fixed-width text table with the crosstable, and CSV.

use std::fmt::Write as _;

use protocol::FaultKind;

use super::compute::Standings;
use super::stats::Interval;

/// The standings as a fixed-width text table (rank, bot, chips/hand ± 95% half-width, the 95%
/// interval, total chips, W-L-D, rating ± error, faults), then the crosstable as a matrix whose
/// cell (row A, column B) is A's edge over B in chips per hand, followed by `+` or `-` when it is
/// significant at 95%. Unbounded intervals (a single block) print as `unbounded` / `± inf`.
pub fn render_table(standings: &Standings) -> String {
    render(standings, true)
}

/// [`render_table`] for a gauntlet: the same table, with numbered lines (`#`) instead of ranks
/// and a title that says what it is: every bot's totals in rating order, where a rating
/// compares bots only through the opponents they shared (the reference bots met only the
/// candidates). The ranking of a gauntlet is the candidates' one, printed above it.
pub fn render_totals(standings: &Standings) -> String {
    render(standings, false)
}

fn render(standings: &Standings, ranked: bool) -> String {
    let mut out = String::new();
    if ranked {
        let _ = writeln!(
            out,
            "Standings: {} bots, {} matches, {} duplicate blocks",
            standings.bots.len(),
            standings.matches,
            standings.blocks
        );
    } else {
        let _ = writeln!(
            out,
            "Every bot's totals, in rating order (the reference bots met only the candidates, so \
             a rating or tier compares two bots only through the opponents they shared): {} \
             bots, {} matches, {} duplicate blocks",
            standings.bots.len(),
            standings.matches,
            standings.blocks
        );
    }
    if standings.bots.is_empty() {
        return out;
    }

    let header = [
        if ranked { "rank" } else { "#" },
        "tier",
        "bot",
        "chips/hand",
        "95% CI",
        "total",
        "W-L-D",
        "rating",
        "faults",
    ];
    let rows: Vec<Vec<String>> = standings
        .bots
        .iter()
        .map(|b| {
            let half = match b.ci {
                Some(ci) => format!("{:.3}", ci.half_width()),
                None => "inf".to_string(),
            };
            let rating = match b.rating_error {
                Some(e) => format!("{:+.0} ± {:.0}", b.rating, e),
                None => format!("{:+.0} ± inf", b.rating),
            };
            vec![
                b.rank.to_string(),
                b.tier.to_string(),
                b.name.clone(),
                format!("{:+.3} ± {half}", b.chips_per_hand),
                interval(b.ci),
                format!("{:+}", b.chips),
                format!("{}-{}-{}", b.won, b.lost, b.drawn),
                rating,
                faults(&b.faults),
            ]
        })
        .collect();
    // Left-aligned: bot and faults; the rest right-aligned.
    let left = [false, false, true, false, false, false, false, false, true];
    write_table(&mut out, &header, &rows, &left);
    out.push_str(&legend(if ranked { "rank" } else { "#" }));

    if !standings.crosstable.is_empty() {
        out.push('\n');
        let _ = writeln!(
            out,
            "Crosstable: row's edge over column, chips/hand ((row net - column net) / 2 per hand; \
             heads-up, the row's chips/hand); +/- significant at 95% over duplicate blocks, each \
             pair on its own: among many pairs of equal bots about 1 in 20 shows a mark by chance"
        );
        let first = if ranked { "rank" } else { "#" };
        let mut header: Vec<String> = vec![first.into(), "bot".into()];
        header.extend(standings.bots.iter().map(|b| b.rank.to_string()));
        let rows: Vec<Vec<String>> = standings
            .bots
            .iter()
            .map(|row| {
                let mut cells = vec![row.rank.to_string(), row.name.clone()];
                for column in &standings.bots {
                    let cell = if row.name == column.name {
                        "x".to_string()
                    } else {
                        match standings.cross(&row.name, &column.name) {
                            Some(e) => format!("{:+.3}{:1}", e.edge_per_hand, e.mark),
                            None => ".".to_string(),
                        }
                    };
                    cells.push(cell);
                }
                cells
            })
            .collect();
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut left = vec![false; header.len()];
        left[1] = true;
        write_table(&mut out, &header, &rows, &left);
    }
    if let Some(sprt) = &standings.sprt {
        out.push('\n');
        let _ = writeln!(out, "SPRT: {}", sprt.verdict);
        let _ = writeln!(out, "  {}", sprt.h0);
        let _ = writeln!(out, "  {}", sprt.h1);
        if !sprt.estimator.is_empty() {
            let revision = sprt
                .estimator_revision
                .map(|r| format!(". Estimator revision {r}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  Each block's observation: {}{revision}.",
                sprt.estimator
            );
        }
        if let Some(caveat) = &sprt.caveat {
            let _ = writeln!(out, "  Note: {caveat}");
        }
        if sprt.uncorrected_blocks > 0 {
            let _ = writeln!(
                out,
                "  {} blocks were scored without the luck correction (their replays could not be read).",
                sprt.uncorrected_blocks
            );
        }
    }
    out
}

/// One sentence per column of the standings table, whose first column is `first`.
fn legend(first: &str) -> String {
    format!(
        "Columns:
  {first}, rating: order by rating, Bradley-Terry (Elo scale, mean 0) on duplicate blocks: in each
    block a bot beats another when its chips edge over it is positive (+200: ~76% of blocks
    won against a 0-rated bot); the +/- is a 95% bootstrap half-width.
  tier: bots of one tier are not separable at 95% by rating.
  chips/hand, 95% CI: net chips per hand over all its matches, with its 95% interval over
    duplicate blocks; it depends on who else played (a bot gains most from the weakest).
  total: net chips. W-L-D: matches with the most chips at the table, not, tied.
"
    )
}

/// `[lo, hi]` or `unbounded`.
fn interval(ci: Option<Interval>) -> String {
    match ci {
        Some(ci) => format!("[{:+.3}, {:+.3}]", ci.low, ci.high),
        None => "unbounded".to_string(),
    }
}

/// `timeout:3 crashed:1`, or `-` when there are none.
fn faults(faults: &std::collections::BTreeMap<FaultKind, u64>) -> String {
    let parts: Vec<String> = faults
        .iter()
        .filter(|&(_, &n)| n > 0)
        .map(|(kind, n)| format!("{kind}:{n}"))
        .collect();
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(" ")
    }
}

/// Writes `header` and `rows` padded to the widest cell of each column, two spaces apart.
fn write_table(out: &mut String, header: &[&str], rows: &[Vec<String>], left: &[bool]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut text = String::new();
        for (k, cell) in cells.enumerate() {
            if k > 0 {
                text.push_str("  ");
            }
            let pad = widths[k].saturating_sub(cell.chars().count());
            if left[k] {
                text.push_str(cell);
                text.extend(std::iter::repeat_n(' ', pad));
            } else {
                text.extend(std::iter::repeat_n(' ', pad));
                text.push_str(cell);
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(&mut header.iter().copied());
    for row in rows {
        line(&mut row.iter().map(String::as_str));
    }
}

/// The standings as CSV: a header, then one row per bot, best first. Columns: `rank, bot,
/// matches, blocks, hands, hands_won, chips, chips_per_hand, ci_low, ci_high, won, lost, drawn,
/// rating, rating_error`, then one `faults_<kind>` column per [`FaultKind`], then `tier`. Unbounded intervals
/// and missing errors are empty cells; names are quoted when needed (RFC 4180).
///
/// An SPRT tournament's verdict follows the bots as rows of three cells, `sprt,<key>,<value>`
/// (keys: decision, verdict, candidate, baseline, blocks, mean, llr, lower, upper, alpha, beta,
/// m0, m1, min_blocks, max_blocks): fewer cells than the bot rows, so spreadsheets and CSV
/// readers that pad short rows load the file unchanged, and a reader that wants only the bots
/// drops the rows whose first cell is `sprt`.
pub fn to_csv(standings: &Standings) -> String {
    let mut out = String::from(
        "rank,bot,matches,blocks,hands,hands_won,chips,chips_per_hand,ci_low,ci_high,\
         won,lost,drawn,rating,rating_error",
    );
    for kind in FaultKind::ALL {
        let _ = write!(out, ",faults_{kind}");
    }
    out.push_str(",tier\n");
    for b in &standings.bots {
        let (low, high) = match b.ci {
            Some(ci) => (format!("{:.6}", ci.low), format!("{:.6}", ci.high)),
            None => (String::new(), String::new()),
        };
        let error = b
            .rating_error
            .map(|e| format!("{e:.1}"))
            .unwrap_or_default();
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{:.6},{},{},{},{},{},{:.1},{}",
            b.rank,
            csv_field(&b.name),
            b.matches,
            b.blocks,
            b.hands,
            b.hands_won,
            b.chips,
            b.chips_per_hand,
            low,
            high,
            b.won,
            b.lost,
            b.drawn,
            b.rating,
            error
        );
        for kind in FaultKind::ALL {
            let _ = write!(out, ",{}", b.faults.get(&kind).copied().unwrap_or(0));
        }
        let _ = writeln!(out, ",{}", b.tier);
    }
    if let Some(v) = &standings.sprt {
        let llr = if v.llr.is_infinite() {
            if v.llr > 0.0 { "inf" } else { "-inf" }.to_string()
        } else {
            format!("{:.6}", v.llr)
        };
        let rows: [(&str, String); 15] = [
            ("decision", v.decision.clone()),
            ("verdict", v.verdict.clone()),
            ("candidate", v.candidate.clone()),
            ("baseline", v.baseline.clone()),
            ("blocks", v.blocks.to_string()),
            ("mean", format!("{:.6}", v.mean)),
            ("llr", llr),
            ("lower", format!("{:.6}", v.lower)),
            ("upper", format!("{:.6}", v.upper)),
            ("alpha", v.alpha.to_string()),
            ("beta", v.beta.to_string()),
            ("m0", v.m0.to_string()),
            ("m1", v.m1.to_string()),
            ("min_blocks", v.min_blocks.to_string()),
            ("max_blocks", v.max_blocks.to_string()),
        ];
        let optional = [
            (
                "estimator_revision",
                v.estimator_revision.map(|r| r.to_string()),
            ),
            ("caveat", v.caveat.clone()),
        ];
        let optional = optional
            .into_iter()
            .filter_map(|(key, value)| Some((key, value?)));
        for (key, value) in rows.into_iter().chain(optional) {
            let _ = writeln!(out, "sprt,{key},{}", csv_field(&value));
        }
    }
    out
}

/// Quotes a CSV field if it contains a comma, a quote or a line break.
fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}
