//! Replay data for a report's replay pages: gzip, then base64, so that it can stand inside a
//! `<script>` element of the page. The browser decodes it with `atob` and
//! `DecompressionStream('gzip')` (see `assets/replay.js`); a page opened from `file://` can do
//! that, whereas it may not `fetch()` a file beside it.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;

/// `bytes` gzipped and base64-encoded (standard alphabet, padded).
///
/// Level 6 (zlib's default): replay lines are very repetitive, and levels above it shrink a
/// replay by under 2% for twice the time.
pub fn gzip_base64(bytes: &[u8]) -> String {
    let mut encoder = GzEncoder::new(Vec::with_capacity(bytes.len() / 8), Compression::new(6));
    encoder
        .write_all(bytes)
        .expect("writing to a Vec cannot fail");
    let gz = encoder.finish().expect("writing to a Vec cannot fail");
    base64(&gz)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with `=` padding (RFC 4648 section 4), as `atob` reads it.
pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> shift) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The inverse of [`gzip_base64`], for tests.
#[cfg(test)]
pub fn gunzip_base64(text: &str) -> String {
    use std::io::Read;
    let mut plain = String::new();
    flate2::read::GzDecoder::new(&tests::unbase64(text)[..])
        .read_to_string(&mut plain)
        .expect("valid gzip");
    plain
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn unbase64(text: &str) -> Vec<u8> {
        let value = |c: u8| ALPHABET.iter().position(|&a| a == c).unwrap() as u32;
        let mut out = Vec::new();
        for chunk in text.as_bytes().chunks(4) {
            let pad = chunk.iter().filter(|&&c| c == b'=').count();
            let n = chunk
                .iter()
                .map(|&c| if c == b'=' { 0 } else { value(c) })
                .fold(0, |n, v| (n << 6) | v);
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            out.extend_from_slice(&bytes[..3 - pad]);
        }
        out
    }

    #[test]
    fn base64_matches_rfc_4648() {
        // The test vectors of RFC 4648, section 10.
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain:?}");
        }
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn gzip_base64_round_trips_and_shrinks_replay_lines() {
        let line = r#"{"type":"event","hand":0,"event":"bet","seat":1,"amount":2,"pot":4}"#;
        let text = format!("{line}\n").repeat(500);
        let encoded = gzip_base64(text.as_bytes());
        assert!(encoded.len() < text.len() / 10, "{}", encoded.len());
        assert_eq!(gunzip_base64(&encoded), text);
    }
}
