//! The bubblewrap command line for [`SandboxLevel::Bwrap`](super::SandboxLevel::Bwrap).
//!
//! Why no `--new-session`: bwrap's manual recommends it (or a seccomp filter) so that the
//! sandbox can't inject keystrokes into the controlling terminal with `TIOCSTI`
//! (CVE-2017-5226). We get that protection differently: the arena's `pre_exec` hook already
//! calls `setsid()` before exec'ing `bwrap`, so nothing in the sandbox has a controlling
//! terminal (and the seccomp filter denies `TIOCSTI`). `--new-session` would instead call
//! `setsid()` *inside*, moving the sandboxed processes out of the bot's process group.
//!
//! Namespaces: IPC, PID, network (only a down `lo`), UTS and cgroup; a user namespace only
//! when the arena is not root (bwrap then needs one to mount anything). When the arena *is*
//! root there is no user namespace: bwrap keeps just `CAP_SETUID`, `CAP_SETGID` and
//! `CAP_SETPCAP` for its child, `setpriv` (util-linux) switches to the bot's own uid, clears
//! the bounding, inheritable and ambient sets and sets no_new_privs, then execs the bot with no
//! capability at all. So the bot is an ordinary unprivileged user in namespaces owned by the
//! real root: it can neither unmount what hides the other seats nor remount `/` read-write
//! (bubblewrap's own caveat for root callers, bubblewrap#287).
//!
//! The file system is built from nothing (bwrap's root is an empty tmpfs), in mount order
//! (later mounts cover earlier ones):
//!
//! 1. a private `/tmp`, a tmpfs of at most the disk limit;
//! 2. the system's runtime directories read-only (`/usr`, `/etc`, `/bin`, `/sbin`, `/lib*`;
//!    symlinks kept as symlinks) and the extra readable directories of the bot (the runtime
//!    root of its program when it lives elsewhere, the directory of each file named on its
//!    command line, each directory named there; only the file itself where that directory is
//!    shared with the rest of the machine, as `/tmp` or a home directory), read-only, parents
//!    first;
//! 3. each hidden directory ([`BotSpec::hidden`]) not inside the workdir: an empty tmpfs;
//!    each hidden file: `/dev/null` (which cannot even be opened there: every bind is
//!    `nodev`); then the files named on the bot's command line that fall inside one of
//!    these, bound again read-only, file by file: the command line is the operator's grant;
//! 4. the workdir: a private tmpfs of at most the disk limit when the arena made it for this
//!    bot (its contents die with the bot), or the operator's directory, read-only (read-write
//!    for a build, [`BotSpec::writable_workdir`]);
//! 5. hidden paths inside the workdir, as in 3, and the needed files inside them;
//! 6. the hidden tmpfs made read-only, so nothing can be written there either;
//! 7. a private `/proc` (of the bot's own PID namespace) and `/dev`; over `/proc`'s
//!    machine-wide files (load, CPU and memory figures, locks, counters), frozen copies
//!    (`proc_view.rs`), so that no bot can signal another through them.
//!
//! Nothing else of the machine exists inside: not `/root` or `/home`, not other projects,
//! not the arena's logs, replays, results or tournament file, not `/run`'s sockets.
//!
//! [`BotSpec::hidden`]: super::BotSpec::hidden
//! [`BotSpec::writable_workdir`]: super::BotSpec::writable_workdir

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::process::BotProcess;
use super::spec::{BotSpec, SandboxLevel};
use super::stdout::{SANDBOX_STDOUT, wrapper_args};

/// Directories that are always replaced by a private, writable tmpfs.
const SCRATCH: [&str; 1] = ["/tmp"];

/// The system's runtime: interpreters, libraries, certificates, time zones. Bound read-only
/// where they exist (symlinks, as in merged-`/usr` systems, are recreated as symlinks).
pub const SYSTEM_DIRS: [&str; 9] = [
    "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
];

/// A path to hide inside the sandbox, already made absolute and free of symlinks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hidden {
    /// Becomes an empty read-only directory.
    Dir(PathBuf),
    /// Cannot be opened.
    File(PathBuf),
}

impl Hidden {
    fn path(&self) -> &Path {
        match self {
            Hidden::Dir(p) | Hidden::File(p) => p,
        }
    }
}

/// Everything [`bwrap_args`] needs. Every path must be absolute and canonical.
#[derive(Debug, Clone)]
pub struct BwrapPlan<'a> {
    /// The bot's working directory (also its `HOME`).
    pub workdir: &'a Path,
    /// The arena made `workdir` for this bot alone: inside it is a fresh tmpfs of at most
    /// `disk_bytes`. Otherwise (an operator's directory) it is bound read-only.
    pub private_workdir: bool,
    /// An operator's workdir (not private) is bound read-write rather than read-only.
    pub writable_workdir: bool,
    pub hidden: &'a [Hidden],
    /// Files the bot must be able to read even inside a hidden directory (its program and
    /// the files named on its command line).
    pub needed: &'a [PathBuf],
    /// Directories and files bound read-only besides [`SYSTEM_DIRS`].
    pub readable: &'a [PathBuf],
    /// Size of the private `/tmp` and of a private workdir.
    pub disk_bytes: Option<u64>,
    /// Root only: the uid (and gid) the bot runs as, switched to by `setpriv` inside.
    pub switch_to_uid: Option<u32>,
    /// A file descriptor (inherited by bwrap) holding the seccomp program.
    pub seccomp_fd: Option<i32>,
    /// A FIFO to be the bot's stdout (see `stdout.rs`): bound at [`SANDBOX_STDOUT`], and an
    /// `sh` wrapper points the bot's stdout at it before exec'ing the bot.
    pub stdout_fifo: Option<&'a Path>,
    /// Frozen copies of `/proc`'s machine-wide files (`proc_view.rs`), each bound read-only
    /// over the file it freezes: (copy, path in `/proc`).
    pub frozen_proc: &'a [(PathBuf, PathBuf)],
    pub program: &'a Path,
    pub args: &'a [String],
}

/// Arguments after `bwrap` that run the plan's program (see the module documentation for
/// the order of the mounts).
pub fn bwrap_args(plan: &BwrapPlan<'_>) -> Vec<OsString> {
    let workdir = plan.workdir;
    let mut out: Vec<OsString> = Vec::new();
    let mut flags: Vec<&str> = vec![
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--cap-drop",
        "ALL",
    ];
    if plan.switch_to_uid.is_some() {
        flags.extend([
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
            "--cap-add",
            "CAP_SETPCAP",
        ]);
    } else {
        flags.extend(["--unshare-user", "--disable-userns"]);
    }
    out.extend(flags.into_iter().map(OsString::from));
    for dir in SCRATCH {
        push_tmpfs(&mut out, Path::new(dir), plan.disk_bytes, true);
    }
    if let Some(fifo) = plan.stdout_fifo {
        let inside = Path::new(SANDBOX_STDOUT);
        for dir in inside
            .ancestors()
            .skip(1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .skip(1)
        {
            push_dir(&mut out, dir);
        }
        push(
            &mut out,
            &["--bind".as_ref(), fifo.as_os_str(), inside.as_os_str()],
        );
    }
    for dir in SYSTEM_DIRS {
        let path = Path::new(dir);
        match std::fs::read_link(path) {
            Ok(target) => push(
                &mut out,
                &["--symlink".as_ref(), target.as_os_str(), path.as_os_str()],
            ),
            Err(_) if path.is_dir() => push(
                &mut out,
                &["--ro-bind".as_ref(), path.as_os_str(), path.as_os_str()],
            ),
            Err(_) => {}
        }
    }
    let mut readable: Vec<&Path> = plan
        .readable
        .iter()
        .map(PathBuf::as_path)
        .filter(|d| !SYSTEM_DIRS.iter().any(|s| d.starts_with(s)))
        .collect();
    readable.sort_by_key(|d| d.components().count());
    readable.dedup();
    let hidden_paths: Vec<&Path> = plan.hidden.iter().map(Hidden::path).collect();
    let targets = readable
        .iter()
        .copied()
        .chain(plan.needed.iter().map(PathBuf::as_path))
        .chain(hidden_paths.iter().copied())
        .chain([workdir]);
    for dir in parents_to_create(targets, &readable, workdir) {
        push_dir(&mut out, dir);
    }
    for dir in readable {
        push(
            &mut out,
            &["--ro-bind".as_ref(), dir.as_os_str(), dir.as_os_str()],
        );
    }
    let (inner, outer): (Vec<&Hidden>, Vec<&Hidden>) = hidden_mounts(workdir, plan.hidden)
        .into_iter()
        .partition(|h| h.path().starts_with(workdir));
    mount_hidden(&mut out, &outer);
    for file in plan.needed {
        let in_hidden = outer.iter().any(|h| match h {
            Hidden::Dir(d) => file.starts_with(d),
            Hidden::File(f) => file == f,
        });
        if !file.starts_with(workdir) && in_hidden {
            push(
                &mut out,
                &["--ro-bind".as_ref(), file.as_os_str(), file.as_os_str()],
            );
        }
    }
    if plan.private_workdir {
        push_tmpfs(&mut out, workdir, plan.disk_bytes, false);
    } else {
        let bind = if plan.writable_workdir {
            "--bind"
        } else {
            "--ro-bind"
        };
        push(
            &mut out,
            &[bind.as_ref(), workdir.as_os_str(), workdir.as_os_str()],
        );
    }
    mount_hidden(&mut out, &inner);
    for file in plan.needed {
        let hidden_inside = inner
            .iter()
            .any(|h| matches!(h, Hidden::Dir(d) if file.starts_with(d)));
        if hidden_inside {
            push(
                &mut out,
                &["--ro-bind".as_ref(), file.as_os_str(), file.as_os_str()],
            );
        }
    }
    for hidden in outer.iter().chain(&inner) {
        if let Hidden::Dir(dir) = hidden {
            push(&mut out, &["--remount-ro".as_ref(), dir.as_os_str()]);
        }
    }
    for arg in ["--proc", "/proc", "--dev", "/dev"] {
        out.push(arg.into());
    }
    for (copy, target) in plan.frozen_proc {
        push(
            &mut out,
            &["--ro-bind".as_ref(), copy.as_os_str(), target.as_os_str()],
        );
    }
    if let Some(fd) = plan.seccomp_fd {
        out.push("--seccomp".into());
        out.push(fd.to_string().into());
    }
    out.push("--chdir".into());
    out.push(workdir.into());
    out.push("--".into());
    if let Some(uid) = plan.switch_to_uid {
        out.extend(setpriv_args(uid));
    }
    if plan.stdout_fifo.is_some() {
        out.extend(wrapper_args(plan.program));
    } else {
        out.push(plan.program.into());
    }
    out.extend(plan.args.iter().map(OsString::from));
    out
}

/// The directories above mount points that bwrap would otherwise create itself, with mode
/// 0700 when run as root, which the bot's own uid could not cross: every ancestor of a
/// target that is not `/`, not a system directory, and not inside a directory bound
/// read-only or the workdir (where it exists already, or bwrap makes it in the workdir's
/// own tmpfs), parents first.
fn parents_to_create<'a>(
    targets: impl Iterator<Item = &'a Path>,
    readable: &[&Path],
    workdir: &Path,
) -> Vec<&'a Path> {
    let bound = |p: &Path| {
        SYSTEM_DIRS.iter().any(|s| p.starts_with(s))
            || readable.iter().any(|r| p.starts_with(r))
            || p.starts_with(workdir)
    };
    let mut dirs: Vec<&Path> = targets
        .filter(|t| t.is_absolute())
        .flat_map(|t| t.ancestors().skip(1))
        .filter(|d| *d != Path::new("/") && !SCRATCH.iter().any(|s| *d == Path::new(s)))
        .filter(|d| !bound(d))
        .collect();
    dirs.sort_by_key(|d| (d.components().count(), d.to_path_buf()));
    dirs.dedup();
    dirs
}

/// `setpriv` (util-linux) as the sandbox's first program when the arena is root: the bot's
/// own uid and gid, no supplementary group, every capability set emptied, no_new_privs.
fn setpriv_args(uid: u32) -> Vec<OsString> {
    let id = uid.to_string();
    [
        "setpriv",
        "--reuid",
        &id,
        "--regid",
        &id,
        "--clear-groups",
        "--bounding-set",
        "-all",
        "--inh-caps",
        "-all",
        "--ambient-caps",
        "-all",
        "--no-new-privs",
        "--",
    ]
    .into_iter()
    .map(OsString::from)
    .collect()
}

/// A tmpfs at `dir`, of at most `size` bytes. World-writable (sticky for `/tmp`): only this
/// bot's processes exist in the sandbox, whatever uid they run as.
fn push_tmpfs(out: &mut Vec<OsString>, dir: &Path, size: Option<u64>, sticky: bool) {
    if let Some(bytes) = size {
        out.push("--size".into());
        out.push(bytes.max(4096).to_string().into());
    }
    out.push("--perms".into());
    out.push(if sticky { "1777" } else { "0777" }.into());
    push(out, &["--tmpfs".as_ref(), dir.as_os_str()]);
}

/// Whether `path` (canonical) is out of sight in the sandbox before the workdir is bound:
/// inside a hidden directory, or a hidden file itself.
pub(crate) fn under_hidden(path: &Path, hidden: &[Hidden]) -> bool {
    hidden.iter().any(|h| match h {
        Hidden::Dir(d) => path.starts_with(d),
        Hidden::File(f) => path == f,
    })
}

/// The hidden paths worth mounting, in a stable order: not `/`, not the workdir itself, no
/// duplicates, and none already covered by another hidden directory on the same side of the
/// workdir mount.
fn hidden_mounts<'a>(workdir: &Path, hidden: &'a [Hidden]) -> Vec<&'a Hidden> {
    let inside = |p: &Path| p.starts_with(workdir);
    let mut kept: Vec<&Hidden> = Vec::new();
    for h in hidden {
        let path = h.path();
        if path == Path::new("/") || path == workdir || !path.is_absolute() {
            continue;
        }
        let covered = hidden.iter().any(|other| {
            matches!(other, Hidden::Dir(d)
                if d.as_path() != path && path.starts_with(d) && inside(d) == inside(path)
                    && d.as_path() != workdir && d.as_path() != Path::new("/"))
        });
        if !covered && !kept.iter().any(|k| k.path() == path) {
            kept.push(h);
        }
    }
    kept
}

fn mount_hidden(out: &mut Vec<OsString>, hidden: &[&Hidden]) {
    for h in hidden {
        match h {
            Hidden::Dir(dir) => push(out, &["--tmpfs".as_ref(), dir.as_os_str()]),
            Hidden::File(file) => push(
                out,
                &["--ro-bind".as_ref(), "/dev/null".as_ref(), file.as_os_str()],
            ),
        }
    }
}

/// A directory any user can cross (bwrap would make it 0700 when run as root).
fn push_dir(out: &mut Vec<OsString>, dir: &Path) {
    push(
        out,
        &[
            "--perms".as_ref(),
            "0755".as_ref(),
            "--dir".as_ref(),
            dir.as_os_str(),
        ],
    );
}

fn push(out: &mut Vec<OsString>, parts: &[&std::ffi::OsStr]) {
    out.extend(parts.iter().map(|p| p.to_os_string()));
}

/// Why bubblewrap cannot sandbox bots here.
#[derive(Debug, thiserror::Error)]
pub enum BwrapUnusable {
    #[error("cannot create a temporary directory: {0}")]
    TempDir(#[source] std::io::Error),
    #[error("{0}")]
    Spawn(#[source] super::SpawnError),
    /// `bwrap` ran and failed: its exit status and the end of its stderr.
    #[error("bwrap failed ({status}): {stderr}")]
    Failed { status: String, stderr: String },
}

/// Checks that `bwrap` is installed and can create the namespaces and mounts we use, by
/// running `true` exactly as a bot at [`SandboxLevel::Bwrap`] would run (inside a hidden
/// directory). `Err` says why it can't be used.
///
/// [`SandboxLevel::Bwrap`]: super::SandboxLevel::Bwrap
pub async fn probe_bwrap() -> Result<(), BwrapUnusable> {
    let dir = tempfile::tempdir().map_err(BwrapUnusable::TempDir)?;
    let mut spec = BotSpec::new(
        "bwrap-probe",
        vec!["true".to_string()],
        dir.path().join("work"),
        dir.path().join("stderr.log"),
    );
    spec.sandbox = SandboxLevel::Bwrap;
    // Exercise every kind of mount a bot may get: a hidden directory holding the workdir.
    let hidden = dir.path().join("hidden");
    std::fs::create_dir_all(&hidden).map_err(BwrapUnusable::TempDir)?;
    spec.workdir = hidden.join("work");
    spec.hidden = vec![hidden];
    let bot = BotProcess::spawn(&spec).map_err(BwrapUnusable::Spawn)?;
    let exit = bot.shutdown(Duration::from_secs(10)).await;
    if exit.code == Some(0) {
        Ok(())
    } else {
        let status = exit
            .status
            .map_or("no status".to_string(), |s| s.to_string());
        Err(BwrapUnusable::Failed {
            status,
            stderr: exit.stderr.tail.trim().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[OsString]) -> Vec<&str> {
        args.iter().map(|a| a.to_str().unwrap()).collect()
    }

    fn plan<'a>(workdir: &'a Path, program: &'a Path, args: &'a [String]) -> BwrapPlan<'a> {
        BwrapPlan {
            workdir,
            private_workdir: true,
            writable_workdir: false,
            hidden: &[],
            needed: &[],
            readable: &[],
            disk_bytes: None,
            switch_to_uid: None,
            seccomp_fd: None,
            stdout_fifo: None,
            frozen_proc: &[],
            program,
            args,
        }
    }

    /// The part of the argument list after the system directories.
    fn after_system(args: &[OsString]) -> String {
        let text = strings(args).join(" ");
        let last_system = SYSTEM_DIRS
            .iter()
            .filter_map(|d| {
                text.rfind(&format!(" {d} {d}"))
                    .map(|i| i + 2 * d.len() + 2)
            })
            .max()
            .unwrap_or(0);
        text[last_system..].trim().to_string()
    }

    #[test]
    fn unprivileged_argument_list() {
        let args = ["bot.py".to_string(), "--fast".to_string()];
        let built = bwrap_args(&plan(
            Path::new("/srv/bots/alice"),
            Path::new("/usr/bin/python3"),
            &args,
        ));
        let text = strings(&built).join(" ");
        assert!(
            text.starts_with(
                "--unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup-try \
                 --die-with-parent --cap-drop ALL --unshare-user --disable-userns \
                 --perms 1777 --tmpfs /tmp --"
            ),
            "{text}"
        );
        assert!(text.contains("--ro-bind /usr /usr"), "{text}");
        assert_eq!(
            after_system(&built),
            "--perms 0755 --dir /srv --perms 0755 --dir /srv/bots \
             --perms 0777 --tmpfs /srv/bots/alice --proc /proc --dev /dev \
             --chdir /srv/bots/alice -- /usr/bin/python3 bot.py --fast"
        );
    }

    #[test]
    fn as_root_the_bot_gets_its_own_uid_and_no_capability() {
        let mut p = plan(Path::new("/w"), Path::new("/usr/bin/python3"), &[]);
        p.switch_to_uid = Some(1_800_000_007);
        p.disk_bytes = Some(1 << 20);
        p.seccomp_fd = Some(9);
        let text = strings(&bwrap_args(&p)).join(" ");
        assert!(!text.contains("--unshare-user"), "{text}");
        assert!(
            text.contains(
                "--cap-drop ALL --cap-add CAP_SETUID --cap-add CAP_SETGID --cap-add CAP_SETPCAP"
            ),
            "{text}"
        );
        assert!(
            text.contains("--size 1048576 --perms 1777 --tmpfs /tmp"),
            "{text}"
        );
        assert!(
            text.ends_with(
                "--seccomp 9 --chdir /w -- setpriv --reuid 1800000007 --regid 1800000007 \
                 --clear-groups --bounding-set -all --inh-caps -all --ambient-caps -all \
                 --no-new-privs -- /usr/bin/python3"
            ),
            "{text}"
        );
    }

    #[test]
    fn hidden_paths_are_mounted_before_the_workdir_and_made_read_only() {
        let hidden = [
            Hidden::Dir("/m/match".into()),
            Hidden::Dir("/m/logs".into()),
            Hidden::File("/m/replay.jsonl".into()),
        ];
        let needed = ["/m/match/bot.py".into(), "/usr/bin/python3".into()];
        let readable = ["/m/match".into(), "/usr/lib/python3".into()];
        let args = ["/m/match/bot.py".to_string()];
        let mut p = plan(
            Path::new("/m/match/seat0"),
            Path::new("/usr/bin/python3"),
            &args,
        );
        p.hidden = &hidden;
        p.needed = &needed;
        p.readable = &readable;
        assert_eq!(
            after_system(&bwrap_args(&p)),
            "--perms 0755 --dir /m --ro-bind /m/match /m/match --tmpfs /m/match --tmpfs /m/logs \
             --ro-bind /dev/null /m/replay.jsonl --ro-bind /m/match/bot.py /m/match/bot.py \
             --perms 0777 --tmpfs /m/match/seat0 --remount-ro /m/match --remount-ro /m/logs \
             --proc /proc --dev /dev --chdir /m/match/seat0 -- /usr/bin/python3 /m/match/bot.py"
        );
    }

    #[test]
    fn nested_duplicate_and_pointless_hidden_paths_are_dropped() {
        let hidden = [
            Hidden::Dir("/".into()),
            Hidden::Dir("/w/seat0".into()),
            Hidden::Dir("/w".into()),
            Hidden::Dir("/w".into()),
            Hidden::Dir("/w/logs".into()),
            Hidden::File("/w/replay".into()),
            Hidden::Dir("relative".into()),
        ];
        let mut p = plan(Path::new("/w/seat0"), Path::new("/bin/true"), &[]);
        p.hidden = &hidden;
        let text = after_system(&bwrap_args(&p));
        assert!(
            text.starts_with(
                "--perms 0755 --dir /w --tmpfs /w --perms 0777 --tmpfs /w/seat0 --remount-ro /w \
                 --proc"
            ),
            "{text}"
        );
    }

    #[test]
    fn an_operators_workdir_is_read_only_and_hidden_paths_inside_come_after_it() {
        let hidden = [
            Hidden::Dir("/repo/out".into()),
            Hidden::Dir("/repo/out/logs".into()),
        ];
        let needed = ["/repo/out/bot".into()];
        let mut p = plan(Path::new("/repo"), Path::new("/repo/out/bot"), &[]);
        p.private_workdir = false;
        p.hidden = &hidden;
        p.needed = &needed;
        assert!(
            after_system(&bwrap_args(&p)).starts_with(
                "--ro-bind /repo /repo --tmpfs /repo/out \
                 --ro-bind /repo/out/bot /repo/out/bot --remount-ro /repo/out --proc"
            ),
            "{}",
            after_system(&bwrap_args(&p))
        );
    }

    #[test]
    fn a_build_binds_its_workdir_writable() {
        let mut p = plan(Path::new("/data/build/7"), Path::new("/usr/bin/gcc"), &[]);
        p.private_workdir = false;
        p.writable_workdir = true;
        let text = after_system(&bwrap_args(&p));
        assert!(
            text.ends_with("--bind /data/build/7 /data/build/7 --proc /proc --dev /dev --chdir /data/build/7 -- /usr/bin/gcc"),
            "{text}"
        );
        // A private workdir stays a private tmpfs whatever the flag says.
        p.private_workdir = true;
        assert!(
            !strings(&bwrap_args(&p)).contains(&"--bind"),
            "{:?}",
            bwrap_args(&p)
        );
    }

    #[test]
    fn frozen_proc_files_are_bound_over_the_fresh_proc() {
        let frozen = [
            ("/b/proc/0".into(), "/proc/loadavg".into()),
            ("/b/proc/1".into(), "/proc/sys/fs/aio-nr".into()),
        ];
        let mut p = plan(Path::new("/w"), Path::new("/bin/true"), &[]);
        p.frozen_proc = &frozen;
        let text = after_system(&bwrap_args(&p));
        assert!(
            text.ends_with(
                "--proc /proc --dev /dev --ro-bind /b/proc/0 /proc/loadavg \
                 --ro-bind /b/proc/1 /proc/sys/fs/aio-nr --chdir /w -- /bin/true"
            ),
            "{text}"
        );
    }

    #[test]
    fn arguments_that_look_like_options_stay_after_the_separator() {
        let args = ["--bind".to_string()];
        let built = bwrap_args(&plan(Path::new("/w"), Path::new("/bin/sh"), &args));
        let sep = built.iter().position(|a| a == "--").unwrap();
        assert_eq!(
            built[sep + 1..],
            [OsString::from("/bin/sh"), "--bind".into()]
        );
    }
}
