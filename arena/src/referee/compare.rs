//! `arena compare`: who wins among hands given as JSON lines on stdin.
//!
//! Input, one JSON array of hands per line: `[["As","Kd","3h"],["2c","2d","9s"]]`.
//! Output, one JSON object per input line: `{"line":1,"winners":[1],"hands":[...]}` or
//! `{"line":2,"error":"..."}`. A bad line never stops the command.

use std::io::{self, BufRead, Write};

use rules::{Card, HandDescription, SequenceOrder, Variant, card::parse_hand, eval};
use serde::Serialize;

#[derive(Serialize)]
struct Verdict<'a> {
    line: u64,
    winners: Vec<usize>,
    hands: &'a [HandDescription],
}

#[derive(Serialize)]
struct LineError {
    line: u64,
    error: String,
}

/// Runs the comparison loop. Returns the number of bad lines.
pub fn run(
    variant: Variant,
    order: SequenceOrder,
    input: impl BufRead,
    output: impl Write,
) -> io::Result<u64> {
    let mut out = io::BufWriter::new(output);
    let mut bad = 0;
    let mut descriptions = Vec::new();
    for (index, line) in input.split(b'\n').enumerate() {
        let line_no = index as u64 + 1;
        let bytes = line?;
        let text = String::from_utf8_lossy(&bytes);
        if text.trim().is_empty() {
            continue;
        }
        match parse_line(&text) {
            Ok(hands) => {
                descriptions.clear();
                descriptions.extend(hands.iter().map(|h| eval::describe(variant, order, h)));
                let values: Vec<_> = hands
                    .iter()
                    .map(|h| eval::hand_value(variant, order, h))
                    .collect();
                let mut winners = eval::best(&values);
                // Dead Lallan Kallan hands never win: when all are dead, nobody does.
                if variant == Variant::LallanKallan && hands.iter().all(eval::is_dead) {
                    winners.clear();
                }
                serde_json::to_writer(
                    &mut out,
                    &Verdict {
                        line: line_no,
                        winners,
                        hands: &descriptions,
                    },
                )?;
            }
            Err(error) => {
                bad += 1;
                serde_json::to_writer(
                    &mut out,
                    &LineError {
                        line: line_no,
                        error,
                    },
                )?;
            }
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(bad)
}

fn parse_line(text: &str) -> Result<Vec<[Card; 3]>, String> {
    let raw: Vec<Vec<String>> = serde_json::from_str(text).map_err(|e| {
        format!("expected a JSON array of hands like [[\"As\",\"Kd\",\"3h\"],[\"2c\",\"2d\",\"9s\"]]: {e}")
    })?;
    if raw.is_empty() {
        return Err("no hands on this line".into());
    }
    let hands = raw
        .iter()
        .enumerate()
        .map(|(i, h)| parse_hand(h).map_err(|e| format!("hand {i}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    for (i, a) in hands.iter().enumerate() {
        for (j, b) in hands.iter().enumerate().skip(i + 1) {
            if let Some(card) = a.iter().find(|c| b.contains(c)) {
                return Err(format!("card {card} is in hand {i} and hand {j}"));
            }
        }
    }
    Ok(hands)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compare(variant: Variant, input: &str) -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        run(variant, SequenceOrder::A23High, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn names_the_winner_and_describes_each_hand() {
        let out = compare(Variant::Classic, r#"[["As","Kd","3h"],["2c","2d","9s"]]"#);
        assert_eq!(out[0]["winners"], serde_json::json!([1]));
        assert_eq!(out[0]["hands"][1]["category"], "pair");
    }

    #[test]
    fn exact_ties_name_every_winner() {
        let out = compare(
            Variant::Closest555,
            r#"[["5s","5d","4h"],["5c","5h","6s"]]"#,
        );
        assert_eq!(out[0]["winners"], serde_json::json!([0, 1]));
        assert_eq!(out[0]["hands"][0]["distance"], 1);
    }

    #[test]
    fn all_dead_lallan_kallan_hands_have_no_winner() {
        let out = compare(
            Variant::LallanKallan,
            r#"[["As","Ks","2c"],["Ah","Kd","2h"]]"#,
        );
        assert_eq!(out[0]["winners"], serde_json::json!([]));
        assert_eq!(out[0]["hands"][0]["kind"], "dead");
    }

    #[test]
    fn bad_lines_get_an_error_naming_the_line_and_the_run_goes_on() {
        let input = "[[\"As\",\"Kd\",\"3h\"],[\"2c\",\"2d\",\"9s\"]]\nnot json\n[[\"As\",\"Zd\",\"3h\"]]\n[[\"As\",\"Kd\",\"3h\"],[\"As\",\"2d\",\"9s\"]]\n[[\"As\",\"Kd\",\"3h\"]]\n";
        let out = compare(Variant::Classic, input);
        assert_eq!(out.len(), 5);
        assert_eq!(out[1]["line"], 2);
        assert!(out[1]["error"].as_str().unwrap().contains("JSON array"));
        assert!(out[2]["error"].as_str().unwrap().contains("Zd"));
        assert!(out[3]["error"].as_str().unwrap().contains("As"));
        assert_eq!(out[4]["winners"], serde_json::json!([0]));
    }
}
