//! The bubblewrap command line for [`SandboxLevel::Bwrap`](super::SandboxLevel::Bwrap).
//!
//! Process-group note: `--new-session` makes bwrap call `setsid()` for the sandboxed program,
//! which moves it out of the arena-created process group, so `kill(-pgid)` reaches only the
//! outer `bwrap` process. That is still enough, because `--unshare-all` includes
//! `--unshare-pid` and we pass `--die-with-parent`: when the outer bwrap dies, the namespace's
//! init gets SIGKILL (parent-death signal) and the kernel kills every process in the PID
//! namespace, setsid'd or not. In exchange `--new-session` detaches the bot from the arena's
//! controlling terminal, which stops `TIOCSTI` keystroke injection into the user's shell
//! (CVE-2017-5226; bwrap's manual recommends it unless seccomp filters that ioctl).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

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
        "--new-session",
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
/// under the same flags. Returns the path of `bwrap`, or why it can't be used.
pub async fn probe_bwrap() -> Result<PathBuf, String> {
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    let bwrap = super::command::find_in_path("bwrap", &path_var)
        .or_else(|| super::command::find_in_path("bwrap", super::spec::DEFAULT_PATH.as_ref()))
        .ok_or_else(|| "`bwrap` not found on PATH (install bubblewrap)".to_string())?;
    let dir = std::env::temp_dir();
    let truth = super::command::find_in_path("true", super::spec::DEFAULT_PATH.as_ref())
        .unwrap_or_else(|| PathBuf::from("/bin/true"));
    let mut cmd = tokio::process::Command::new(&bwrap);
    cmd.args(bwrap_args(&dir, &truth, &[]))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let run = cmd.output();
    match tokio::time::timeout(Duration::from_secs(10), run).await {
        Err(_) => Err(format!("`{}` did not finish within 10 s", bwrap.display())),
        Ok(Err(e)) => Err(format!("cannot run `{}`: {e}", bwrap.display())),
        Ok(Ok(out)) if out.status.success() => Ok(bwrap),
        Ok(Ok(out)) => Err(format!(
            "`{}` failed ({}): {}",
            bwrap.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
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
                "--new-session",
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
