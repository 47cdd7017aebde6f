//! `arena replay verify`: re-simulates a replay from its seed and recorded actions and fails on
//! the first difference.

use rules::{Event, Hand};

use super::record::{Header, Record};

/// The first difference between a replay and its re-simulation.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("record {line}: {problem}")]
    Mismatch { line: usize, problem: String },
    #[error("the replay has no header on its first line")]
    NoHeader,
    #[error("unsupported replay: {0}")]
    Unsupported(String),
}

/// What a successful verification checked.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Verified {
    pub hands: u64,
    pub actions: u64,
    pub events: u64,
}

/// Re-simulates every hand: the deal from the seed, then each recorded action; every event the
/// engine produces must equal the recorded one, and the result must match the payoffs.
pub fn verify(records: &[Record]) -> Result<Verified, VerifyError> {
    let Some(Record::Header(header)) = records.first() else {
        return Err(VerifyError::NoHeader);
    };
    check_header(header)?;
    let n = header.bots.len();
    let mut verified = Verified::default();
    let mut hand: Option<(u64, Hand)> = None;
    // Engine events not yet matched against the file, in order.
    let mut expected: std::collections::VecDeque<Event> = Default::default();
    let mut totals = vec![0i64; n];
    let mismatch = |line: usize, problem: String| VerifyError::Mismatch {
        line: line + 1,
        problem,
    };
    for (line, record) in records.iter().enumerate().skip(1) {
        match record {
            Record::Event { hand: h, event } => {
                if expected.is_empty() {
                    // A new hand starts with the events of its deal.
                    if let Some((_, current)) = &hand
                        && !current.is_over()
                    {
                        return Err(mismatch(line, "an event nobody's action explains".into()));
                    }
                    let k = h.checked_sub(header.first_hand).ok_or_else(|| {
                        mismatch(line, format!("hand {h} is before the first hand"))
                    })?;
                    let dealer = (header.first_dealer + k as usize) % n;
                    let (new, events) =
                        Hand::seeded(header.settings, n, dealer, header.seed, *h)
                            .map_err(|e| mismatch(line, format!("cannot deal hand {h}: {e}")))?;
                    expected.extend(events);
                    hand = Some((*h, new));
                    verified.hands += 1;
                }
                let want = expected.pop_front().expect("just filled");
                if want != *event {
                    return Err(mismatch(
                        line,
                        format!(
                            "hand {h}: recorded event {}, re-simulation gives {}",
                            json(event),
                            json(&want)
                        ),
                    ));
                }
                verified.events += 1;
                if let Some((_, current)) = &hand
                    && expected.is_empty()
                    && current.is_over()
                {
                    let payoffs = current.payoffs().expect("over");
                    for (t, p) in totals.iter_mut().zip(payoffs) {
                        *t += p;
                    }
                }
            }
            Record::Action {
                hand: h,
                seat,
                action,
                mix,
                ..
            } => {
                if let Some(mix) = mix
                    && !mix.iter().any(|e| e.action == *action && e.p > 0.0)
                {
                    return Err(mismatch(
                        line,
                        "the action is not one of its mix's (with a positive probability)".into(),
                    ));
                }
                if !expected.is_empty() {
                    return Err(mismatch(
                        line,
                        format!(
                            "an action while the event {} was still due",
                            json(&expected[0])
                        ),
                    ));
                }
                let Some((current_index, current)) = &mut hand else {
                    return Err(mismatch(line, "an action before any hand".into()));
                };
                if h != current_index {
                    return Err(mismatch(
                        line,
                        format!("an action for hand {h} during hand {current_index}"),
                    ));
                }
                let events = current
                    .apply(*seat, *action)
                    .map_err(|e| mismatch(line, format!("the recorded action is illegal: {e}")))?;
                expected.extend(events);
                verified.actions += 1;
            }
            Record::Result(result) => {
                if !expected.is_empty() {
                    return Err(mismatch(
                        line,
                        format!("result while {} was due", json(&expected[0])),
                    ));
                }
                if let Some((_, current)) = &hand
                    && !current.is_over()
                {
                    return Err(mismatch(line, "result before the last hand ended".into()));
                }
                let recorded: Vec<i64> = result.seats.iter().map(|s| s.net).collect();
                if recorded != totals {
                    return Err(mismatch(
                        line,
                        format!(
                            "result says net chips {}, re-simulation gives {}",
                            chips(&recorded),
                            chips(&totals)
                        ),
                    ));
                }
                if verified.hands != header.hands {
                    return Err(mismatch(
                        line,
                        format!(
                            "header says {} hands, the replay has {}",
                            header.hands, verified.hands
                        ),
                    ));
                }
                return Ok(verified);
            }
            Record::Header(_) => return Err(mismatch(line, "a second header".into())),
            Record::Bot { .. } | Record::Fault { .. } => {}
        }
    }
    Err(VerifyError::Mismatch {
        line: records.len(),
        problem: "the replay ends without a result record (was the match interrupted?)".into(),
    })
}

fn check_header(header: &Header) -> Result<(), VerifyError> {
    if header.format != super::REPLAY_FORMAT {
        return Err(VerifyError::Unsupported(format!(
            "format {}",
            crate::console::quote::quoted(&header.format)
        )));
    }
    if header.version != super::REPLAY_VERSION {
        return Err(VerifyError::Unsupported(format!(
            "version {}",
            header.version
        )));
    }
    if header.deal != rules::deck::DEAL_ALGORITHM {
        return Err(VerifyError::Unsupported(format!(
            "deal algorithm {}",
            header.deal
        )));
    }
    Ok(())
}

/// An event as the replay writes it, for messages.
fn json(event: &Event) -> String {
    serde_json::to_string(event).unwrap_or_else(|_| format!("{event:?}"))
}

/// Net chips per seat as a list: `+12 -12`.
fn chips(net: &[i64]) -> String {
    net.iter()
        .map(|n| format!("{n:+}"))
        .collect::<Vec<_>>()
        .join(" ")
}
