//! The bots' seccomp filter, compiled by libseccomp to the classic BPF program that bwrap
//! installs with `--seccomp FD` just before it execs the bot. The policy (default allow, a deny
//! list) is in [`policy`].
//!
//! Building needs the C library's headers: `.ci/run` (and a developer's machine) must install
//! Debian's `libseccomp-dev`.
//!
//! The filter holds only the native architecture, so a syscall of any other ABI (x32 on
//! x86_64, i386 through `int 0x80`, arm32 on arm64) kills the process: the deny list could
//! otherwise be bypassed through another ABI's syscall numbers.

// Nothing outside the tests calls it until the bwrap spawn path passes the filter.

mod policy;

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::sync::OnceLock;

use libseccomp::{ScmpAction, ScmpFilterContext};
use rustix::fs::{MemfdFlags, memfd_create};

/// Why the filter could not be built or handed over.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SeccompError {
    #[error("seccomp filter: libseccomp cannot {step}: {source}")]
    Library {
        step: &'static str,
        source: libseccomp::error::SeccompError,
    },
    #[error("seccomp filter: {source}")]
    Rule { source: policy::RuleError },
    #[error("seccomp filter: cannot {step}: {source}")]
    Io {
        step: &'static str,
        source: std::io::Error,
    },
}

/// A fresh file holding the compiled filter, at offset 0, close-on-exec. For bwrap, make its
/// descriptor inheritable in the child (`dup2` it to a free number in `pre_exec`, or clear
/// `FD_CLOEXEC` there) and pass `--seccomp <that number>`. One file per bot: bwrap reads it to
/// the end.
pub(crate) fn bot_filter() -> Result<File, SeccompError> {
    let mut file = memfd("seccomp-bot")?;
    file.write_all(program()?)
        .and_then(|()| file.rewind())
        .map_err(|source| SeccompError::Io {
            step: "write the program to a memfd",
            source,
        })?;
    Ok(file)
}

/// The compiled program (an array of `struct sock_filter`), built once per process.
pub(crate) fn program() -> Result<&'static [u8], SeccompError> {
    static PROGRAM: OnceLock<Vec<u8>> = OnceLock::new();
    if let Some(bytes) = PROGRAM.get() {
        return Ok(bytes);
    }
    let built = compile()?;
    Ok(PROGRAM.get_or_init(|| built))
}

fn compile() -> Result<Vec<u8>, SeccompError> {
    let lib = |step| move |source| SeccompError::Library { step, source };
    let mut ctx = ScmpFilterContext::new(ScmpAction::Allow).map_err(lib("create a filter"))?;
    ctx.set_act_badarch(ScmpAction::KillProcess)
        .map_err(lib("kill on a foreign architecture"))?;
    // A binary tree over syscall numbers instead of a linear scan of the deny list.
    ctx.set_ctl_optimize(2)
        .map_err(lib("set the optimization level"))?;
    let skipped = policy::add_rules(&mut ctx).map_err(|source| SeccompError::Rule { source })?;
    if !skipped.is_empty() {
        tracing::debug!(?skipped, "seccomp: syscalls unknown on this architecture");
    }
    // libseccomp 2.5 exports only to a descriptor.
    let mut out = memfd("seccomp-export")?;
    ctx.export_bpf(&out)
        .map_err(lib("export the BPF program"))?;
    let mut bytes = Vec::new();
    out.rewind()
        .and_then(|()| out.read_to_end(&mut bytes))
        .map_err(|source| SeccompError::Io {
            step: "read the exported program back",
            source,
        })?;
    Ok(bytes)
}

fn memfd(name: &str) -> Result<File, SeccompError> {
    memfd_create(name, MemfdFlags::CLOEXEC)
        .map(File::from)
        .map_err(|errno| SeccompError::Io {
            step: "create a memfd",
            source: errno.into(),
        })
}

#[cfg(test)]
mod tests;
