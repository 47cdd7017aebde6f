//! Unpacking an upload: a single source file, a .zip or a .tar.gz, into a fresh directory.
//!
//! Nothing in an archive is trusted: absolute paths, `..`, symlinks, hard links, devices and
//! FIFOs are refused (not skipped: the owner learns what was wrong), as are names that clash
//! (the same path twice, or differing only in letter case or Unicode normal form: see
//! `names.rs`), in every format: a zip's names are read from its central directory, where
//! the zip crate would hide a second copy (`zip_directory.rs`); a tar's as entries stream.
//! The number of entries and the bytes written are capped while unpacking (headers lie about
//! sizes). Files are created with `create_new`, so nothing is written through an existing
//! path. Archives inside the archive are stored as files, never unpacked.

mod names;
mod zip_directory;

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};

use crate::storage::SourceKind;
use names::Names;

/// What an archive may hold.
#[derive(Clone, Copy, Debug)]
pub struct UnpackLimits {
    pub max_files: u64,
    pub max_bytes: u64,
}

/// What was written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unpacked {
    pub files: u64,
    pub bytes: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    #[error(
        "the file name {0:?} is not acceptable: 1 to 100 characters, no slashes or control characters"
    )]
    BadFileName(String),
    #[error("the archive cannot be read: {0}")]
    Corrupt(String),
    #[error("the archive holds more than {0} entries")]
    TooManyFiles(u64),
    #[error("the archive unpacks to more than {0} bytes")]
    TooLarge(u64),
    #[error(
        "the archive entry {0:?} has an unsafe path (absolute, `..`, empty, or a name over 255 bytes)"
    )]
    UnsafePath(String),
    #[error(
        "the archive entry {0:?} is a link or a special file; only files and directories are accepted"
    )]
    NotAFile(String),
    #[error("the archive holds {0:?} twice")]
    Duplicate(String),
    #[error("the archive entries {first:?} and {second:?} {why}: rename one")]
    Clash {
        first: String,
        second: String,
        why: &'static str,
    },
    #[error("the archive holds no file")]
    Empty,
    #[error("cannot write the upload: {0}")]
    Io(#[from] io::Error),
}

/// What kind of upload a file name says.
pub fn kind_of(file_name: &str) -> SourceKind {
    let lower = file_name.to_ascii_lowercase();
    if lower.ends_with(".zip") {
        SourceKind::Zip
    } else if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
        SourceKind::TarGz
    } else {
        SourceKind::File
    }
}

/// A single file's name as uploaded: one plain path component.
pub fn valid_file_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=100).contains(&n)
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control)
}

/// Unpacks `bytes` (named `file_name`, of `kind`) into `dest`, which must not exist yet.
pub fn unpack(
    kind: SourceKind,
    file_name: &str,
    bytes: &[u8],
    dest: &Path,
    limits: UnpackLimits,
) -> Result<Unpacked, UnpackError> {
    fs::create_dir(dest)?;
    let mut out = Writer {
        dest,
        limits,
        written: Unpacked::default(),
        entries: 0,
        names: Names::default(),
    };
    match kind {
        SourceKind::File => {
            if !valid_file_name(file_name) {
                return Err(UnpackError::BadFileName(file_name.to_string()));
            }
            out.file(file_name, &mut &bytes[..], false)?;
        }
        SourceKind::Zip => unzip(bytes, &mut out)?,
        SourceKind::TarGz => untar(bytes, &mut out)?,
    }
    if out.written.files == 0 {
        return Err(UnpackError::Empty);
    }
    Ok(out.written)
}

struct Writer<'a> {
    dest: &'a Path,
    limits: UnpackLimits,
    written: Unpacked,
    entries: u64,
    names: Names,
}

impl Writer<'_> {
    fn count_entry(&mut self) -> Result<(), UnpackError> {
        self.entries += 1;
        if self.entries > self.limits.max_files {
            return Err(UnpackError::TooManyFiles(self.limits.max_files));
        }
        Ok(())
    }

    fn dir(&mut self, name: &str) -> Result<(), UnpackError> {
        self.count_entry()?;
        // `./`, which `tar -C DIR -czf bot.tar.gz .` writes first: the top folder itself.
        if Path::new(name).components().all(|c| c == Component::CurDir) && !name.is_empty() {
            return Ok(());
        }
        let rel = safe_relative(name)?;
        self.names.add(name, &rel, true)?;
        fs::create_dir_all(self.dest.join(rel))?;
        Ok(())
    }

    fn file(
        &mut self,
        name: &str,
        data: &mut dyn Read,
        executable: bool,
    ) -> Result<(), UnpackError> {
        self.count_entry()?;
        let rel = safe_relative(name)?;
        self.names.add(name, &rel, false)?;
        let path = self.dest.join(&rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(if executable { 0o755 } else { 0o644 });
        }
        let mut file = match options.open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Err(UnpackError::Duplicate(name.to_string()));
            }
            Err(e) => return Err(e.into()),
        };
        let room = self.limits.max_bytes - self.written.bytes;
        // One byte more than the room left tells a file that is too large.
        let copied = io::copy(&mut data.take(room + 1), &mut file)?;
        if copied > room {
            return Err(UnpackError::TooLarge(self.limits.max_bytes));
        }
        file.flush()?;
        self.written.bytes += copied;
        self.written.files += 1;
        Ok(())
    }
}

/// An archive path as a relative path of plain components, or why not.
fn safe_relative(name: &str) -> Result<PathBuf, UnpackError> {
    let unsafe_path = || UnpackError::UnsafePath(name.to_string());
    if name.contains('\\') || name.chars().any(char::is_control) {
        return Err(unsafe_path());
    }
    let mut rel = PathBuf::new();
    for component in Path::new(name).components() {
        match component {
            // Longer than a file name can be (NAME_MAX): refused here, not by the disk.
            Component::Normal(part) if part.len() > 255 => return Err(unsafe_path()),
            Component::Normal(part) => rel.push(part),
            Component::CurDir => {}
            _ => return Err(unsafe_path()),
        }
    }
    if rel.as_os_str().is_empty() || rel.as_os_str().len() > 1024 {
        return Err(unsafe_path());
    }
    Ok(rel)
}

fn unzip(bytes: &[u8], out: &mut Writer<'_>) -> Result<(), UnpackError> {
    let corrupt = |e: zip::result::ZipError| UnpackError::Corrupt(e.to_string());
    let mut archive = zip::ZipArchive::new(io::Cursor::new(bytes)).map_err(corrupt)?;
    if archive.len() as u64 > out.limits.max_files {
        return Err(UnpackError::TooManyFiles(out.limits.max_files));
    }
    // Every name, duplicates included, checked before anything is written.
    let all = zip_directory::entry_names(bytes, out.limits.max_files)?;
    let mut names = Names::default();
    for name in &all {
        let folder = name.ends_with('/');
        if let Ok(rel) = safe_relative(name) {
            names.add(name, &rel, folder)?;
        }
    }
    if all.len() != archive.len() {
        // Two entries the crate reads as one name, which the check above did not see
        // (names it decodes differently): refused all the same.
        return Err(UnpackError::Corrupt(format!(
            "{} entries share names with others",
            all.len() - archive.len()
        )));
    }
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(corrupt)?;
        let name = entry.name().to_string();
        // The file type bits of the entry's Unix mode, when the archiver wrote one.
        let file_type = entry.unix_mode().map(|m| m & 0o170_000).unwrap_or(0);
        if entry.is_symlink() || !matches!(file_type, 0 | 0o100_000 | 0o040_000) {
            return Err(UnpackError::NotAFile(name));
        }
        if entry.is_dir() {
            out.dir(&name)?;
        } else {
            let executable = entry.unix_mode().is_some_and(|m| m & 0o111 != 0);
            out.file(&name, &mut entry, executable)?;
        }
    }
    Ok(())
}

fn untar(bytes: &[u8], out: &mut Writer<'_>) -> Result<(), UnpackError> {
    let corrupt = |e: io::Error| UnpackError::Corrupt(e.to_string());
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes));
    for entry in archive.entries().map_err(corrupt)? {
        let mut entry = entry.map_err(corrupt)?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        let executable = entry.header().mode().is_ok_and(|m| m & 0o111 != 0);
        if kind.is_dir() {
            out.dir(&name)?;
        } else if kind.is_file() || kind == tar::EntryType::Continuous {
            out.file(&name, &mut entry, executable)?;
        } else {
            return Err(UnpackError::NotAFile(name));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: UnpackLimits = UnpackLimits {
        max_files: 10,
        max_bytes: 1000,
    };

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        for (name, data) in entries {
            if name.ends_with('/') {
                w.add_directory(*name, zip::write::SimpleFileOptions::default())
                    .unwrap();
            } else {
                w.start_file(*name, zip::write::SimpleFileOptions::default())
                    .unwrap();
                w.write_all(data).unwrap();
            }
        }
        w.finish().unwrap().into_inner()
    }

    fn tar_gz(build: impl FnOnce(&mut tar::Builder<Vec<u8>>)) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        build(&mut b);
        let tar = b.into_inner().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&tar).unwrap();
        gz.finish().unwrap()
    }

    fn file_header(size: u64) -> tar::Header {
        let mut h = tar::Header::new_gnu();
        h.set_size(size);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        h
    }

    /// Raw tar paths, which `Builder::append_data` would refuse to write.
    fn raw_named(b: &mut tar::Builder<Vec<u8>>, name: &str, kind: tar::EntryType, data: &[u8]) {
        let mut h = file_header(data.len() as u64);
        h.set_entry_type(kind);
        h.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        h.set_cksum();
        b.append(&h, data).unwrap();
    }

    fn run(
        kind: SourceKind,
        name: &str,
        bytes: &[u8],
    ) -> (tempfile::TempDir, Result<Unpacked, UnpackError>) {
        let dir = tempfile::tempdir().unwrap();
        let result = unpack(kind, name, bytes, &dir.path().join("v"), LIMITS);
        (dir, result)
    }

    #[test]
    fn kinds_from_names() {
        assert_eq!(kind_of("bot.py"), SourceKind::File);
        assert_eq!(kind_of("Bot.ZIP"), SourceKind::Zip);
        assert_eq!(kind_of("b.tar.gz"), SourceKind::TarGz);
        assert_eq!(kind_of("b.tgz"), SourceKind::TarGz);
    }

    #[test]
    fn a_single_file() {
        let (dir, r) = run(SourceKind::File, "bot.py", b"print(1)\n");
        assert_eq!(r.unwrap(), Unpacked { files: 1, bytes: 9 });
        assert_eq!(
            fs::read(dir.path().join("v/bot.py")).unwrap(),
            b"print(1)\n"
        );
        for bad in ["", "..", "a/b.py", "a\\b", "x\ny"] {
            let (_d, r) = run(SourceKind::File, bad, b"x");
            assert!(
                matches!(r, Err(UnpackError::BadFileName(_))),
                "{bad:?}: {r:?}"
            );
        }
        let (_d, r) = run(SourceKind::File, "big.py", &[b'x'; 1001]);
        assert!(matches!(r, Err(UnpackError::TooLarge(1000))), "{r:?}");
        let (_d, r) = run(SourceKind::File, "empty.py", b"");
        assert_eq!(r.unwrap(), Unpacked { files: 1, bytes: 0 });
    }

    #[test]
    fn a_zip_with_directories() {
        let z = zip_of(&[
            ("src/", b""),
            ("src/main.rs", b"fn main(){}"),
            ("Cargo.toml", b"[package]"),
        ]);
        let (dir, r) = run(SourceKind::Zip, "bot.zip", &z);
        assert_eq!(
            r.unwrap(),
            Unpacked {
                files: 2,
                bytes: 20
            }
        );
        assert_eq!(
            fs::read(dir.path().join("v/src/main.rs")).unwrap(),
            b"fn main(){}"
        );
    }

    #[test]
    fn zip_traversal_and_absolute_paths_are_refused() {
        for name in ["../evil.py", "a/../../evil.py", "/etc/evil"] {
            let z = zip_of(&[(name, b"x")]);
            let (dir, r) = run(SourceKind::Zip, "bot.zip", &z);
            assert!(
                matches!(r, Err(UnpackError::UnsafePath(_))),
                "{name}: {r:?}"
            );
            assert!(!dir.path().join("evil.py").exists());
        }
    }

    #[test]
    fn zip_symlinks_are_refused() {
        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        w.add_symlink(
            "link",
            "/etc/passwd",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
        let z = w.finish().unwrap().into_inner();
        let (dir, r) = run(SourceKind::Zip, "bot.zip", &z);
        assert!(matches!(r, Err(UnpackError::NotAFile(_))), "{r:?}");
        assert!(fs::symlink_metadata(dir.path().join("v/link")).is_err());
    }

    #[test]
    fn zip_bombs_stop_at_the_cap_whatever_the_headers_say() {
        // 100 KB of zeros compresses to a few hundred bytes; the cap is 1000 bytes.
        let z = zip_of(&[("zeros", &vec![0u8; 100_000])]);
        assert!(z.len() < 1000);
        let (dir, r) = run(SourceKind::Zip, "bot.zip", &z);
        assert!(matches!(r, Err(UnpackError::TooLarge(1000))), "{r:?}");
        let written = fs::metadata(dir.path().join("v/zeros"))
            .map(|m| m.len())
            .unwrap_or(0);
        assert!(written <= 1001, "{written}");
        // The total counts, not each file.
        let z = zip_of(&[("a", &[1u8; 600]), ("b", &[2u8; 600])]);
        let (_d, r) = run(SourceKind::Zip, "bot.zip", &z);
        assert!(matches!(r, Err(UnpackError::TooLarge(1000))), "{r:?}");
    }

    #[test]
    fn too_many_entries_duplicates_empty_and_garbage() {
        let names: Vec<String> = (0..11).map(|i| format!("f{i}")).collect();
        let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
        let (_d, r) = run(SourceKind::Zip, "bot.zip", &zip_of(&entries));
        assert!(matches!(r, Err(UnpackError::TooManyFiles(10))), "{r:?}");
        let (_d, r) = run(SourceKind::Zip, "bot.zip", &zip_of(&[("d/", b"")]));
        assert!(matches!(r, Err(UnpackError::Empty)), "{r:?}");
        let (_d, r) = run(SourceKind::Zip, "bot.zip", b"PK\x03\x04 not really");
        assert!(matches!(r, Err(UnpackError::Corrupt(_))), "{r:?}");
        let (_d, r) = run(SourceKind::TarGz, "bot.tar.gz", b"\x1f\x8b garbage");
        assert!(matches!(r, Err(UnpackError::Corrupt(_))), "{r:?}");
        let t = tar_gz(|b| {
            raw_named(b, "a.py", tar::EntryType::Regular, b"1");
            raw_named(b, "./a.py", tar::EntryType::Regular, b"2");
        });
        let (_d, r) = run(SourceKind::TarGz, "bot.tar.gz", &t);
        assert!(
            matches!(&r, Err(UnpackError::Clash { first, second, .. }) if first == "a.py" && second == "./a.py"),
            "{r:?}"
        );
    }

    /// `zip_of` with `to` written over `from` in every header (local and central): an archive
    /// holding one name twice, which no zip writer makes on purpose.
    fn zip_renamed(entries: &[(&str, &[u8])], from: &str, to: &str) -> Vec<u8> {
        assert_eq!(from.len(), to.len());
        let mut z = zip_of(entries);
        let mut at = 0;
        while let Some(i) = z[at..]
            .windows(from.len())
            .position(|w| w == from.as_bytes())
        {
            z[at + i..at + i + from.len()].copy_from_slice(to.as_bytes());
            at += i + from.len();
        }
        z
    }

    /// A tar.gz of regular files, names as given.
    fn tar_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        tar_gz(|b| {
            for (name, data) in entries {
                raw_named(b, name, tar::EntryType::Regular, data);
            }
        })
    }

    /// (first, second) of a clash, or the error as it is.
    fn clash(r: Result<Unpacked, UnpackError>) -> String {
        match r {
            Err(e @ UnpackError::Clash { .. }) => e.to_string(),
            Err(UnpackError::Duplicate(name)) => format!("{name:?} twice"),
            other => panic!("not a clash: {other:?}"),
        }
    }

    #[test]
    fn a_zip_holding_one_name_twice_is_refused_before_anything_is_written() {
        let z = zip_renamed(
            &[("bot.py", b"first"), ("bot.pz", b"second")],
            "bot.pz",
            "bot.py",
        );
        // The zip crate keeps one of them: what let this through.
        assert_eq!(zip::ZipArchive::new(io::Cursor::new(&z)).unwrap().len(), 1);
        let (dir, r) = run(SourceKind::Zip, "bot.zip", &z);
        assert_eq!(clash(r), "\"bot.py\" twice");
        assert!(!dir.path().join("v/bot.py").exists());
        let e = UnpackError::Duplicate("bot.py".into());
        assert_eq!(e.to_string(), "the archive holds \"bot.py\" twice");
    }

    #[test]
    fn zip_names_differing_in_case_or_normal_form_are_refused() {
        let z = zip_of(&[("Bot.py", b"1"), ("bot.py", b"2")]);
        let (_d, r) = run(SourceKind::Zip, "bot.zip", &z);
        assert_eq!(
            clash(r),
            "the archive entries \"Bot.py\" and \"bot.py\" differ only in letter case: rename one"
        );
        let z = zip_of(&[("lib/caf\u{e9}.py", b"1"), ("lib/cafe\u{301}.py", b"2")]);
        let (_d, r) = run(SourceKind::Zip, "bot.zip", &z);
        let text = clash(r);
        assert!(
            // The decomposed accent is shown escaped: the owner sees which is which.
            text.contains("\"lib/caf\u{e9}.py\" and \"lib/cafe\\u{301}.py\""),
            "{text}"
        );
        assert!(text.contains("Unicode normal form"), "{text}");
        // A file, then a folder of the same name: a 422, not a failed write (a 500).
        let z = zip_of(&[("src", b"1"), ("src/main.rs", b"2")]);
        let (_d, r) = run(SourceKind::Zip, "bot.zip", &z);
        assert!(clash(r).contains("both a file and a folder"));
    }

    #[test]
    fn tar_names_twice_or_differing_in_case_or_normal_form_are_refused() {
        let (dir, r) = run(
            SourceKind::TarGz,
            "bot.tar.gz",
            &tar_of(&[("bot.py", b"1"), ("bot.py", b"2")]),
        );
        assert_eq!(clash(r), "\"bot.py\" twice");
        assert_eq!(fs::read(dir.path().join("v/bot.py")).unwrap(), b"1");
        let (_d, r) = run(
            SourceKind::TarGz,
            "bot.tar.gz",
            &tar_of(&[("src/Main.rs", b"1"), ("SRC/main.rs", b"2")]),
        );
        assert!(
            clash(r).contains("\"src/Main.rs\" and \"SRC/main.rs\" differ only in letter case")
        );
        let (_d, r) = run(
            SourceKind::TarGz,
            "bot.tar.gz",
            &tar_of(&[("\u{c5}.c", b"1"), ("A\u{30a}.c", b"2")]),
        );
        assert!(clash(r).contains("Unicode normal form"));
    }

    #[test]
    fn a_tar_of_a_folder_and_overlong_names() {
        // `tar -C kit -czf bot.tar.gz .` starts with `./`: the top folder, not an unsafe path.
        let t = tar_gz(|b| {
            raw_named(b, "./", tar::EntryType::Directory, b"");
            raw_named(b, "./bot.py", tar::EntryType::Regular, b"1");
        });
        let (dir, r) = run(SourceKind::TarGz, "bot.tar.gz", &t);
        assert_eq!(r.unwrap(), Unpacked { files: 1, bytes: 1 });
        assert!(dir.path().join("v/bot.py").exists());
        // A name the file system cannot hold is the owner's mistake (422), not a write error.
        let long = format!("{}.py", "a".repeat(300));
        let (_d, r) = run(SourceKind::Zip, "bot.zip", &zip_of(&[(&long, b"1")]));
        assert!(matches!(r, Err(UnpackError::UnsafePath(_))), "{r:?}");
    }

    #[test]
    fn a_tar_gz() {
        let t = tar_gz(|b| {
            b.append_data(&mut file_header(5), "pkg/bot.py", &b"hello"[..])
                .unwrap();
        });
        let (dir, r) = run(SourceKind::TarGz, "bot.tar.gz", &t);
        assert_eq!(r.unwrap(), Unpacked { files: 1, bytes: 5 });
        assert_eq!(fs::read(dir.path().join("v/pkg/bot.py")).unwrap(), b"hello");
    }

    #[test]
    fn tar_traversal_links_and_devices_are_refused() {
        for name in ["../evil", "/tmp/evil", "a/../../evil"] {
            let t = tar_gz(|b| raw_named(b, name, tar::EntryType::Regular, b"x"));
            let (_d, r) = run(SourceKind::TarGz, "bot.tar.gz", &t);
            assert!(
                matches!(r, Err(UnpackError::UnsafePath(_))),
                "{name}: {r:?}"
            );
        }
        for kind in [
            tar::EntryType::Symlink,
            tar::EntryType::Link,
            tar::EntryType::Char,
            tar::EntryType::Block,
            tar::EntryType::Fifo,
        ] {
            let t = tar_gz(|b| raw_named(b, "x", kind, b""));
            let (dir, r) = run(SourceKind::TarGz, "bot.tar.gz", &t);
            assert!(
                matches!(r, Err(UnpackError::NotAFile(_))),
                "{kind:?}: {r:?}"
            );
            assert!(fs::symlink_metadata(dir.path().join("v/x")).is_err());
        }
    }

    #[test]
    fn tar_bombs_stop_at_the_cap() {
        let t = tar_gz(|b| {
            b.append_data(&mut file_header(200_000), "zeros", &vec![0u8; 200_000][..])
                .unwrap();
        });
        let (_d, r) = run(SourceKind::TarGz, "bot.tar.gz", &t);
        assert!(matches!(r, Err(UnpackError::TooLarge(1000))), "{r:?}");
    }
}
