//! Plays random hands in-process with the rules engine, as a researcher's starting point:
//! `cargo run --release -p teenpatti-rules --example random_hands -- [GAME] [SEATS] [HANDS]`
//! (defaults: closest-555, 3 seats, 100000 hands). Prints each seat's net chips, which sum to
//! zero, and the engine's speed.

use std::time::Instant;

use rules::{Action, EndReason, Event, Hand, LegalAction, Settings, Variant};

/// xorshift64*: a tiny deterministic chooser, so two runs play the same hands.
struct Chooser(u64);

impl Chooser {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let variant: Variant = args.next().as_deref().unwrap_or("closest-555").parse()?;
    let seats: usize = args.next().as_deref().unwrap_or("3").parse()?;
    let hands: u64 = args.next().as_deref().unwrap_or("100000").parse()?;

    let settings = Settings::new(variant);
    let mut chooser = Chooser(0x9E37_79B9_7F4A_7C15);
    let mut net = vec![0i64; seats];
    let (mut decisions, mut shows) = (0u64, 0u64);
    let started = Instant::now();
    for index in 0..hands {
        // Hand `index` of the match with seed 42: the same cards the arena deals for it.
        let dealer = (index % seats as u64) as usize;
        let (mut hand, _deal_events) = Hand::seeded(settings, seats, dealer, 42, index)?;
        while let Some(decision) = hand.to_act() {
            let legal = hand.legal();
            // Pack rarely, so that hands go on to bets, swaps and shows.
            let playable: Vec<&LegalAction> = legal
                .iter()
                .filter(|a| !matches!(a, LegalAction::Pack) || chooser.below(10) == 0)
                .collect();
            let entry = playable[chooser.below(playable.len() as u64) as usize];
            let action: Action = entry.instance(|n| chooser.below(n));
            let events = hand.apply(decision.seat, action)?;
            decisions += 1;
            // The last event of a hand says how it ended.
            if let Some(Event::HandEnded {
                reason: EndReason::Show,
                ..
            }) = events.last()
            {
                shows += 1;
            }
        }
        for (seat, payoff) in hand.payoffs().expect("the hand is over").iter().enumerate() {
            net[seat] += payoff;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{hands} hands of {variant} at {seats} seats, {decisions} decisions, {shows} ended by a show"
    );
    for (seat, chips) in net.iter().enumerate() {
        println!("  seat {}: {chips:+} chips", seat + 1);
    }
    println!("  sum: {} (always zero)", net.iter().sum::<i64>());
    println!("  {:.0} hands/s", hands as f64 / seconds);
    Ok(())
}
