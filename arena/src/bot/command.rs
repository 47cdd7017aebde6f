//! Turning a [`BotSpec`] into a ready-to-spawn [`tokio::process::Command`].

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::process::Command;

use super::bwrap::{Hidden, bwrap_args, under_hidden};
use super::error::SpawnError;
use super::limits;
use super::spec::{BotSpec, DEFAULT_PATH, SandboxLevel};

/// A command plus what the caller needs to report on it.
pub(crate) struct Prepared {
    pub cmd: Command,
    /// The bot's program as resolved (not `bwrap`), for messages.
    pub program: String,
}

pub(crate) fn prepare(spec: &BotSpec) -> Result<Prepared, SpawnError> {
    let name = || spec.name.clone();
    let Some((program, args)) = spec.argv.split_first() else {
        return Err(SpawnError::EmptyArgv { name: name() });
    };
    std::fs::create_dir_all(&spec.workdir).map_err(|source| SpawnError::Workdir {
        name: name(),
        path: spec.workdir.clone(),
        source,
    })?;
    // Absolute and symlink-free: bwrap needs that, and HOME should be absolute.
    let workdir = spec
        .workdir
        .canonicalize()
        .map_err(|source| SpawnError::Workdir {
            name: name(),
            path: spec.workdir.clone(),
            source,
        })?;

    let env = environment(spec, &workdir);
    let path_var = env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();

    let resolved = resolve_program(program, &path_var, &workdir).ok_or_else(|| {
        SpawnError::ProgramNotFound {
            name: name(),
            program: program.clone(),
            detail: if program.contains('/') {
                format!(
                    " (no executable file at {}; a relative path is taken from the bot's \
                     working directory)",
                    workdir.join(program).display()
                )
            } else {
                format!(" on PATH={}", path_var.to_string_lossy())
            },
        }
    })?;

    let mut cmd = match spec.sandbox {
        SandboxLevel::None | SandboxLevel::Limits => {
            let mut cmd = Command::new(&resolved);
            cmd.args(args);
            cmd
        }
        SandboxLevel::Bwrap => {
            let arena_path = std::env::var_os("PATH").unwrap_or_default();
            let bwrap = find_in_path("bwrap", &path_var)
                .or_else(|| find_in_path("bwrap", &arena_path))
                .ok_or_else(|| SpawnError::SandboxUnavailable {
                    name: name(),
                    reason: "`bwrap` not found on PATH (install bubblewrap, or use sandbox \
                             level `limits`)"
                        .to_string(),
                })?;
            let plan = sandbox_paths(spec, &resolved);
            let mut cmd = Command::new(bwrap);
            cmd.args(bwrap_args(
                &workdir,
                &plan.hidden,
                &plan.needed,
                &plan.program,
                &plan.args,
            ));
            cmd
        }
    };
    // Own process group, pgid == pid: the arena can signal the bot and all it forks at once,
    // and the terminal's Ctrl-C doesn't reach bots (the arena kills them itself).
    if spec.sandbox == SandboxLevel::None {
        // Keeps the `posix_spawn` fast path. The bot stays in the arena's session.
        cmd.process_group(0);
    } else {
        // `setsid()` in a `pre_exec` hook: own session, hence own group, and no controlling
        // terminal; then the rlimits.
        limits::install(&mut cmd, spec.limits);
    }
    cmd.env_clear()
        .envs(env)
        .current_dir(&workdir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Backstop only: kills the direct child, not its descendants (see the group guard).
        .kill_on_drop(true);
    Ok(Prepared {
        cmd,
        program: program.clone(),
    })
}

/// What bwrap needs besides the workdir.
struct SandboxPaths {
    /// The spec's hidden paths that exist, canonical, sorted into directories and files.
    hidden: Vec<Hidden>,
    /// Files the bot is given although they may be inside a hidden directory (its program,
    /// absolute paths to files among its arguments), canonical.
    needed: Vec<PathBuf>,
    /// The program and arguments to run. A path to a needed file inside a hidden directory
    /// is given in its canonical form: the way to it (`/hidden/x/../bot.py`) may not exist
    /// in the sandbox, the file itself does.
    program: PathBuf,
    args: Vec<String>,
}

fn sandbox_paths(spec: &BotSpec, program: &Path) -> SandboxPaths {
    let hidden: Vec<Hidden> = spec
        .hidden
        .iter()
        .filter_map(|path| match path.canonicalize() {
            Ok(real) if real.is_dir() => Some(Hidden::Dir(real)),
            Ok(real) => Some(Hidden::File(real)),
            Err(e) => {
                tracing::debug!(bot = %spec.name, "not hiding {}: {e}", path.display());
                None
            }
        })
        .collect();
    let real_file = |p: &Path| p.canonicalize().ok().filter(|r| r.is_file());
    let mut needed = Vec::new();
    let mut given = |p: &Path| -> Option<PathBuf> {
        let real = real_file(p)?;
        needed.push(real.clone());
        under_hidden(&real, &hidden).then_some(real)
    };
    let program = given(program).unwrap_or_else(|| program.to_path_buf());
    let args = spec.argv[1..]
        .iter()
        .map(|arg| {
            let path = Path::new(arg);
            path.is_absolute()
                .then(|| given(path))
                .flatten()
                .and_then(|real| real.to_str().map(String::from))
                .unwrap_or_else(|| arg.clone())
        })
        .collect();
    SandboxPaths {
        hidden,
        needed,
        program,
        args,
    }
}

/// The bot's complete environment: defaults, then the spec's own entries on top.
fn environment(spec: &BotSpec, workdir: &Path) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = Vec::new();
    if !spec.env.contains_key("PATH") {
        env.push(("PATH".into(), DEFAULT_PATH.into()));
    }
    if !spec.env.contains_key("HOME") {
        env.push(("HOME".into(), workdir.into()));
    }
    env.extend(spec.env.iter().map(|(k, v)| (k.into(), v.into())));
    env
}

/// Where `program` will be executed from: a path with a `/` is taken as is (relative ones
/// against the workdir), a bare name is searched in `path_var`.
fn resolve_program(program: &str, path_var: &OsStr, workdir: &Path) -> Option<PathBuf> {
    if program.contains('/') {
        let path = workdir.join(program);
        is_executable(&path).then_some(path)
    } else {
        find_in_path(program, path_var)
    }
}

/// Like `execvp`'s search: the first executable regular file named `name` in `path_var`.
/// Empty entries (meaning the current directory) are skipped on purpose.
pub(crate) fn find_in_path(name: &str, path_var: &OsStr) -> Option<PathBuf> {
    path_var
        .as_bytes()
        .split(|&b| b == b':')
        .filter(|dir| !dir.is_empty())
        .map(|dir| Path::new(OsStr::from_bytes(dir)).join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_environment_and_overrides() {
        let mut spec = BotSpec::new("b", vec!["x".into()], "/w", "/w/log");
        let env = environment(&spec, Path::new("/w"));
        assert_eq!(
            env,
            [
                (OsString::from("PATH"), OsString::from(DEFAULT_PATH)),
                ("HOME".into(), "/w".into())
            ]
        );
        spec.env.insert("PATH".into(), "/opt/bin".into());
        spec.env.insert("SEED".into(), "7".into());
        let env = environment(&spec, Path::new("/w"));
        assert_eq!(
            env,
            [
                (OsString::from("HOME"), OsString::from("/w")),
                ("PATH".into(), "/opt/bin".into()),
                ("SEED".into(), "7".into())
            ]
        );
    }

    #[test]
    fn sandbox_paths_give_files_inside_hidden_directories_by_their_real_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("out/sub")).unwrap();
        std::fs::write(root.join("out/bot.py"), "").unwrap();
        std::fs::write(root.join("elsewhere.txt"), "").unwrap();
        let roundabout = root.join("out/sub/../bot.py");
        let mut spec = BotSpec::new(
            "b",
            vec![
                "/bin/sh".into(),
                roundabout.to_str().unwrap().into(),
                root.join("elsewhere.txt").to_str().unwrap().into(),
                "--flag".into(),
                root.join("missing").to_str().unwrap().into(),
            ],
            root.join("out/work"),
            root.join("log"),
        );
        spec.hidden = vec![root.join("out"), root.join("missing")];
        let plan = sandbox_paths(&spec, Path::new("/bin/sh"));
        assert_eq!(plan.hidden, [Hidden::Dir(root.join("out"))]);
        assert_eq!(plan.program, Path::new("/bin/sh"));
        assert_eq!(
            plan.args,
            [
                root.join("out/bot.py").to_str().unwrap(),
                root.join("elsewhere.txt").to_str().unwrap(),
                "--flag",
                root.join("missing").to_str().unwrap(),
            ]
        );
        assert!(plan.needed.contains(&root.join("out/bot.py")));
        assert!(plan.needed.contains(&root.join("elsewhere.txt")));
    }

    #[test]
    fn path_search() {
        assert!(find_in_path("sh", OsStr::new("/nonexistent::/bin:/usr/bin")).is_some());
        assert_eq!(find_in_path("sh", OsStr::new("")), None);
        assert_eq!(
            resolve_program(
                "no-such-program-here",
                OsStr::new(DEFAULT_PATH),
                Path::new("/")
            ),
            None
        );
        assert_eq!(
            resolve_program("bin/sh", OsStr::new(""), Path::new("/")),
            Some(PathBuf::from("/bin/sh"))
        );
    }
}
