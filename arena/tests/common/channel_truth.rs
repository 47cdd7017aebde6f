//! What a hostile `attack_channel.py` sends, and how likely a receiver's score is by chance:
//! shared by the arena's covert-channel tests and the ladder's collusion test (which includes
//! this file with `#[path]`).

/// splitmix64's finaliser (attack_channel.py's `mix`).
pub fn mix(x: u64) -> u64 {
    let mut x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The bits the sender sends under `key` (attack_channel.py's `prf`).
pub fn prf(nonce: u64, key: u64) -> u64 {
    mix(mix(nonce) ^ key)
}

/// A nonce no other run shares (so that two runs never read each other's state).
pub fn fresh_nonce() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    mix(nanos ^ (u64::from(std::process::id()) << 32)) % 1_000_000_000_000
}

/// ln C(n, k).
pub fn ln_choose(n: u64, k: u64) -> f64 {
    (1..=k).map(|i| ((n - k + i) as f64 / i as f64).ln()).sum()
}

/// P(Bin(n, 1/2) >= k).
pub fn tail(n: u64, k: u64) -> f64 {
    (k..=n)
        .map(|i| (ln_choose(n, i) - n as f64 * std::f64::consts::LN_2).exp())
        .sum::<f64>()
        .min(1.0)
}
