//! RULES.md's hand examples, checked with what `arena compare` runs (`arena::referee::compare::run`), so
//! that the rules document cannot drift from the engine.
//!
//! The examples live in fenced blocks whose info string is `compare GAME [ORDER]`, one example a
//! line, `#` starting a comment:
//!
//! ```text
//! As Kd 3h  beats     2c 2d 9s    # verdict: the first hand wins
//! 2h 4h 3d  ties      2d 3h 4c    # both win
//! As 7d 9h  loses to  2s 3s 7s    # the second hand wins
//! Kh Kd 5c  is        trail K-K-K # the description: category and deciding ranks,
//! 5s 5h 4d  is        554         #   a Closest to 555 number,
//! Ah Kh Qd  is        dead        #   or a dead Lallan Kallan hand
//! ```
//!
//! A line that does not parse fails the test, as does a deal with a card in both hands (compare
//! refuses it), so an example cannot be skipped silently.

use std::path::Path;

use rules::{SequenceOrder, Variant};
use serde_json::Value;

/// What an example says of its hands.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// `beats`, `ties`, `loses to`: the indices of the winning hands.
    Winners(Vec<usize>),
    /// `is`: what compare must describe the single hand as.
    Is(Description),
}

#[derive(Debug, Clone, PartialEq)]
enum Description {
    /// A category (`high_card` ... `trail`) and the deciding cards' ranks, most significant first.
    Ranked {
        category: String,
        ranks: Vec<String>,
    },
    /// A Closest to 555 hand's best number.
    Number(u64),
    Dead,
}

#[derive(Debug)]
struct Example {
    /// 1-based line of the document, for messages.
    line: usize,
    text: String,
    hands: Vec<Vec<String>>,
    expect: Expect,
}

#[derive(Debug)]
struct Block {
    line: usize,
    variant: Variant,
    order: SequenceOrder,
    examples: Vec<Example>,
}

fn parse_hand(text: &str) -> Result<Vec<String>, String> {
    let cards: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if cards.len() != 3 || cards.iter().any(|c| c.len() != 2) {
        return Err(format!("{text:?} is not three two-character cards"));
    }
    Ok(cards)
}

fn parse_description(text: &str) -> Result<Description, String> {
    let text = text.trim();
    if text == "dead" {
        return Ok(Description::Dead);
    }
    if let Ok(number) = text.parse::<u64>() {
        return Ok(Description::Number(number));
    }
    // "pure sequence A-K-Q": the category's words, then the ranks joined by dashes.
    let (category, ranks) = text
        .rsplit_once(' ')
        .ok_or_else(|| format!("{text:?}: expected `CATEGORY R-R-R`, a number or `dead`"))?;
    let ranks: Vec<String> = ranks.split('-').map(str::to_string).collect();
    if ranks.len() != 3 {
        return Err(format!("{text:?}: expected three ranks like A-K-Q"));
    }
    Ok(Description::Ranked {
        category: category.trim().replace(' ', "_"),
        ranks,
    })
}

fn parse_example(line: usize, text: &str) -> Result<Example, String> {
    // The verdict word splits the line: three cards, the verdict, the rest.
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 4 {
        return Err(format!("line {line}: {text:?} is too short for an example"));
    }
    let first = parse_hand(&words[..3].join(" ")).map_err(|e| format!("line {line}: {e}"))?;
    let (verdict, rest) = match words[3] {
        "loses" if words.get(4) == Some(&"to") => ("loses to", &words[5..]),
        word => (word, &words[4..]),
    };
    let rest = rest.join(" ");
    let (hands, expect) = match verdict {
        "is" => (
            vec![first],
            Expect::Is(parse_description(&rest).map_err(|e| format!("line {line}: {e}"))?),
        ),
        "beats" | "ties" | "loses to" => {
            let second = parse_hand(&rest).map_err(|e| format!("line {line}: {e}"))?;
            let winners = match verdict {
                "beats" => vec![0],
                "ties" => vec![0, 1],
                _ => vec![1],
            };
            (vec![first, second], Expect::Winners(winners))
        }
        other => {
            return Err(format!(
                "line {line}: {other:?} is not `beats`, `ties`, `loses to` or `is`"
            ));
        }
    };
    Ok(Example {
        line,
        text: text.to_string(),
        hands,
        expect,
    })
}

/// Every `compare` block of `doc` (fences may be indented, as inside a list item).
fn compare_blocks(doc: &str) -> Result<Vec<Block>, String> {
    let mut blocks = Vec::new();
    let mut lines = doc.lines().enumerate();
    while let Some((index, raw)) = lines.next() {
        let Some(info) = raw.trim().strip_prefix("```compare") else {
            continue;
        };
        let line = index + 1;
        let mut words = info.split_whitespace();
        let variant: Variant = words
            .next()
            .ok_or_else(|| format!("line {line}: a compare block names its game"))?
            .parse()
            .map_err(|e| format!("line {line}: {e}"))?;
        let order: SequenceOrder = match words.next() {
            Some(order) => order.parse().map_err(|e| format!("line {line}: {e}"))?,
            None => SequenceOrder::A23High,
        };
        let mut examples = Vec::new();
        let mut closed = false;
        for (index, raw) in lines.by_ref() {
            let text = raw.trim();
            if text == "```" {
                closed = true;
                break;
            }
            let text = text.split('#').next().unwrap_or_default().trim();
            if !text.is_empty() {
                examples.push(parse_example(index + 1, text)?);
            }
        }
        if !closed {
            return Err(format!("line {line}: the compare block is never closed"));
        }
        if examples.is_empty() {
            return Err(format!("line {line}: an empty compare block"));
        }
        blocks.push(Block {
            line,
            variant,
            order,
            examples,
        });
    }
    Ok(blocks)
}

fn matches(description: &Description, got: &Value) -> bool {
    match description {
        Description::Dead => got["kind"] == "dead",
        Description::Number(n) => got["kind"] == "closest555" && got["number"] == *n,
        Description::Ranked { category, ranks } => {
            let got_ranks: Option<Vec<&str>> = got["cards"].as_array().map(|cards| {
                cards
                    .iter()
                    .map(|c| c.as_str().map_or("", |c| &c[..c.len() - 1]))
                    .collect()
            });
            got["kind"] == "ranked"
                && got["category"] == category.as_str()
                && got_ranks.is_some_and(|got| got == *ranks)
        }
    }
}

/// Runs each block through compare; returns one message per example that does not hold.
fn problems(blocks: &[Block]) -> Vec<String> {
    let mut problems = Vec::new();
    for block in blocks {
        let input: String = block
            .examples
            .iter()
            .map(|e| serde_json::to_string(&e.hands).unwrap() + "\n")
            .collect();
        let mut output = Vec::new();
        arena::referee::compare::run(block.variant, block.order, input.as_bytes(), &mut output)
            .expect("compare writes to memory");
        let verdicts: Vec<Value> = String::from_utf8(output)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(verdicts.len(), block.examples.len(), "one verdict per line");
        for (example, verdict) in block.examples.iter().zip(&verdicts) {
            let holds = match (&example.expect, verdict.get("error")) {
                (_, Some(_)) => false,
                (Expect::Winners(winners), None) => {
                    verdict["winners"] == serde_json::json!(winners)
                }
                (Expect::Is(description), None) => matches(description, &verdict["hands"][0]),
            };
            if !holds {
                problems.push(format!(
                    "line {}: `{}` ({:?}, {:?}): compare says {verdict}",
                    example.line, example.text, block.variant, block.order
                ));
            }
        }
    }
    problems
}

/// Prose that looks like a hand example outside a block (`As Ah Ac` beats ...) would escape
/// the check: hand examples belong in `compare` blocks.
fn inline_examples(doc: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_block = false;
    for (index, line) in doc.lines().enumerate() {
        if line.trim().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        for verdict in ["` beats `", "` ties `", "` loses to `"] {
            if let Some(at) = line.find(verdict) {
                let before = &line[..at];
                let hand = before.rsplit('`').next().unwrap_or_default();
                if parse_hand(hand).is_ok() {
                    found.push(format!("line {}: {line}", index + 1));
                }
            }
        }
    }
    found
}

fn rules_md() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../RULES.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn rules_md_hand_examples_hold_in_arena_compare() {
    let doc = rules_md();
    let blocks = compare_blocks(&doc).unwrap_or_else(|e| panic!("RULES.md: {e}"));
    let count: usize = blocks.iter().map(|b| b.examples.len()).sum();
    // Each game has its examples: an extractor that finds nothing cannot pass.
    for variant in Variant::ALL {
        assert!(
            blocks.iter().any(|b| b.variant == variant),
            "RULES.md has no compare block for {variant:?} (blocks at lines {:?})",
            blocks.iter().map(|b| b.line).collect::<Vec<_>>()
        );
    }
    assert!(count >= 10, "only {count} examples found in RULES.md");
    let problems = problems(&blocks);
    assert!(
        problems.is_empty(),
        "RULES.md examples that arena compare contradicts:\n{}",
        problems.join("\n")
    );
    let inline = inline_examples(&doc);
    assert!(
        inline.is_empty(),
        "hand examples outside a compare block (move them into one):\n{}",
        inline.join("\n")
    );
    eprintln!(
        "checked {count} examples in {} compare blocks",
        blocks.len()
    );
}

/// The check itself can fail: wrong verdicts, a card dealt twice, a wrong description and a
/// line that does not parse are each reported.
#[test]
fn wrong_examples_are_caught() {
    let doc = "\
text
```compare classic
Ac Ad Ah  loses to  As 2s 3s   # wrong verdict
As Ah Ac  beats     As 2s 3s   # As twice: compare refuses the deal
2h 4h 3d  beats     2d 3h 4c   # a tie, not a win
Kh Kd 5c  is        pair K-K-5     # right: in the classic game no card is wild
Kh Kd 5c  is        trail K-K-K    # wrong in the classic game
```
  ```compare lallan-kallan
  Ah 8h 4s  is        colour A-8-4
  Ah Kh Qd  is        dead
  ```
```compare closest-555
5s 5h 4d  is        555
```
";
    let blocks = compare_blocks(doc).unwrap();
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[1].variant, Variant::LallanKallan);
    let problems = problems(&blocks);
    let lines: Vec<&str> = problems
        .iter()
        .map(|p| p.split(':').next().unwrap())
        .collect();
    assert_eq!(
        lines,
        ["line 3", "line 4", "line 5", "line 7", "line 10", "line 14"],
        "{problems:#?}"
    );

    for bad in [
        "```compare classic\nAs Kd 3h  trumps  2c 2d 9s\n```\n",
        "```compare classic\nAs Kd  beats  2c 2d 9s\n```\n",
        "```compare classic\nAs Kd 3h  is  pair\n```\n",
        "```compare classic\n```\n",
        "```compare\nAs Kd 3h  beats  2c 2d 9s\n```\n",
        "```compare poker\nAs Kd 3h  beats  2c 2d 9s\n```\n",
        "```compare classic\nAs Kd 3h  beats  2c 2d 9s\n",
    ] {
        assert!(compare_blocks(bad).is_err(), "{bad:?} should not parse");
    }
    assert_eq!(
        inline_examples("Examples: `As Ah Ac` beats `Ks 2s 3s`.\n```\n`2h 4h 3d` ties `x`\n```\n")
            .len(),
        1
    );
}
