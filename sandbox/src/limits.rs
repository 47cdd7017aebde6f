//! The `pre_exec` hook of the `limits` and `bwrap` levels: what the child does to itself
//! between fork and exec (new session, cgroup, rlimits, no inherited descriptor, identity,
//! no_new_privs, death signal).

use std::io;
use std::os::fd::RawFd;

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit, setsid};
use tokio::process::Command;

use super::cgroup::CgroupEntry;
use super::spec::Limits;

/// Everything the child applies to itself. `Copy`, integers and a static slice only: the
/// hook runs between fork and exec in a multi-threaded process, so it must not allocate or
/// lock.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChildSetup {
    pub limits: Limits,
    /// Become this uid and gid, with no supplementary group (the `limits` level when the
    /// arena is root; under bwrap `setpriv` does it inside the sandbox instead).
    pub switch_to_uid: Option<u32>,
    /// `RLIMIT_NPROC`, set when the bot runs as a uid of its own (which it counts: a
    /// per-bot process limit even without cgroups; root, and so bwrap itself, is exempt).
    pub processes_of_own_uid: Option<u64>,
    /// A descriptor the exec'd program must inherit (the seccomp program for bwrap).
    pub inherit_fd: Option<RawFd>,
    /// The arena's pid: if it died before the death signal was armed, the child exits.
    pub arena_pid: i32,
    /// A compiled seccomp program to load last (the `limits` level; bwrap loads its own).
    pub seccomp: Option<&'static [u8]>,
}

/// Registers the hook. Must run as the arena's user (root or not) before anything else
/// drops privileges.
///
/// `setsid()` also gives the child its own process group with pgid == pid, exactly like
/// `process_group(0)` (which must then *not* be set: std runs `setpgid` before the hook and
/// `setsid` fails for a group leader). On top of that the bot has no controlling terminal, so
/// it can't open `/dev/tty` or inject keystrokes into the user's shell with `TIOCSTI`.
///
/// Registering a hook switches std from `posix_spawn` to `fork`+`exec`.
pub(crate) fn install(cmd: &mut Command, setup: ChildSetup, cgroup: Option<CgroupEntry>) {
    // SAFETY: the closure captures only `setup` and `cgroup` (integers, a static slice) and makes
    // plain syscalls (setsid, write, setrlimit, fcntl, setgroups, setres[ug]id, prctl,
    // getppid, kill). It doesn't allocate, take locks or touch any state shared with other
    // threads of the parent, so it is sound to run between fork and exec. Converting an
    // `Errno` into `io::Error` doesn't allocate either.
    unsafe {
        cmd.pre_exec(move || {
            setsid()?;
            // First, while still privileged enough to move itself: everything the bot
            // starts from now on is counted and killed with it.
            if let Some(entry) = cgroup {
                entry.enter()?;
            }
            apply(&setup)
        });
    }
}

/// The `none` level's only hook: join the bot's cgroup (no limits), so that every descendant
/// can be found and killed.
pub(crate) fn join_cgroup(cmd: &mut Command, entry: CgroupEntry) {
    // SAFETY: captures a `Copy` struct of integers; `enter` only makes `write` syscalls.
    unsafe {
        cmd.pre_exec(move || entry.enter());
    }
}

/// Runs in the forked child. Must stay async-signal-safe: no allocation, no formatting.
fn apply(setup: &ChildSetup) -> io::Result<()> {
    let limits = setup.limits;
    set(Resource::Core, 0, 0)?;
    if let Some(secs) = limits.cpu_seconds {
        // SIGXCPU at the soft limit, SIGKILL at the hard limit a second later.
        set(Resource::Cpu, secs, secs.saturating_add(1))?;
    }
    if let Some(bytes) = limits.memory_bytes {
        set(Resource::Data, bytes, bytes)?;
    }
    if let Some(bytes) = limits.file_size_bytes {
        set(Resource::Fsize, bytes, bytes)?;
    }
    if let Some(n) = limits.open_files {
        set(Resource::Nofile, n, n)?;
    }
    // No descriptor but stdin, stdout and stderr reaches the bot (see `descriptors.rs`),
    // whatever the arena or its embedding program inherited or left open.
    super::descriptors::cloexec_all_from(3)?;
    if let Some(fd) = setup.inherit_fd {
        // SAFETY: `fd` is open in the parent until spawn returns, so it is open here.
        let fd = unsafe { rustix::fd::BorrowedFd::borrow_raw(fd) };
        rustix::io::fcntl_setfd(fd, rustix::io::FdFlags::empty())?;
    }
    if let Some(n) = setup.processes_of_own_uid {
        set(Resource::Nproc, n, n)?;
    }
    if let Some(uid) = setup.switch_to_uid {
        let gid = rustix::process::Gid::from_raw(uid);
        let id = rustix::process::Uid::from_raw(uid);
        drop_bounding_set()?;
        rustix::thread::set_thread_groups(&[])?;
        rustix::thread::set_thread_res_gid(gid, gid, gid)?;
        rustix::thread::set_thread_res_uid(id, id, id)?;
    }
    rustix::thread::set_no_new_privs(true)?;
    // After the uid change, which would clear it. Kills the bot (at bwrap: bwrap, which then
    // takes the whole sandbox with it) when the arena dies, even by SIGKILL.
    rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))?;
    let parent = rustix::process::getppid().map_or(0, |p| p.as_raw_nonzero().get());
    if parent != setup.arena_pid {
        // The arena died before the death signal was armed.
        return Err(io::Error::from(io::ErrorKind::BrokenPipe));
    }
    if let Some(program) = setup.seccomp {
        load_seccomp(program)?;
    }
    Ok(())
}

/// Empties the capability bounding set (needs `CAP_SETPCAP`, so before the uid change), so
/// that nothing exec'd later can regain a capability. Capabilities this kernel does not know
/// end the loop (EINVAL).
fn drop_bounding_set() -> io::Result<()> {
    for cap in 0..64 {
        // SAFETY: a plain prctl with integer arguments.
        if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) } != 0 {
            let error = io::Error::last_os_error();
            if error.raw_os_error() == Some(libc::EINVAL) {
                return Ok(());
            }
            return Err(error);
        }
    }
    Ok(())
}

/// Installs a compiled classic-BPF program (an array of 8-byte `struct sock_filter`) on the
/// calling thread, the only one of the forked child. no_new_privs is already set.
fn load_seccomp(program: &'static [u8]) -> io::Result<()> {
    let filter = libc::sock_fprog {
        len: (program.len() / std::mem::size_of::<libc::sock_filter>()) as u16,
        filter: program.as_ptr() as *mut libc::sock_filter,
    };
    // SAFETY: `filter` points to a valid program for the duration of the call; the kernel
    // copies it. prctl is async-signal-safe.
    let done = unsafe {
        libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            &filter as *const libc::sock_fprog,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Sets a limit, clamped to the current hard limit (raising it would need privileges).
fn set(resource: Resource, soft: u64, hard: u64) -> io::Result<()> {
    let old = getrlimit(resource);
    let clamp = |v: u64| old.maximum.map_or(v, |max| v.min(max));
    let new = Rlimit {
        current: Some(clamp(soft)),
        maximum: Some(clamp(hard)),
    };
    setrlimit(resource, new).map_err(io::Error::from)
}
