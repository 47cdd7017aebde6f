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

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use super::process::BotProcess;
use super::spec::{BotSpec, SandboxLevel};

/// Arguments after `bwrap` that run `program args..` in `workdir`.
///
/// Order matters: `/tmp` gets its private tmpfs before the workdir is bound, so a workdir
/// under `/tmp` stays visible and writable. Everything else, including the program, is seen
/// read-only at the same path as outside; a program under `/tmp` outside the workdir is not
/// visible.
pub fn bwrap_args(workdir: &Path, program: &Path, args: &[String]) -> Vec<OsString> {
    let mut out: Vec<OsString> = [
        "--unshare-all",
        "--die-with-parent",
        "--ro-bind",
        "/",
        "/",
        "--tmpfs",
        "/tmp",
    ]
    .into_iter()
    .map(OsString::from)
    .collect();
    out.push("--bind".into());
    out.push(workdir.into());
    out.push(workdir.into());
    for arg in ["--proc", "/proc", "--dev", "/dev", "--chdir"] {
        out.push(arg.into());
    }
    out.push(workdir.into());
    out.push("--".into());
    out.push(program.into());
    out.extend(args.iter().map(OsString::from));
    out
}

/// Checks that `bwrap` is installed and can create the namespaces we use, by running `true`
/// exactly as a bot at [`SandboxLevel::Bwrap`] would run. `Err` says why it can't be used.
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

    #[test]
    fn argument_list() {
        let args = bwrap_args(
            Path::new("/srv/bots/alice"),
            Path::new("/usr/bin/python3"),
            &["bot.py".to_string(), "--fast".to_string()],
        );
        let args: Vec<&str> = args.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            args,
            [
                "--unshare-all",
                "--die-with-parent",
                "--ro-bind",
                "/",
                "/",
                "--tmpfs",
                "/tmp",
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
    fn arguments_that_look_like_options_stay_after_the_separator() {
        let args = bwrap_args(
            Path::new("/w"),
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
