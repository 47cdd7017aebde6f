//! Every entry name of a zip's central directory, read here rather than through the zip
//! crate: the crate keeps one entry per name (a map), so an archive holding `bot.py` twice
//! looks like one file there, and the second copy silently wins. Only the names are read;
//! the crate still does the unpacking (it has already checked the structure by then).

use super::UnpackError;

const END: u32 = 0x0605_4b50;
const END64: u32 = 0x0606_4b50;
const END64_LOCATOR: u32 = 0x0706_4b50;
const CENTRAL: u32 = 0x0201_4b50;
/// Info-ZIP's Unicode path extra field: a UTF-8 name that replaces the header's.
const UNICODE_PATH: u16 = 0x7075;

/// The names of the central directory's entries, in order, duplicates kept; at most `max`
/// of them (more is [`UnpackError::TooManyFiles`]).
pub fn entry_names(zip: &[u8], max: u64) -> Result<Vec<String>, UnpackError> {
    let corrupt = |what: &str| UnpackError::Corrupt(format!("its central directory {what}"));
    let end = find_end(zip).ok_or_else(|| corrupt("has no end record"))?;
    let (mut count, mut size) = (
        u64::from(u16_at(zip, end + 10)?),
        u64::from(u32_at(zip, end + 12)?),
    );
    let mut dir_end = end;
    if count == 0xffff || size == 0xffff_ffff || u32_at(zip, end + 16)? == 0xffff_ffff {
        // Zip64: the real numbers are in a record found through the locator just before.
        let locator = end
            .checked_sub(20)
            .ok_or_else(|| corrupt("lacks its zip64 locator"))?;
        if u32_at(zip, locator)? != END64_LOCATOR {
            return Err(corrupt("lacks its zip64 locator"));
        }
        // The record is normally right before the locator (56 bytes, no extensible data).
        let record = locator
            .checked_sub(56)
            .ok_or_else(|| corrupt("lacks its zip64 record"))?;
        if u32_at(zip, record)? != END64 {
            return Err(corrupt("lacks its zip64 record"));
        }
        count = u64_at(zip, record + 32)?;
        size = u64_at(zip, record + 40)?;
        dir_end = record;
    }
    if count > max {
        return Err(UnpackError::TooManyFiles(max));
    }
    let start = (dir_end as u64)
        .checked_sub(size)
        .ok_or_else(|| corrupt("is larger than the archive"))? as usize;
    let mut names = Vec::with_capacity(count as usize);
    let mut at = start;
    while at < dir_end {
        if u32_at(zip, at)? != CENTRAL {
            return Err(corrupt("has an entry without its signature"));
        }
        let flags = u16_at(zip, at + 8)?;
        let name_len = usize::from(u16_at(zip, at + 28)?);
        let extra_len = usize::from(u16_at(zip, at + 30)?);
        let comment_len = usize::from(u16_at(zip, at + 32)?);
        let raw = slice(zip, at + 46, name_len)?;
        let extra = slice(zip, at + 46 + name_len, extra_len)?;
        names.push(unicode_path(raw, extra).unwrap_or_else(|| decode(raw, flags)));
        if names.len() as u64 > max {
            return Err(UnpackError::TooManyFiles(max));
        }
        at += 46 + name_len + extra_len + comment_len;
    }
    if names.len() as u64 != count {
        return Err(corrupt("does not hold the number of entries it announces"));
    }
    Ok(names)
}

/// The end record: searched backwards, as it is followed by a comment of up to 64 KiB.
fn find_end(zip: &[u8]) -> Option<usize> {
    let last = zip.len().checked_sub(22)?;
    let first = last.saturating_sub(0xffff);
    (first..=last).rev().find(|&at| {
        u32_at(zip, at).ok() == Some(END)
            && u16_at(zip, at + 20).is_ok_and(|comment| at + 22 + usize::from(comment) <= zip.len())
    })
}

/// A name as the zip crate reads it: UTF-8 when flagged (or valid), else byte per byte (the
/// crate's code page 437 differs only above ASCII; exact duplicates are equal bytes anyway).
fn decode(raw: &[u8], flags: u16) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_string(),
        Err(_) if flags & (1 << 11) != 0 => String::from_utf8_lossy(raw).into_owned(),
        Err(_) => raw.iter().map(|&b| char::from(b)).collect(),
    }
}

/// The Unicode path extra field's name, when it is there and matches the header's name (its
/// CRC-32 says which name it translates), as the crate uses it.
fn unicode_path(raw: &[u8], mut extra: &[u8]) -> Option<String> {
    while extra.len() >= 4 {
        let id = u16::from_le_bytes([extra[0], extra[1]]);
        let len = usize::from(u16::from_le_bytes([extra[2], extra[3]]));
        let data = extra.get(4..4 + len)?;
        if id == UNICODE_PATH && data.len() >= 5 && data[0] == 1 {
            let mut crc = flate2::Crc::new();
            crc.update(raw);
            if u32::from_le_bytes([data[1], data[2], data[3], data[4]]) == crc.sum() {
                return String::from_utf8(data[5..].to_vec()).ok();
            }
        }
        extra = &extra[4 + len..];
    }
    None
}

fn slice(zip: &[u8], at: usize, len: usize) -> Result<&[u8], UnpackError> {
    zip.get(at..at.saturating_add(len))
        .ok_or_else(|| UnpackError::Corrupt("its central directory is cut short".into()))
}

fn u16_at(zip: &[u8], at: usize) -> Result<u16, UnpackError> {
    let b = slice(zip, at, 2)?;
    Ok(u16::from_le_bytes([b[0], b[1]]))
}

fn u32_at(zip: &[u8], at: usize) -> Result<u32, UnpackError> {
    let b = slice(zip, at, 4)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn u64_at(zip: &[u8], at: usize) -> Result<u64, UnpackError> {
    let b = slice(zip, at, 8)?;
    Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn zip_of(names: &[&str]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for name in names {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(b"x").unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn every_name_in_order() {
        let z = zip_of(&["bot.py", "lib/t\u{e9}.py", "Bot.py"]);
        assert_eq!(
            entry_names(&z, 10).unwrap(),
            ["bot.py", "lib/t\u{e9}.py", "Bot.py"]
        );
        assert!(matches!(
            entry_names(&z, 2),
            Err(UnpackError::TooManyFiles(2))
        ));
        // With a comment after the end record.
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        w.set_comment("PK\u{5}\u{6} a comment that looks like an end record");
        w.start_file("a", zip::write::SimpleFileOptions::default())
            .unwrap();
        let z = w.finish().unwrap().into_inner();
        assert_eq!(entry_names(&z, 10).unwrap(), ["a"]);
    }

    #[test]
    fn broken_directories_are_errors_not_panics() {
        let z = zip_of(&["bot.py", "b.py"]);
        for cut in 0..z.len() {
            let _ = entry_names(&z[..cut], 10);
            let _ = entry_names(&z[cut..], 10);
        }
        assert!(matches!(
            entry_names(b"not a zip at all, not even close", 10),
            Err(UnpackError::Corrupt(_))
        ));
        // An end record announcing a directory larger than the archive.
        let mut bad = z.clone();
        let end = find_end(&bad).unwrap();
        bad[end + 12..end + 16].copy_from_slice(&u32::MAX.to_le_bytes()[..]);
        assert!(entry_names(&bad, 10).is_err());
    }
}
