//! A ready version's build as one archive in the database, so that a worker on any machine
//! runs exactly what was built and checked, without a share of the server's disk or a
//! protocol of our own between machines (issue 15: the database is the only link).
//!
//! The archive is the build directory as tar.gz (regular files and directories only; the
//! builder has already removed anything else), with the run command whose `{dir}` stands for
//! wherever a worker unpacks it, and the archive's SHA-256, which a worker's cache checks.

use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::storage::hex;

/// What a worker needs to start a version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    /// The bot's command line; `{dir}` (`toolchains::DIR`) is the unpacked build.
    pub run_command: Vec<String>,
    /// The build directory as tar.gz.
    pub archive: Vec<u8>,
    /// SHA-256 of `archive`, hex.
    pub sha256: String,
}

/// Why a build directory could not be packed.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    #[error(
        "the built bot is larger than {max} bytes compressed, the contest's [build] \
         max_artifact_mb"
    )]
    TooLarge { max: u64 },
    #[error("cannot pack the build: {0}")]
    Io(#[from] std::io::Error),
}

/// Packs `dir` (its contents, with paths relative to it) into an [`Artifact`] of at most
/// `max_bytes` compressed. Entries are sorted, with fixed times and owners: the same build
/// gives the same archive and digest.
pub fn pack(dir: &Path, run_command: Vec<String>, max_bytes: u64) -> Result<Artifact, PackError> {
    let out = Limited {
        inner: Vec::new(),
        max: max_bytes,
    };
    let write = || -> std::io::Result<Limited> {
        let gz = flate2::write::GzEncoder::new(out, flate2::Compression::default());
        let mut tar = tar::Builder::new(gz);
        add_dir(&mut tar, dir, Path::new(""))?;
        tar.into_inner()?.finish()
    };
    let out = match write() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
            return Err(PackError::TooLarge { max: max_bytes });
        }
        Err(e) => return Err(e.into()),
    };
    let archive = out.inner;
    let sha256 = hex(&Sha256::digest(&archive));
    Ok(Artifact {
        run_command,
        archive,
        sha256,
    })
}

/// SHA-256 of bytes, hex (what [`Artifact::sha256`] holds).
pub fn digest(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn add_dir<W: Write>(tar: &mut tar::Builder<W>, root: &Path, rel: &Path) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(root.join(rel))?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = rel.join(entry.file_name());
        // Not following links: a link left by a build would otherwise pack whatever it
        // points to on the server.
        let meta = std::fs::symlink_metadata(entry.path())?;
        let mut header = tar::Header::new_gnu();
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        if meta.is_dir() {
            header.set_entry_type(tar::EntryType::Directory);
            header.set_mode(0o755);
            header.set_size(0);
            tar.append_data(&mut header, &path, std::io::empty())?;
            add_dir(tar, root, &path)?;
        } else if meta.is_file() {
            use std::os::unix::fs::PermissionsExt;
            let executable = meta.permissions().mode() & 0o111 != 0;
            header.set_entry_type(tar::EntryType::Regular);
            header.set_mode(if executable { 0o755 } else { 0o644 });
            header.set_size(meta.len());
            let file = std::fs::File::open(entry.path())?;
            tar.append_data(&mut header, &path, file)?;
        }
    }
    Ok(())
}

/// A writer that refuses to grow past `max` bytes (the compressed archive's cap, checked
/// while packing rather than after).
struct Limited {
    inner: Vec<u8>,
    max: u64,
}

impl Write for Limited {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if (self.inner.len() + buf.len()) as u64 > self.max {
            return Err(std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                "the archive is too large",
            ));
        }
        self.inner.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ladder::unpack::{UnpackLimits, unpack};
    use crate::storage::SourceKind;

    fn tree() -> tempfile::TempDir {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("lib")).unwrap();
        std::fs::write(dir.path().join("lib/helper.py"), "X = 1\n").unwrap();
        std::fs::write(dir.path().join("bot"), b"\x7fELF...").unwrap();
        std::fs::set_permissions(
            dir.path().join("bot"),
            std::fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        dir
    }

    #[test]
    fn a_build_round_trips_with_its_modes_and_the_same_digest_every_time() {
        use std::os::unix::fs::PermissionsExt;
        let src = tree();
        let argv = vec!["{dir}/bot".to_string()];
        let a = pack(src.path(), argv.clone(), 1 << 20).unwrap();
        let b = pack(src.path(), argv, 1 << 20).unwrap();
        assert_eq!(a, b, "reproducible");
        assert_eq!(a.sha256, digest(&a.archive));
        let out = tempfile::tempdir().unwrap();
        let dest = out.path().join("v");
        let limits = UnpackLimits {
            max_files: 100,
            max_bytes: 1 << 20,
        };
        let done = unpack(SourceKind::TarGz, "build.tar.gz", &a.archive, &dest, limits).unwrap();
        assert_eq!(done.files, 2);
        assert_eq!(
            std::fs::read_to_string(dest.join("lib/helper.py")).unwrap(),
            "X = 1\n"
        );
        let mode = std::fs::metadata(dest.join("bot"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111, "the binary stays executable");
    }

    #[test]
    fn links_are_not_followed_and_the_size_is_capped() {
        let src = tree();
        std::os::unix::fs::symlink("/etc/passwd", src.path().join("leak")).unwrap();
        let a = pack(src.path(), vec![], 1 << 20).unwrap();
        let mut names = Vec::new();
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&a.archive[..]));
        for e in archive.entries().unwrap() {
            names.push(e.unwrap().path().unwrap().display().to_string());
        }
        assert_eq!(names, ["bot", "lib", "lib/helper.py"]);
        let big = tempfile::tempdir().unwrap();
        // Random bytes do not compress: a cap of 4 KiB cannot hold 64 KiB of them.
        let mut noise = vec![0u8; 65536];
        std::io::Read::read_exact(
            &mut std::fs::File::open("/dev/urandom").unwrap(),
            &mut noise,
        )
        .unwrap();
        std::fs::write(big.path().join("data"), noise).unwrap();
        match pack(big.path(), vec![], 4096) {
            Err(PackError::TooLarge { max: 4096 }) => {}
            Err(other) => panic!("expected TooLarge, got {other}"),
            Ok(a) => panic!("expected TooLarge, got {} bytes", a.archive.len()),
        }
    }
}
