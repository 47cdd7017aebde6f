//! A zip writer, just enough for `arena pack`: deflated regular files with UTF-8 names and a
//! fixed date (the same kit packs to the same bytes). Written here because the arena crate
//! keeps the zip crate out of its dependencies (only the server needs it); flate2, already
//! used for the report's replays, does the compression and the CRC-32.

use std::io::Write;

use flate2::Crc;
use flate2::write::DeflateEncoder;

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
/// Bit 11: the names are UTF-8.
const UTF8: u16 = 1 << 11;
const DEFLATE: u16 = 8;
/// 1980-01-01 00:00, the first date a zip can say.
const DATE: u16 = (1 << 5) | 1;
/// Made by Unix (for the mode in the external attributes), zip 2.0.
const MADE_BY: u16 = (3 << 8) | 20;

/// The zip of `files` (name, contents), in that order.
pub fn zip(files: &[(String, Vec<u8>)]) -> std::io::Result<Vec<u8>> {
    if files.len() >= usize::from(u16::MAX) {
        return Err(std::io::Error::other(
            "too many files for a zip without zip64",
        ));
    }
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in files {
        let mut crc = Crc::new();
        crc.update(data);
        let mut encoder = DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(data)?;
        let packed = encoder.finish()?;
        let (Ok(size), Ok(packed_size), Ok(offset), Ok(name_len)) = (
            u32::try_from(data.len()),
            u32::try_from(packed.len()),
            u32::try_from(out.len()),
            u16::try_from(name.len()),
        ) else {
            return Err(std::io::Error::other(
                "a file too large for a zip without zip64",
            ));
        };
        let common = |buf: &mut Vec<u8>| {
            put16(buf, 20); // version needed: 2.0 (deflate)
            put16(buf, UTF8);
            put16(buf, DEFLATE);
            put16(buf, 0); // time
            put16(buf, DATE);
            put32(buf, crc.sum());
            put32(buf, packed_size);
            put32(buf, size);
            put16(buf, name_len);
            put16(buf, 0); // extra field
        };
        put32(&mut out, LOCAL);
        common(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&packed);

        put32(&mut central, CENTRAL);
        put16(&mut central, MADE_BY);
        common(&mut central);
        put16(&mut central, 0); // comment
        put16(&mut central, 0); // disk
        put16(&mut central, 0); // internal attributes
        put32(&mut central, 0o100_644 << 16); // a regular file, rw-r--r--
        put32(&mut central, offset);
        central.extend_from_slice(name.as_bytes());
    }
    let (Ok(dir_offset), Ok(dir_size)) = (u32::try_from(out.len()), u32::try_from(central.len()))
    else {
        return Err(std::io::Error::other("too large for a zip without zip64"));
    };
    out.extend_from_slice(&central);
    put32(&mut out, END);
    put16(&mut out, 0); // this disk
    put16(&mut out, 0); // the directory's disk
    put16(&mut out, files.len() as u16);
    put16(&mut out, files.len() as u16);
    put32(&mut out, dir_size);
    put32(&mut out, dir_offset);
    put16(&mut out, 0); // comment
    Ok(out)
}

fn put16(buf: &mut Vec<u8>, v: u16) {
    buf.extend_from_slice(&v.to_le_bytes());
}

fn put32(buf: &mut Vec<u8>, v: u32) {
    buf.extend_from_slice(&v.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `unzip -Z1`-free check: the structure read back by hand (the server's zip crate reads
    /// it in the end-to-end test).
    #[test]
    fn entries_read_back() {
        let files = vec![
            ("bot.py".to_string(), b"print(1)\n".repeat(100)),
            ("t\u{e9}.py".to_string(), Vec::new()),
        ];
        let z = zip(&files).unwrap();
        let end = z.len() - 22;
        assert_eq!(&z[end..end + 4], &END.to_le_bytes());
        assert_eq!(u16::from_le_bytes([z[end + 10], z[end + 11]]), 2);
        let dir = u32::from_le_bytes(z[end + 16..end + 20].try_into().unwrap()) as usize;
        assert_eq!(&z[dir..dir + 4], &CENTRAL.to_le_bytes());
        // The first entry's data inflates back to the file.
        let name_len = u16::from_le_bytes([z[26], z[27]]) as usize;
        let packed = u32::from_le_bytes(z[18..22].try_into().unwrap()) as usize;
        let data = &z[30 + name_len..30 + name_len + packed];
        let mut back = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::DeflateDecoder::new(data), &mut back)
            .unwrap();
        assert_eq!(back, files[0].1);
        assert_eq!(zip(&files).unwrap(), z, "the same files, the same bytes");
    }
}
