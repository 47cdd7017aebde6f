//! No descriptor the arena inherited reaches a bot.
//!
//! Whatever starts the arena may leave descriptors open in it without close-on-exec: `flock
//! DIR arena tournament DIR/t.toml` (the usual cron idiom) hands the arena an open directory,
//! a shell's `3>>log` an appended file, a CI runner its own pipes. Rust opens everything with
//! close-on-exec, but it cannot know about descriptors it was born with, and bubblewrap passes
//! every descriptor it has on to the sandbox: with an inherited directory a bot reads the
//! tournament file (its seed) or walks out of its mount namespace with `openat(fd, "..")`.
//!
//! Two layers, both marking descriptors close-on-exec rather than closing them (the arena's
//! own descriptors stay usable; only an exec drops them):
//! 1. [`cloexec_inherited`] at the start of every binary (`arena`, `arena-server`,
//!    `arena-worker`), so that no child of any level, build or guard, gets them;
//! 2. [`cloexec_all_from`] in each sandboxed child's `pre_exec` hook, so that a descriptor a
//!    library caller left open (an embedding program, a test harness) does not reach a bot
//!    either. Only the descriptor the sandbox needs (bwrap's seccomp program) is re-opened
//!    to exec afterwards.

use std::io;

/// `CLOSE_RANGE_CLOEXEC` (Linux 5.11): mark the range close-on-exec instead of closing it.
const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;

/// Marks every descriptor from 3 up close-on-exec. Call first thing in `main`, before any
/// thread is started. Best effort: returns the error for the caller to log, the arena goes
/// on (the sandboxed children mark them again).
pub fn cloexec_inherited() -> io::Result<()> {
    cloexec_all_from(3)
}

/// Marks every descriptor from `first` up close-on-exec. Async-signal-safe (plain syscalls,
/// no allocation): safe to call between fork and exec.
pub(crate) fn cloexec_all_from(first: libc::c_uint) -> io::Result<()> {
    // SAFETY: close_range with the CLOEXEC flag only changes descriptor flags.
    let done = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            first,
            libc::c_uint::MAX,
            CLOSE_RANGE_CLOEXEC,
        )
    };
    if done == 0 {
        return Ok(());
    }
    let error = io::Error::last_os_error();
    match error.raw_os_error() {
        // Kernels before 5.9 (no close_range) or 5.11 (no CLOEXEC flag): one fcntl per
        // descriptor number up to the open-files limit (bounded, so a huge limit costs at most
        // a few milliseconds per spawn).
        Some(libc::ENOSYS | libc::EINVAL) => cloexec_each(first),
        _ => Err(error),
    }
}

/// The fallback of [`cloexec_all_from`]: `FD_CLOEXEC` on every open descriptor number below
/// the soft open-files limit (at most 1 << 20).
fn cloexec_each(first: libc::c_uint) -> io::Result<()> {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(1 << 20)
        .min(1 << 20) as libc::c_int;
    for fd in first as libc::c_int..limit {
        // SAFETY: fcntl on a number that may not be open: EBADF, nothing else.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
        if flags >= 0 && flags & libc::FD_CLOEXEC == 0 {
            // SAFETY: as above; only the descriptor's flags change.
            unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) };
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    fn cloexec(fd: libc::c_int) -> bool {
        // SAFETY: F_GETFD on an open descriptor.
        unsafe { libc::fcntl(fd, libc::F_GETFD) & libc::FD_CLOEXEC != 0 }
    }

    #[test]
    fn an_inherited_descriptor_becomes_close_on_exec() {
        let file = std::fs::File::open("/").unwrap();
        let fd = file.as_raw_fd();
        // As a parent that spawned us would have left it.
        // SAFETY: clears the flag of a descriptor we own.
        unsafe { libc::fcntl(fd, libc::F_SETFD, 0) };
        assert!(!cloexec(fd));
        cloexec_inherited().unwrap();
        assert!(cloexec(fd));
    }

    #[test]
    fn the_fallback_marks_them_too() {
        let file = std::fs::File::open("/").unwrap();
        let fd = file.as_raw_fd();
        // SAFETY: as above.
        unsafe { libc::fcntl(fd, libc::F_SETFD, 0) };
        cloexec_each(3).unwrap();
        assert!(cloexec(fd));
    }
}
