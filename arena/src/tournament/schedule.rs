//! Which matches a tournament plays: groups of bots, seat permutations for duplicate deals,
//! rounds, and the deal seed of each duplicate block.

use serde::{Deserialize, Serialize};

use super::config::{Format, Tournament};

/// One match of the schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledMatch {
    /// Position in the schedule; names the match's files and orders the results.
    pub index: u64,
    /// Duplicate block: its matches share `seed` (so the same deals) and permute the seats.
    pub block: u64,
    /// Indices into the tournament's bots, in seat order.
    pub seats: Vec<usize>,
    /// Deal seed of the block.
    pub seed: u64,
}

/// The whole schedule of a round-robin or gauntlet (an SPRT's blocks come from `sprt_block`).
pub fn schedule(t: &Tournament) -> Vec<ScheduledMatch> {
    let groups = groups(t);
    let mut out = Vec::new();
    let mut block = 0;
    for round in 0..t.rounds {
        for group in &groups {
            let seed = block_seed(t.seed(), block);
            let perms = if t.duplicate {
                permutations(group.len())
            } else {
                // Without duplicates, rotate seats from round to round for fairness.
                let k = group.len();
                let r = (round as usize) % k;
                vec![(0..k).map(|i| (i + r) % k).collect()]
            };
            for perm in perms {
                out.push(ScheduledMatch {
                    index: out.len() as u64,
                    block,
                    seats: perm.iter().map(|&i| group[i]).collect(),
                    seed,
                });
            }
            block += 1;
        }
    }
    out
}

/// SPRT: block `b` is the candidate (bot 0) and the baseline (bot 1) in both seat orders.
pub fn sprt_block(t: &Tournament, block: u64) -> [ScheduledMatch; 2] {
    let seed = block_seed(t.seed(), block);
    [
        ScheduledMatch {
            index: 2 * block,
            block,
            seats: vec![0, 1],
            seed,
        },
        ScheduledMatch {
            index: 2 * block + 1,
            block,
            seats: vec![1, 0],
            seed,
        },
    ]
}

/// The tables of the schedule, as bot indexes: every combination of bots for a round-robin,
/// each candidate with the field for a gauntlet, leaving out any that would seat two bots
/// of one author (`[[bot]] author`). An SPRT compares two versions of one author's bot: its
/// one pair is kept.
pub(crate) fn groups(t: &Tournament) -> Vec<Vec<usize>> {
    let mut groups = all_groups(t);
    if t.format != Format::Sprt {
        groups.retain(|g| !two_of_one_author(t, g));
    }
    groups
}

fn two_of_one_author(t: &Tournament, group: &[usize]) -> bool {
    group.iter().enumerate().any(|(i, &a)| {
        group[i + 1..].iter().any(
            |&b| matches!((&t.bots[a].author, &t.bots[b].author), (Some(x), Some(y)) if x == y),
        )
    })
}

fn all_groups(t: &Tournament) -> Vec<Vec<usize>> {
    let n = t.bots.len();
    match t.format {
        Format::RoundRobin | Format::Sprt => combinations(&(0..n).collect::<Vec<_>>(), t.seats),
        Format::Gauntlet => {
            let is_candidate = |i: usize| t.candidates.contains(&t.bots[i].name);
            let field: Vec<usize> = (0..n).filter(|&i| !is_candidate(i)).collect();
            let mut out = Vec::new();
            for c in (0..n).filter(|&i| is_candidate(i)) {
                for combo in combinations(&field, t.seats - 1) {
                    let mut group = vec![c];
                    group.extend(combo);
                    out.push(group);
                }
            }
            out
        }
    }
}

/// All k-element subsets of `items`, in lexicographic order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// Seat orders of a duplicate block: every order for up to three seats, otherwise the k
/// rotations (each bot sits in each seat once: a balanced set).
fn permutations(k: usize) -> Vec<Vec<usize>> {
    if k <= 3 {
        let mut all = Vec::new();
        permute(&mut (0..k).collect::<Vec<_>>(), 0, &mut all);
        all.sort();
        all
    } else {
        (0..k)
            .map(|r| (0..k).map(|i| (i + r) % k).collect())
            .collect()
    }
}

fn permute(items: &mut Vec<usize>, start: usize, out: &mut Vec<Vec<usize>>) {
    if start == items.len() {
        out.push(items.clone());
        return;
    }
    for i in start..items.len() {
        items.swap(start, i);
        permute(items, start + 1, out);
        items.swap(start, i);
    }
}

/// The deal seed of a block, derived one-way from the tournament seed in its own domain (see
/// [`crate::referee::seeds`]): a block's deals are not those of any bot seed of the tournament seed,
/// and knowing one block's seed tells nothing of another's.
pub fn block_seed(seed: u64, block: u64) -> u64 {
    crate::referee::seeds::derive(seed, crate::referee::seeds::BLOCK_SEED, block)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_and_permutations_have_the_expected_sizes() {
        assert_eq!(combinations(&[0, 1, 2, 3], 2).len(), 6);
        assert_eq!(combinations(&[0, 1, 2, 3, 4, 5], 3).len(), 20);
        assert_eq!(permutations(2), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(permutations(3).len(), 6);
        let rotations = permutations(6);
        assert_eq!(rotations.len(), 6);
        for seat in 0..6 {
            let mut bots: Vec<usize> = rotations.iter().map(|p| p[seat]).collect();
            bots.sort();
            assert_eq!(
                bots,
                (0..6).collect::<Vec<_>>(),
                "each bot once in seat {seat}"
            );
        }
    }
}
