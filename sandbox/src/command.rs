//! Turning a [`BotSpec`] into a ready-to-spawn [`tokio::process::Command`].

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::process::Command;

use super::bwrap::{BwrapPlan, Hidden, SYSTEM_DIRS, bwrap_args, under_hidden};
use super::cgroup::{BotCgroup, CgroupLimits};
use super::cpu_watch::CpuWatch;
use super::error::SpawnError;
use super::identity::{BotUid, running_as_root};
use super::limits::{self, ChildSetup};
use super::real_dirs::through_real_dirs;
use super::spec::{BotSpec, DEFAULT_PATH, SandboxLevel};
use super::stdout::StdoutFifo;

/// A command plus what the caller needs to report on it and keep alive with the bot.
pub(crate) struct Prepared {
    pub cmd: Command,
    /// The bot's program as resolved (not `bwrap`), for messages.
    pub program: String,
    /// What must live as long as the bot (its uid reservation), or until spawn returns.
    pub held: Held,
}

/// Resources of one bot that the arena holds while it runs.
#[derive(Debug, Default)]
pub(crate) struct Held {
    /// The bot's own uid, when the arena is root.
    pub uid: Option<BotUid>,
    /// The seccomp program given to bwrap; needed only until spawn returns.
    pub seccomp: Option<std::fs::File>,
    /// Kills the bot once its cgroup has used more than its CPU time limit; started once the
    /// bot runs. Before `cgroup`, so that it stops before the cgroup goes.
    pub cpu_watch: Option<CpuWatch>,
    /// The bot's cgroup: its limits, and the way to kill every descendant.
    pub cgroup: Option<BotCgroup>,
    /// Under bwrap: the FIFO that is the bot's stdout.
    pub stdout_fifo: Option<StdoutFifo>,
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
        if let Some(path) = non_executable_file(program, &path_var, &workdir) {
            return SpawnError::NotExecutable { name: name(), path };
        }
        SpawnError::ProgramNotFound {
            name: name(),
            program: program.clone(),
            detail: if Path::new(program).is_absolute() {
                " (no such file)".to_string()
            } else if program.contains('/') {
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

    let unavailable = |reason: String| SpawnError::SandboxUnavailable {
        name: name(),
        reason,
    };
    let mut held = Held::default();
    if spec.sandbox != SandboxLevel::None && running_as_root() {
        held.uid = Some(
            BotUid::allocate()
                .map_err(|e| unavailable(format!("cannot reserve a uid for the bot: {e}")))?,
        );
    }
    {
        // At `none` too, without limits: the cgroup is how every descendant is found and
        // killed, at the bot's end and by the guard if the arena dies.
        let limits = match spec.sandbox {
            SandboxLevel::None => CgroupLimits::default(),
            _ => CgroupLimits {
                pids: spec.limits.processes,
                memory_bytes: spec.limits.memory_bytes,
                millicpus: spec.limits.millicpus,
                cpu_seconds: spec.limits.cpu_seconds,
            },
        };
        held.cgroup = BotCgroup::create(&spec.name, &limits)
            .map_err(|e| unavailable(format!("cannot set up the bot's cgroup: {e}")))?;
    }
    let bot_uid = held.uid.as_ref().map(BotUid::uid);
    if let Some(uid) = bot_uid.filter(|_| !spec.private_workdir && spec.writable_workdir) {
        give_tree(&workdir, uid).map_err(|source| SpawnError::Workdir {
            name: name(),
            path: workdir.clone(),
            source,
        })?;
    }
    let mut setup = ChildSetup {
        limits: spec.limits,
        switch_to_uid: None,
        processes_of_own_uid: spec.limits.processes.filter(|_| bot_uid.is_some()),
        inherit_fd: None,
        arena_pid: std::process::id() as i32,
        seccomp: None,
    };
    let mut cmd = match spec.sandbox {
        SandboxLevel::None => {
            let mut cmd = Command::new(&resolved);
            cmd.args(args);
            cmd
        }
        SandboxLevel::Limits => {
            if let Some(uid) = bot_uid {
                check_reachable(spec, &resolved).map_err(unavailable)?;
                if spec.private_workdir {
                    give_workdir(&workdir, uid).map_err(|source| SpawnError::Workdir {
                        name: name(),
                        path: workdir.clone(),
                        source,
                    })?;
                }
            }
            setup.switch_to_uid = bot_uid;
            setup.seccomp = Some(
                super::seccomp::program()
                    .map_err(|e| unavailable(format!("cannot build the seccomp filter: {e}")))?,
            );
            let mut cmd = Command::new(&resolved);
            cmd.args(args);
            cmd
        }
        SandboxLevel::Bwrap => {
            let arena_path = std::env::var_os("PATH").unwrap_or_default();
            let bwrap = find_in_path("bwrap", &path_var)
                .or_else(|| find_in_path("bwrap", &arena_path))
                .ok_or_else(|| {
                    unavailable(
                        "`bwrap` not found on PATH (install bubblewrap, or use sandbox level \
                         `limits`)"
                            .to_string(),
                    )
                })?;
            let filter = super::seccomp::bot_filter()
                .map_err(|e| unavailable(format!("cannot build the seccomp filter: {e}")))?;
            setup.inherit_fd = Some(filter.as_raw_fd());
            held.seccomp = Some(filter);
            let fifo = StdoutFifo::create()
                .map_err(|e| unavailable(format!("cannot create the stdout FIFO: {e}")))?;
            let fifo_path = fifo.path();
            let frozen_proc = super::proc_view::write_into(fifo.dir())
                .map_err(|e| unavailable(format!("cannot write the frozen /proc files: {e}")))?;
            held.stdout_fifo = Some(fifo);
            let paths = sandbox_paths(spec, &resolved);
            let cmd_args = bwrap_args(&BwrapPlan {
                workdir: &workdir,
                private_workdir: spec.private_workdir,
                writable_workdir: spec.writable_workdir,
                hidden: &paths.hidden,
                needed: &paths.needed,
                readable: &paths.readable,
                disk_bytes: spec.limits.disk_bytes,
                switch_to_uid: bot_uid,
                seccomp_fd: setup.inherit_fd,
                stdout_fifo: Some(&fifo_path),
                frozen_proc: &frozen_proc,
                program: &paths.program,
                args: &paths.args,
            });
            let mut cmd = Command::new(bwrap);
            cmd.args(cmd_args);
            cmd
        }
    };
    // Own process group, pgid == pid: the arena can signal the bot and all it forks at once,
    // and the terminal's Ctrl-C doesn't reach bots (the arena kills them itself).
    if spec.sandbox == SandboxLevel::None {
        // The bot stays in the arena's session; without a cgroup to join it keeps the
        // `posix_spawn` fast path.
        cmd.process_group(0);
        if let Some(entry) = held.cgroup.as_ref().map(BotCgroup::entry) {
            limits::join_cgroup(&mut cmd, entry);
        }
    } else {
        // `setsid()` in a `pre_exec` hook: own session, hence own group, and no controlling
        // terminal; then the rlimits, the uid, no_new_privs and the death signal.
        limits::install(&mut cmd, setup, held.cgroup.as_ref().map(BotCgroup::entry));
    }
    cmd.env_clear()
        .envs(env)
        .current_dir(&workdir)
        .stdin(Stdio::piped())
        .stdout(if held.stdout_fifo.is_some() {
            Stdio::null()
        } else {
            Stdio::piped()
        })
        .stderr(Stdio::piped())
        // Backstop only: kills the direct child, not its descendants (see the group guard).
        .kill_on_drop(true);
    Ok(Prepared {
        cmd,
        program: program.clone(),
        held,
    })
}

/// At the `limits` level under root the bot runs as its own uid, without a mount namespace
/// to give it its files: they must be readable by any user where they are. Says which path
/// is not, instead of letting the bot fail at startup with a bare "permission denied".
fn check_reachable(spec: &BotSpec, program: &Path) -> Result<(), String> {
    let named = spec.argv[1..]
        .iter()
        .map(Path::new)
        .filter(|p| p.is_absolute() && p.exists());
    for path in std::iter::once(program).chain(named) {
        let Ok(real) = path.canonicalize() else {
            continue;
        };
        for dir in real.ancestors().skip(1) {
            let mode = std::fs::metadata(dir).map_or(0o755, |m| m.permissions().mode());
            if mode & 0o001 == 0 {
                return Err(format!(
                    "{} is not reachable by the bot's own user: {} has mode {:o} (the bot \
                     runs as an unprivileged uid when the arena is root). Keep bots and \
                     their runtimes where any user can read them, or install bubblewrap, \
                     which binds them into the sandbox",
                    path.display(),
                    dir.display(),
                    mode & 0o7777
                ));
            }
        }
    }
    Ok(())
}

/// Makes a private working directory the bot's own (the `limits` level under root).
fn give_workdir(workdir: &Path, uid: u32) -> io::Result<()> {
    std::os::unix::fs::chown(workdir, Some(uid), Some(uid))?;
    std::fs::set_permissions(workdir, std::fs::Permissions::from_mode(0o700))
}

/// Gives a writable operator's workdir and everything in it to the process's own uid (a
/// build writes its products next to its sources, in subdirectories too). Symbolic links
/// are changed themselves, never followed.
fn give_tree(dir: &Path, uid: u32) -> io::Result<()> {
    std::os::unix::fs::lchown(dir, Some(uid), Some(uid))?;
    if std::fs::symlink_metadata(dir)?.is_dir() {
        for entry in std::fs::read_dir(dir)? {
            give_tree(&entry?.path(), uid)?;
        }
    }
    Ok(())
}

/// What bwrap needs besides the workdir.
struct SandboxPaths {
    /// The spec's hidden paths that exist, canonical, sorted into directories and files.
    hidden: Vec<Hidden>,
    /// Files the bot is given although they may be inside a hidden directory (its program,
    /// absolute paths to files among its arguments), canonical.
    needed: Vec<PathBuf>,
    /// Directories and files bound read-only besides the system's ([`readable_paths`]).
    readable: Vec<PathBuf>,
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
    // Elsewhere a path through real directories (only those are bound), but a system path
    // as written: the system's directories are there whole, their symbolic links too.
    let bound_as_written = |p: &Path| {
        SYSTEM_DIRS.iter().any(|d| p.starts_with(d))
            && !p.components().any(|c| c == std::path::Component::ParentDir)
    };
    let reachable = |p: &Path| (!bound_as_written(p)).then(|| through_real_dirs(p))?;
    let program = given(program)
        .or_else(|| reachable(program))
        .unwrap_or_else(|| program.to_path_buf());
    let args = spec.argv[1..]
        .iter()
        .map(|arg| {
            let path = Path::new(arg);
            path.is_absolute()
                .then(|| given(path).or_else(|| reachable(path)))
                .flatten()
                .and_then(|real| real.to_str().map(String::from))
                .unwrap_or_else(|| arg.clone())
        })
        .collect();
    let readable = readable_paths(spec, &program);
    SandboxPaths {
        hidden,
        needed,
        readable,
        program,
        args,
    }
}

/// What a sandboxed bot may read besides the system's directories: the root of its program's
/// installation when that is not a system directory (a `bin/` directory's parent, as in
/// `~/.pyenv/shims/python3` or `/opt/pypy/bin/pypy`, else the program's own directory, for
/// the program as named and as its symlinks resolve), the directory of every file named on
/// its command line (a script imports its neighbours; again as named and as resolved) and
/// every directory named there (a Java class path). A directory [too wide to hand over](too_wide) is never bound: then only
/// the file itself is.
fn readable_paths(spec: &BotSpec, program: &Path) -> Vec<PathBuf> {
    let system = |p: &Path| SYSTEM_DIRS.iter().any(|d| p.starts_with(d));
    let mut paths = Vec::new();
    for path in [Some(program.to_path_buf()), program.canonicalize().ok()]
        .into_iter()
        .flatten()
    {
        let Some(parent) = path.parent() else {
            continue;
        };
        let in_bin = parent
            .file_name()
            .is_some_and(|n| n == "bin" || n == "sbin" || n == "shims");
        let candidates = if in_bin {
            vec![parent.parent().unwrap_or(parent), parent]
        } else {
            vec![parent]
        };
        let candidates: Vec<PathBuf> = candidates
            .into_iter()
            .filter_map(|c| c.canonicalize().ok())
            .collect();
        if candidates.iter().any(|c| system(c)) {
            continue;
        }
        match candidates.into_iter().find(|c| !too_wide(c)) {
            Some(dir) => paths.push(dir),
            None => paths.extend(path.canonicalize().ok()),
        }
    }
    for arg in &spec.argv[1..] {
        let path = Path::new(arg);
        if !path.is_absolute() {
            continue;
        }
        let Ok(real) = path.canonicalize() else {
            continue;
        };
        if real.is_dir() {
            if !system(&real) && !too_wide(&real) {
                paths.push(real);
            }
            continue;
        }
        // The file's real directory, and the one its name is in when it is a symbolic link
        // to another directory's file (the bot is given it by that name).
        let named = through_real_dirs(path).unwrap_or_else(|| real.clone());
        for file in [real, named] {
            if system(&file) {
                continue;
            }
            match file.parent().filter(|d| !too_wide(d)) {
                Some(dir) => paths.push(dir.to_path_buf()),
                None => paths.push(file),
            }
        }
    }
    paths.sort();
    paths.dedup();
    paths
}

/// Directories shared with everything else on the machine, which a bot must not be given
/// because one of its files lies there: `/`, the temporary directories (the bot's own `/tmp`
/// would be covered too), `/run`, `/home` and every home directory in it, `/root`, the
/// arena's own `HOME`, `/mnt`, `/media`, `/srv`, `/var`. Keep a bot in a directory of its own.
fn too_wide(dir: &Path) -> bool {
    const SHARED: [&str; 11] = [
        "/", "/tmp", "/var/tmp", "/dev/shm", "/run", "/home", "/root", "/mnt", "/media", "/srv",
        "/var",
    ];
    let home = std::env::var_os("HOME").and_then(|h| Path::new(&h).canonicalize().ok());
    SHARED.iter().any(|s| dir == Path::new(s))
        || dir.parent() == Some(Path::new("/home"))
        || home.as_deref() == Some(dir)
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

/// The file that `program` names when it exists but has no execute bit (where
/// [`resolve_program`] found nothing executable).
pub(crate) fn non_executable_file(
    program: &str,
    path_var: &OsStr,
    workdir: &Path,
) -> Option<PathBuf> {
    let is_plain_file = |path: &Path| std::fs::metadata(path).is_ok_and(|m| m.is_file());
    if program.contains('/') {
        let path = workdir.join(program);
        is_plain_file(&path).then_some(path)
    } else {
        path_var
            .as_bytes()
            .split(|&b| b == b':')
            .filter(|dir| !dir.is_empty())
            .map(|dir| Path::new(OsStr::from_bytes(dir)).join(program))
            .find(|candidate| is_plain_file(candidate))
    }
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
    fn paths_through_unbound_directories_are_given_through_real_ones() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for sub in ["other", "mybot", "target/release", "v2"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        std::fs::write(root.join("mybot/bot.py"), "").unwrap();
        std::fs::write(root.join("v2/bot.py"), "").unwrap();
        std::os::unix::fs::symlink(root.join("v2/bot.py"), root.join("mybot/current.py")).unwrap();
        let program = root.join("target/release/chaal-bot");
        std::fs::write(&program, "").unwrap();
        let written = |p: &str| root.join("other/..").join(p);
        let spec = BotSpec::new(
            "b",
            vec![
                written("target/release/chaal-bot").to_str().unwrap().into(),
                written("mybot/bot.py").to_str().unwrap().into(),
                written("mybot/current.py").to_str().unwrap().into(),
                written("mybot").to_str().unwrap().into(),
                written("missing.py").to_str().unwrap().into(),
            ],
            "/w",
            "/w/log",
        );
        let plan = sandbox_paths(&spec, &written("target/release/chaal-bot"));
        assert_eq!(plan.program, program);
        assert_eq!(
            plan.args,
            [
                root.join("mybot/bot.py").to_str().unwrap(),
                root.join("mybot/current.py").to_str().unwrap(),
                root.join("mybot").to_str().unwrap(),
                written("missing.py").to_str().unwrap(),
            ]
        );
        // Bound: the directories of both the link and the file it points to.
        for bound in ["target/release", "mybot", "v2"] {
            assert!(plan.readable.contains(&root.join(bound)), "{bound}");
        }
        assert!(!plan.readable.contains(&root.join("other")));
    }

    #[test]
    fn a_bot_is_never_given_a_shared_directory_only_its_files() {
        let dir = tempfile::Builder::new()
            .prefix("arena-readable-")
            .tempdir_in("/tmp")
            .unwrap();
        let own = dir.path().canonicalize().unwrap();
        std::fs::write(own.join("bot.py"), "").unwrap();
        // A file straight in /tmp: /tmp itself would hide the private /tmp and show the
        // machine's, so only the file is given.
        let loose = tempfile::Builder::new()
            .prefix("arena-loose-")
            .suffix(".py")
            .tempfile_in("/tmp")
            .unwrap();
        let loose_path = loose.path().canonicalize().unwrap();
        let spec = BotSpec::new(
            "b",
            vec![
                "/usr/bin/python3".into(),
                own.join("bot.py").to_str().unwrap().into(),
                loose_path.to_str().unwrap().into(),
                "/tmp".into(),
                "/".into(),
            ],
            "/w",
            "/w/log",
        );
        let paths = readable_paths(&spec, Path::new("/usr/bin/python3"));
        assert_eq!(paths, {
            let mut want = vec![own.clone(), loose_path.clone()];
            want.sort();
            want
        });
        assert!(too_wide(Path::new("/home/someone")));
        assert!(too_wide(Path::new("/root")));
        assert!(!too_wide(Path::new("/root/.pyenv")));
        // A program in a directory of its own: that directory.
        let own_program = readable_paths(
            &BotSpec::new("b", vec!["/tmp/x".into()], "/w", "/w/log"),
            &own.join("bot.py"),
        );
        assert_eq!(own_program, [own]);
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
