//! What the bots' filter denies: a default-allow policy with a deny list, in the manner of
//! isolate's and nsjail's samples, with names taken from Docker's default profile. Each group
//! says why it is denied. Names that libseccomp does not know on this architecture are skipped.

use libseccomp::{ScmpAction, ScmpArgCompare, ScmpCompareOp, ScmpFilterContext, ScmpSyscall};

/// Syscalls that always fail with one errno; a comment above each group says why.
pub(super) struct Group {
    /// `EPERM`, or `ENOSYS` for interfaces that runtimes probe and then fall back from; 0
    /// for a call that does nothing and reports success.
    pub errno: i32,
    pub names: &'static [&'static str],
}

pub(super) const GROUPS: &[Group] = &[
    // Escaping or reshaping the mount, user and other namespaces bwrap set up.
    Group {
        errno: libc::EPERM,
        names: &[
            "mount",
            "umount",
            "umount2",
            "pivot_root",
            "chroot",
            "unshare",
            "setns",
            "move_mount",
            "open_tree",
            "fsopen",
            "fsmount",
            "fsconfig",
            "fspick",
            "mount_setattr",
            // File handles open files by inode, past the mount namespace ("shocker").
            "open_by_handle_at",
            "name_to_handle_at",
        ],
    },
    // Reading or steering other processes (the other bots, the arena).
    Group {
        errno: libc::EPERM,
        names: &[
            "ptrace",
            "process_vm_readv",
            "process_vm_writev",
            "pidfd_getfd",
            "kcmp",
        ],
    },
    // System-wide state: kernel modules and images, clocks, swap, accounting, the kernel log,
    // reboot, raw I/O ports.
    Group {
        errno: libc::EPERM,
        names: &[
            "kexec_load",
            "kexec_file_load",
            "init_module",
            "finit_module",
            "delete_module",
            "settimeofday",
            "clock_settime",
            "clock_adjtime",
            "adjtimex",
            "swapon",
            "swapoff",
            "acct",
            "syslog",
            "reboot",
            "iopl",
            "ioperm",
            "quotactl",
            "vhangup",
        ],
    },
    // Kernel attack surface no bot needs: BPF, perf, keyrings, userfaultfd, fanotify,
    // obsolete interfaces.
    Group {
        errno: libc::EPERM,
        names: &[
            "bpf",
            "perf_event_open",
            "keyctl",
            "add_key",
            "request_key",
            "userfaultfd",
            "lookup_dcookie",
            "fanotify_init",
            "nfsservctl",
            "uselib",
            "ustat",
            "sysfs",
            "_sysctl",
        ],
    },
    // Runtimes probe these and fall back: clone3 keeps its flags in memory, out of a filter's
    // reach (glibc falls back to clone); io_uring's operations bypass seccomp.
    Group {
        errno: libc::ENOSYS,
        names: &[
            "clone3",
            "io_uring_setup",
            "io_uring_enter",
            "io_uring_register",
        ],
    },
    // Channels between bots and machine-wide resources a bot could exhaust for others
    // (ARCHITECTURE.md, "Collusion and covert channels"): inotify watches on files every
    // sandbox binds signal which ones another bot opens; the AIO contexts (`io_setup`) are
    // one counter and one pool for the whole machine (`/proc/sys/fs/aio-nr`,
    // `aio-max-nr`); `sysinfo` tells the machine's load, free memory and thread count;
    // `mincore` which pages of a shared file are cached. POSIX and System V message queues,
    // semaphores and shared memory are machine-wide at the `limits` level. Every one is
    // optional to a runtime (libuv and the JVM poll instead of watching, glibc's `aio_*`
    // uses threads).
    Group {
        errno: libc::ENOSYS,
        names: &[
            "inotify_init",
            "inotify_init1",
            "inotify_add_watch",
            "io_setup",
            "sysinfo",
            "mincore",
            "mq_open",
            "mq_unlink",
            "mq_timedsend",
            "mq_timedreceive",
            "mq_notify",
            "mq_getsetattr",
            "msgget",
            "semget",
            "shmget",
        ],
    },
    // Advice that only the bot could notice, made a no-op that succeeds: whole-file locks
    // (`flock` locks an inode, which every sandbox binding the file shares, so one bot's lock
    // is another's message) and `posix_fadvise` (`POSIX_FADV_DONTNEED` evicts a shared file's
    // pages from the page cache, the "write 0" of a cache channel). A program alone in its
    // sandbox sees no difference: nothing else can hold its locks.
    Group {
        errno: 0,
        names: &["flock", "fadvise64", "fadvise64_64"],
    },
];

/// `fcntl` commands that take or test a record lock or a lease, or watch a directory
/// (`F_GETLK`, `F_SETLK`, `F_SETLKW`, the open-file-description `F_OFD_*` three, `F_SETLEASE`,
/// `F_GETLEASE`, `F_NOTIFY`), with what they answer: a lock "succeeds" without locking
/// (as `flock` above), a test for a conflicting lock is refused (`ENOLCK`: the struct would
/// otherwise come back unchanged, which reads as a conflict), leases and directory
/// notifications are refused. The same values on every Linux architecture.
pub(super) const FCNTL_LOCK_COMMANDS: [(u64, i32); 9] = [
    (5, libc::ENOLCK),   // F_GETLK
    (6, 0),              // F_SETLK
    (7, 0),              // F_SETLKW
    (36, libc::ENOLCK),  // F_OFD_GETLK
    (37, 0),             // F_OFD_SETLK
    (38, 0),             // F_OFD_SETLKW
    (1024, libc::EPERM), // F_SETLEASE
    (1025, libc::EPERM), // F_GETLEASE
    (1026, libc::EPERM), // F_NOTIFY
];

/// `madvise` advice that pushes a mapping's pages out of memory, which for a shared file
/// evicts them from the page cache for everyone: `MADV_COLD` and `MADV_PAGEOUT`. Made a
/// no-op that succeeds (advice may be ignored).
pub(super) const EVICTING_MADVICE: [u64; 2] = [20, 21];

/// `RWF_NOWAIT`: a `preadv2` that fails instead of reading from the disk tells cached pages
/// from uncached ones without changing them. Refused with `EOPNOTSUPP`, what a file system
/// without non-blocking reads answers, so that a program falls back to a plain read.
pub(super) const RWF_NOWAIT: u64 = 0x8;

/// Syscalls newer than the libseccomp a distribution ships (which skips names it does not
/// know, and a default-allow filter would then let them through), by number: `cachestat`
/// (Linux 6.5) reports which pages of a file are cached. The same number on x86_64 and
/// arm64 (the generic table).
pub(super) const NEWER_SYSCALLS: [(&str, i32, i32); 1] = [("cachestat", 451, libc::ENOSYS)];

/// `clone` flags that create namespaces (`CLONE_NEWNS`, `NEWCGROUP`, `NEWUTS`, `NEWIPC`,
/// `NEWUSER`, `NEWPID`, `NEWNET`, `NEWTIME`); the same values on every architecture. clone's
/// flags are its first argument everywhere but on s390, which we don't build for.
/// `CLONE_NEWTIME` (0x80) lies in clone's exit-signal byte, where no valid signal sets it.
pub(super) const CLONE_NAMESPACE_FLAGS: [u64; 8] = [
    0x0002_0000,
    0x0200_0000,
    0x0400_0000,
    0x0800_0000,
    0x1000_0000,
    0x2000_0000,
    0x4000_0000,
    0x0000_0080,
];

/// `AF_VSOCK`: sockets to the hypervisor and its other guests, which the network namespace
/// does not cover.
pub(super) const AF_VSOCK: u64 = 40;

/// `TIOCSTI` (push bytes into a terminal's input: CVE-2017-5226, CVE-2019-10063) and
/// `TIOCLINUX` (the same through the Linux console's selection). The asm-generic values, as on
/// x86 and arm64.
pub(super) const TERMINAL_INJECTION_IOCTLS: [u64; 2] = [0x5412, 0x541C];

/// The personas `personality` may set, as in Docker's profile: `PER_LINUX`, `PER_LINUX32`,
/// `UNAME26`, both; and `0xffffffff`, which only queries. Others change the address space
/// layout (`ADDR_NO_RANDOMIZE`, `READ_IMPLIES_EXEC`, `MMAP_PAGE_ZERO`...).
pub(super) const ALLOWED_PERSONAS: [u32; 5] = [0, 0x0008, 0x2_0000, 0x2_0008, 0xffff_ffff];

/// Adds every rule of the policy to `ctx`. Returns the names libseccomp did not know on this
/// architecture, which were skipped.
pub(super) fn add_rules(ctx: &mut ScmpFilterContext) -> Result<Vec<&'static str>, RuleError> {
    let mut skipped = Vec::new();
    for group in GROUPS {
        for &name in group.names {
            match ScmpSyscall::from_name(name) {
                Ok(syscall) => add(ctx, name, group.errno, syscall, &[])?,
                Err(_) => skipped.push(name),
            }
        }
    }
    let eperm = libc::EPERM;
    // Threads and fork pass; a flag that makes a namespace fails.
    for flag in CLONE_NAMESPACE_FLAGS {
        add(ctx, "clone", eperm, sys("clone")?, &[masked(0, flag, flag)])?;
    }
    // fcntl's command is an int: compare its 32 bits.
    for (command, errno) in FCNTL_LOCK_COMMANDS {
        add(
            ctx,
            "fcntl",
            errno,
            sys("fcntl")?,
            &[masked(1, 0xffff_ffff, command)],
        )?;
    }
    for advice in EVICTING_MADVICE {
        add(
            ctx,
            "madvise",
            0,
            sys("madvise")?,
            &[masked(2, 0xffff_ffff, advice)],
        )?;
    }
    for name in ["preadv2", "pwritev2"] {
        add(
            ctx,
            name,
            libc::EOPNOTSUPP,
            sys(name)?,
            &[masked(5, RWF_NOWAIT, RWF_NOWAIT)],
        )?;
    }
    for (name, number, errno) in NEWER_SYSCALLS {
        if ScmpSyscall::from_name(name).is_err() {
            add(ctx, name, errno, ScmpSyscall::from(number), &[])?;
        } else {
            add(ctx, name, errno, sys(name)?, &[])?;
        }
    }
    add(
        ctx,
        "socket",
        eperm,
        sys("socket")?,
        &[masked(0, u64::MAX, AF_VSOCK)],
    )?;
    // The kernel reads an ioctl's request as 32 bits: compare only those (CVE-2019-10063).
    for request in TERMINAL_INJECTION_IOCTLS {
        add(
            ctx,
            "ioctl",
            eperm,
            sys("ioctl")?,
            &[masked(1, 0xffff_ffff, request)],
        )?;
    }
    // libseccomp ORs rules and cannot compare one argument twice in a rule, so "not one of
    // these" becomes the aligned blocks that tile the other values. The kernel reads the
    // persona as 32 bits, and so do the blocks.
    for (mask, start) in complement_blocks(&ALLOWED_PERSONAS) {
        add(
            ctx,
            "personality",
            eperm,
            sys("personality")?,
            &[masked(0, mask, start)],
        )?;
    }
    Ok(skipped)
}

/// A rule that libseccomp refused.
#[derive(Debug, thiserror::Error)]
#[error("cannot add the rule for `{name}`: {source}")]
pub(crate) struct RuleError {
    name: &'static str,
    source: libseccomp::error::SeccompError,
}

fn sys(name: &'static str) -> Result<ScmpSyscall, RuleError> {
    ScmpSyscall::from_name(name).map_err(|source| RuleError { name, source })
}

fn masked(arg: u32, mask: u64, value: u64) -> ScmpArgCompare {
    ScmpArgCompare::new(arg, ScmpCompareOp::MaskedEqual(mask), value)
}

fn add(
    ctx: &mut ScmpFilterContext,
    name: &'static str,
    errno: i32,
    syscall: ScmpSyscall,
    conditions: &[ScmpArgCompare],
) -> Result<(), RuleError> {
    ctx.add_rule_conditional(ScmpAction::Errno(errno), syscall, conditions)
        .map(|_| ())
        .map_err(|source| RuleError { name, source })
}

/// The `(mask, start)` blocks, each of the values `v` with `v & mask == start`, that together
/// cover exactly the 32-bit values not in `allowed`: every gap between allowed values is cut
/// into aligned power-of-two blocks. The masks ignore the upper 32 bits, as the kernel does.
pub(super) fn complement_blocks(allowed: &[u32]) -> Vec<(u64, u64)> {
    let mut allowed: Vec<u64> = allowed.iter().map(|&v| u64::from(v)).collect();
    allowed.sort_unstable();
    allowed.dedup();
    let mut blocks = Vec::new();
    let mut next = 0u64; // the first value not yet covered or allowed
    for end in allowed.into_iter().chain([u64::from(u32::MAX) + 1]) {
        // Cover [next, end).
        while next < end {
            // The largest block aligned at `next` that stays below `end`.
            let mut size = 1u64 << next.trailing_zeros().min(32);
            while next + size > end {
                size >>= 1;
            }
            blocks.push((!(size - 1) & u64::from(u32::MAX), next));
            next += size;
        }
        next = end + 1;
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covered(blocks: &[(u64, u64)], v: u64) -> usize {
        blocks.iter().filter(|&&(m, s)| v & m == s).count()
    }

    #[test]
    fn persona_blocks_cover_exactly_the_values_not_allowed() {
        let blocks = complement_blocks(&ALLOWED_PERSONAS);
        let mut probes: Vec<u64> = vec![1 << 32, u64::MAX, 0x1_0000_0008, 0x1_0004_0000];
        for k in 0..32 {
            probes.extend([1u64 << k, (1u64 << k) - 1, (1u64 << k) + 1]);
        }
        for &a in &ALLOWED_PERSONAS {
            let a = u64::from(a);
            probes.extend([a, a.saturating_sub(1), a + 1]);
        }
        probes.extend([
            0x4_0000,
            0x40_0000,
            0x10_0000,
            0xffff_fffe,
            0x7fff_ffff,
            0x8000_0000,
        ]);
        for v in probes {
            let want = usize::from(!ALLOWED_PERSONAS.contains(&(v as u32)));
            assert_eq!(covered(&blocks, v), want, "value {v:#x}");
        }
        // Every block is aligned to its size, and they are few.
        for &(mask, start) in &blocks {
            assert_eq!(start & !mask, 0, "block {start:#x}/{mask:#x}");
        }
        assert!(blocks.len() < 100, "{} blocks", blocks.len());
    }

    #[test]
    fn a_gap_of_one_value_and_no_gap() {
        assert_eq!(complement_blocks(&[0, 2, 3])[0], (0xffff_ffff, 1));
        assert_eq!(complement_blocks(&[]), vec![(0, 0)]);
    }
}
