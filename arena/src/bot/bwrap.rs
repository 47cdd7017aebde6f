//! The bubblewrap command line for [`SandboxLevel::Bwrap`](super::SandboxLevel::Bwrap).
//!
//! Why no `--new-session`: bwrap's manual recommends it (or a seccomp filter) so that the
//! sandbox can't inject keystrokes into the controlling terminal with `TIOCSTI`
//! (CVE-2017-5226). We get that protection differently: the arena's `pre_exec` hook already
//! calls `setsid()` before exec'ing `bwrap`, so nothing in the sandbox has a controlling
//! terminal. `--new-session` would instead call `setsid()` *inside*, moving the sandboxed
//! processes into another session and process group: `kill(-pgid)` would then reach only the
//! outer `bwrap`, cleanup would rest on the PID namespace teardown alone (`--die-with-parent`
//! kills the namespace's init when the outer bwrap dies, and the kernel kills the rest), and
//! with the arena as a subreaper the namespace's init would come back to the arena outside the
//! bot's group and never be reaped. Without it, everything in the sandbox stays in the bot's
//! group and is killed and reaped like any other bot process.
//!
//! `--unshare-all` includes `--unshare-net` (only a down `lo`) and `--unshare-pid`.
//!
//! The file system, in mount order (later mounts cover earlier ones):
//!
//! 1. `/` read-only at the same path; `/tmp` and `/run` private, writable, empty tmpfs
//!    (`/run` holds the sockets of system services);
//! 2. each hidden directory ([`BotSpec::hidden`]) not inside the workdir: an empty tmpfs;
//!    each hidden file: `/dev/null` (which cannot even be opened there: every bind is
//!    `nodev`); then the files named on the bot's command line (its program and the
//!    absolute file paths among its arguments) that fall inside one of these, bound again
//!    read-only, file by file: the command line is the operator's grant;
//! 3. the workdir, writable;
//! 4. hidden paths inside the workdir, as in 2, and the needed files inside them;
//! 5. the hidden tmpfs made read-only, so nothing can be written there either;
//! 6. a private `/proc` and `/dev`.
//!
//! So a workdir inside a hidden directory (a seat's directory inside the match's
//! directory) stays usable while its siblings, the logs, the transcripts and the replay
//! are gone.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::process::BotProcess;
use super::spec::{BotSpec, SandboxLevel};

/// Directories that are always replaced by a private, writable tmpfs.
const SCRATCH: [&str; 2] = ["/tmp", "/run"];

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

/// Arguments after `bwrap` that run `program args..` in `workdir`, with `hidden` emptied
/// (see the module documentation for the order). `needed` are files the bot must be able
/// to read even inside a hidden directory (its program and scripts). Every path must be
/// absolute and canonical.
pub fn bwrap_args(
    workdir: &Path,
    hidden: &[Hidden],
    needed: &[PathBuf],
    program: &Path,
    args: &[String],
) -> Vec<OsString> {
    let mut out: Vec<OsString> = ["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/"]
        .into_iter()
        .map(OsString::from)
        .collect();
    for dir in SCRATCH {
        push(&mut out, &["--tmpfs".as_ref(), dir.as_ref()]);
    }
    let (inner, outer): (Vec<&Hidden>, Vec<&Hidden>) = plan(workdir, hidden)
        .into_iter()
        .partition(|h| h.path().starts_with(workdir));
    let scratch: Vec<PathBuf> = SCRATCH.iter().map(PathBuf::from).collect();
    let outer_dirs: Vec<&Path> = outer
        .iter()
        .filter_map(|h| match h {
            Hidden::Dir(d) => Some(d.as_path()),
            Hidden::File(_) => None,
        })
        .chain(scratch.iter().map(PathBuf::as_path))
        .collect();
    // The directory of the program (and of files named on the command line) stays readable
    // when it lies in the private /tmp or /run: a script imports its neighbours (a Python
    // bot's helper module). Bound before the hidden directories so those stay masked inside.
    let mut bound_dirs: Vec<&Path> = Vec::new();
    for file in needed {
        let Some(dir) = file.parent() else { continue };
        let in_scratch = SCRATCH
            .iter()
            .any(|s| dir.starts_with(s) && dir != Path::new(s));
        let in_hidden = outer
            .iter()
            .any(|h| matches!(h, Hidden::Dir(d) if file.starts_with(d)));
        if in_scratch && !in_hidden && !file.starts_with(workdir) && !bound_dirs.contains(&dir) {
            push(
                &mut out,
                &["--ro-bind".as_ref(), dir.as_os_str(), dir.as_os_str()],
            );
            bound_dirs.push(dir);
        }
    }
    mount_hidden(&mut out, &outer);
    for file in needed {
        if !file.starts_with(workdir) && outer_dirs.iter().any(|d| file.starts_with(d)) {
            push(
                &mut out,
                &["--ro-bind".as_ref(), file.as_os_str(), file.as_os_str()],
            );
        }
    }
    push(
        &mut out,
        &["--bind".as_ref(), workdir.as_os_str(), workdir.as_os_str()],
    );
    mount_hidden(&mut out, &inner);
    for file in needed {
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
    for arg in ["--proc", "/proc", "--dev", "/dev", "--chdir"] {
        out.push(arg.into());
    }
    out.push(workdir.into());
    out.push("--".into());
    out.push(program.into());
    out.extend(args.iter().map(OsString::from));
    out
}

/// Whether `path` (canonical) is out of sight in the sandbox before the workdir is bound:
/// inside `/tmp`, `/run`, a hidden directory, or a hidden file itself.
pub(crate) fn under_hidden(path: &Path, hidden: &[Hidden]) -> bool {
    SCRATCH.iter().any(|s| path.starts_with(s))
        || hidden.iter().any(|h| match h {
            Hidden::Dir(d) => path.starts_with(d),
            Hidden::File(f) => path == f,
        })
}

/// The hidden paths worth mounting, in a stable order: not `/`, not the workdir itself
/// (nor a directory inside which the workdir is the only thing hidden), no duplicates, and
/// none already covered by another hidden directory (or by `/tmp`, `/run`) on the same side
/// of the workdir bind.
fn plan<'a>(workdir: &Path, hidden: &'a [Hidden]) -> Vec<&'a Hidden> {
    let inside = |p: &Path| p.starts_with(workdir);
    let mut kept: Vec<&Hidden> = Vec::new();
    for h in hidden {
        let path = h.path();
        if path == Path::new("/") || path == workdir || !path.is_absolute() {
            continue;
        }
        let covered = SCRATCH.iter().any(|s| path.starts_with(s) && !inside(path))
            || hidden.iter().any(|other| {
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

fn push(out: &mut Vec<OsString>, parts: &[&std::ffi::OsStr]) {
    out.extend(parts.iter().map(|p| p.to_os_string()));
}

/// Checks that `bwrap` is installed and can create the namespaces and mounts we use, by
/// running `true` exactly as a bot at [`SandboxLevel::Bwrap`] would run (inside a hidden
/// directory). `Err` says why it can't be used.
///
/// [`SandboxLevel::Bwrap`]: super::SandboxLevel::Bwrap
pub async fn probe_bwrap() -> Result<(), String> {
    let dir =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let mut spec = BotSpec::new(
        "bwrap-probe",
        vec!["true".to_string()],
        dir.path().join("work"),
        dir.path().join("stderr.log"),
    );
    spec.sandbox = SandboxLevel::Bwrap;
    // Exercise every kind of mount a bot may get: a hidden directory holding the workdir.
    let hidden = dir.path().join("hidden");
    std::fs::create_dir_all(&hidden)
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    spec.workdir = hidden.join("work");
    spec.hidden = vec![hidden];
    let bot = BotProcess::spawn(&spec).map_err(|e| e.to_string())?;
    let exit = bot.shutdown(Duration::from_secs(10)).await;
    if exit.code == Some(0) {
        Ok(())
    } else {
        let status = exit
            .status
            .map_or("no status".to_string(), |s| s.to_string());
        Err(format!(
            "bwrap failed ({status}): {}",
            exit.stderr.tail.trim()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[OsString]) -> Vec<&str> {
        args.iter().map(|a| a.to_str().unwrap()).collect()
    }

    #[test]
    fn argument_list() {
        let args = bwrap_args(
            Path::new("/srv/bots/alice"),
            &[],
            &[],
            Path::new("/usr/bin/python3"),
            &["bot.py".to_string(), "--fast".to_string()],
        );
        assert_eq!(
            strings(&args),
            [
                "--unshare-all",
                "--die-with-parent",
                "--ro-bind",
                "/",
                "/",
                "--tmpfs",
                "/tmp",
                "--tmpfs",
                "/run",
                "--bind",
                "/srv/bots/alice",
                "/srv/bots/alice",
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "--chdir",
                "/srv/bots/alice",
                "--",
                "/usr/bin/python3",
                "bot.py",
                "--fast",
            ]
        );
    }

    #[test]
    fn hidden_paths_are_mounted_before_the_workdir_and_made_read_only() {
        let args = bwrap_args(
            Path::new("/m/match/seat0"),
            &[
                Hidden::Dir("/m/match".into()),
                Hidden::Dir("/m/logs".into()),
                Hidden::File("/m/replay.jsonl".into()),
            ],
            &["/m/match/bot.py".into(), "/usr/bin/python3".into()],
            Path::new("/usr/bin/python3"),
            &["/m/match/bot.py".to_string()],
        );
        let text = strings(&args).join(" ");
        assert!(
            text.contains(
                "--tmpfs /run --tmpfs /m/match --tmpfs /m/logs --ro-bind /dev/null /m/replay.jsonl \
                 --ro-bind /m/match/bot.py /m/match/bot.py --bind /m/match/seat0 /m/match/seat0 \
                 --remount-ro /m/match --remount-ro /m/logs --proc"
            ),
            "{text}"
        );
    }

    #[test]
    fn nested_duplicate_and_pointless_hidden_paths_are_dropped() {
        let args = bwrap_args(
            Path::new("/w/seat0"),
            &[
                Hidden::Dir("/".into()),
                Hidden::Dir("/w/seat0".into()),
                Hidden::Dir("/w".into()),
                Hidden::Dir("/w".into()),
                Hidden::Dir("/w/logs".into()),
                Hidden::File("/w/replay".into()),
                Hidden::Dir("/tmp/arena-match-1".into()),
                Hidden::Dir("relative".into()),
            ],
            &[],
            Path::new("/bin/true"),
            &[],
        );
        let text = strings(&args).join(" ");
        assert!(
            text.contains(
                "--tmpfs /run --tmpfs /w --bind /w/seat0 /w/seat0 --remount-ro /w --proc"
            ),
            "{text}"
        );
    }

    #[test]
    fn hidden_paths_inside_the_workdir_come_after_it() {
        let args = bwrap_args(
            Path::new("/repo"),
            &[
                Hidden::Dir("/repo/out".into()),
                Hidden::Dir("/repo/out/logs".into()),
            ],
            &["/repo/out/bot".into()],
            Path::new("/repo/out/bot"),
            &[],
        );
        let text = strings(&args).join(" ");
        assert!(
            text.contains(
                "--bind /repo /repo --tmpfs /repo/out --ro-bind /repo/out/bot /repo/out/bot \
                 --remount-ro /repo/out --proc"
            ),
            "{text}"
        );
    }

    #[test]
    fn arguments_that_look_like_options_stay_after_the_separator() {
        let args = bwrap_args(
            Path::new("/w"),
            &[],
            &[],
            Path::new("/bin/sh"),
            &["--bind".to_string()],
        );
        let sep = args.iter().position(|a| a == "--").unwrap();
        assert_eq!(
            args[sep + 1..],
            [OsString::from("/bin/sh"), "--bind".into()]
        );
    }
}
