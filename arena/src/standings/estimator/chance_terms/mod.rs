//! The chance terms, one module per game: for each hand and seat, terms
//! `f(outcome) − E[f(outcome) | everything before it]` at the chance events of the hand (the
//! deal, a swap's draw, a redeal), each of mean zero whatever the bots do.
//!
//! * [`classic`]: the classic game's lazy deal (a seat's cards drawn when it sees them, or at
//!   the showdown), one term, weighted by the pot.
//! * [`closest`]: Closest to 555's deal and every swap's draw, as moves between cells of the
//!   deal table ([`super::deal_table`]: own strength class, opponent's, win/tie/lose).
//! * [`lallan`]: Lallan Kallan's deals, redeals included, in the same cells.

pub mod classic;
pub mod closest;
pub mod lallan;

#[cfg(test)]
mod tests {
    use crate::standings::estimator::HandControls;

    /// A weight per term index, making a fixed mixture of a hand's terms.
    pub type Weight = Box<dyn Fn(usize) -> f64>;

    /// Each seat's mixtures of the hands' terms (each a mean-zero sum) have spread and a mean
    /// within 4 standard errors of 0 (single cells are too rare for a normal test); and every
    /// seat's terms of a hand sum to zero (each event moves one cell in and takes a
    /// distribution over cells out).
    pub fn assert_mixtures_have_mean_zero(hands: &[HandControls], mixtures: &[(&str, Weight)]) {
        for seat in 0..2 {
            for (name, w) in mixtures {
                let x: Vec<f64> = hands
                    .iter()
                    .map(|h| h.z[seat].iter().enumerate().map(|(i, z)| w(i) * z).sum())
                    .collect();
                let n = x.len() as f64;
                let mean = x.iter().sum::<f64>() / n;
                let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
                let se = (var / n).sqrt();
                assert!(var > 0.0, "{name}: no spread");
                assert!(
                    mean.abs() < 4.0 * se,
                    "{name}, seat {seat}: mean {mean}, se {se}"
                );
            }
        }
        for h in hands {
            for z in &h.z {
                assert!(z.iter().sum::<f64>().abs() < 1e-9, "{z:?}");
            }
        }
    }
}
