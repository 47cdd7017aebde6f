//! Per-bot cgroups: a pids, a memory and a CPU limit for the bot *and everything it starts*,
//! its CPU time counted as a whole, and a way to kill every descendant (double-forked,
//! `setsid`'d ones included), which process groups can't do.
//!
//! Layout: `<own>/teenpatti-arena-<arena pid>/<label>-<n>`, where `<own>` is the arena's own
//! cgroup (from `/proc/self/cgroup`), never the hierarchy root. Both versions are supported,
//! detected at run time ([`detect`], cached):
//!
//! * **v1** (hybrid machines such as CI): one directory per controller, in the `pids`,
//!   `memory`, `cpu` and `cpuacct` (separate hierarchies or co-mounted as `cpu,cpuacct`) and
//!   (for killing) `freezer` hierarchies, each optional. The CPU ones only for a bot with a
//!   CPU limit: see [`CgroupLimits::wants_cpu`].
//! * **v2**: one directory; `pids.max`, `memory.max` (+ `memory.swap.max` = 0,
//!   `memory.oom.group` = 1), `cpu.max` and `cpu.weight` when those controllers can be
//!   enabled, `cpu.stat` for CPU time and `cgroup.kill`.
//!
//! Why a CPU controller: without one, every process that calls `setsid()` is its own
//! scheduler autogroup and gets as much CPU as a whole bot, so a bot with 150 spinning
//! children takes nearly every core from its opponent. In a `cpu` cgroup autogroups no longer
//! apply: the bot's processes share one weight, equal for every bot, and at most
//! [`CgroupLimits::millicpus`] of CPU time (a CFS quota), however many processes it has.
//!
//! Anything missing (not root, read-only mount, controller not available or delegated) is a
//! graceful fallback: [`BotCgroup::create`] returns `Ok(None)`, or a cgroup whose
//! [`CgroupReport`] says which limits are in force.
//!
//! The child joins between fork and exec through [`CgroupEntry::enter`] (pre-opened
//! `cgroup.procs` fds, async-signal-safe). [`BotCgroup`]'s `Drop` kills every process in it
//! and removes the directories; [`reap_stale`] cleans up after an arena that was SIGKILLed.

// Nothing outside the tests calls this module yet: the spawn path wires it in separately.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::sleep;
use std::time::{Duration, Instant};

use rustix::io::Errno;
use rustix::process::{Pid, Signal, getpid, kill_process, test_kill_process};
use serde::Serialize;

/// Prefix of the per-arena directory under the arena's own cgroup; see [`parent_name`].
const PARENT_PREFIX: &str = "teenpatti-arena-";
/// How long killing every process of a cgroup may take before giving up.
const KILL_DEADLINE: Duration = Duration::from_secs(2);
/// How long `rmdir` is retried while the kernel still counts exiting tasks.
const RMDIR_DEADLINE: Duration = Duration::from_secs(1);
/// The v2 leaf the arena moves itself into when its own cgroup must have no processes.
const ARENA_LEAF: &str = "arena";
/// The CFS period of the CPU quota: a tenth of the kernel's default. A bot over its quota
/// waits for the next period, and with 100 ms a hostile bot's spinners ran on every core for
/// the first 75 ms of each period, just when its opponent was asked (right after the hostile
/// bot answered): the opponent's 20 ms decisions took 1.7-2.1 times as long as alone, 1.2
/// times with 10 ms (BENCHMARKS.md). The cost is a bandwidth timer tick every 10 ms while
/// the bot runs.
const CPU_PERIOD_US: u64 = 10_000;
/// The kernel's smallest quota (1 ms) and longest period (1 s): a fraction of a CPU too small
/// for 1 ms per [`CPU_PERIOD_US`] gets a longer period.
const CPU_MIN_QUOTA_US: u64 = 1_000;
const CPU_MAX_PERIOD_US: u64 = 1_000_000;
/// Every bot's weight: the default of each version, written anyway so that it is equal for
/// every bot whatever the hierarchy's defaults.
const CPU_SHARES_V1: u64 = 1024;
const CPU_WEIGHT_V2: u64 = 100;
/// Most directories one bot has: one per v1 hierarchy (pids, memory, freezer, cpu, cpuacct).
const MAX_DIRS: usize = 5;

/// Serialises creating a per-arena directory plus a bot directory in it against removing the
/// per-arena directory after the last bot, so neither removes what the other just made.
static PARENTS: Mutex<()> = Mutex::new(());
/// Makes bot directory names unique within the arena.
static SERIAL: AtomicU64 = AtomicU64::new(0);

/// Limits for one bot and all its descendants. `None`: no limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CgroupLimits {
    /// Processes and threads at once (`pids.max`).
    pub pids: Option<u64>,
    /// Memory including page cache and tmpfs pages the bot wrote, without swap.
    pub memory_bytes: Option<u64>,
    /// CPU bandwidth in thousandths of a CPU (1000: one CPU's worth of time per period, over
    /// every process of the bot together); the weight is the same for every bot.
    pub millicpus: Option<u64>,
    /// CPU time of the bot and all it starts, together. The kernel does not enforce it: the
    /// owner reads [`CpuTimeHandle::cpu_time`] and kills (see `cpu_watch`).
    pub cpu_seconds: Option<u64>,
}

impl CgroupLimits {
    /// Whether the bot gets CPU directories (v1): only with a CPU limit, so that a bot run
    /// without limits (the `none` level) is scheduled as it would be without a cgroup.
    pub fn wants_cpu(&self) -> bool {
        self.millicpus.is_some() || self.cpu_seconds.is_some()
    }
}

/// Which cgroup version is in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CgroupVersion {
    V1,
    V2,
}

/// What is in force for one bot (goes into `arena match --json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CgroupReport {
    pub version: CgroupVersion,
    /// The pids limit actually written, `None` when none is in force.
    pub pids_max: Option<u64>,
    /// The memory limit actually written, `None` when none is in force.
    pub memory_max: Option<u64>,
    /// The CPU quota actually written, in thousandths of a CPU; `None` when none is in force.
    pub cpu_max_millicpus: Option<u64>,
    /// The bot's CPU weight was written, the same for every bot (v1 `cpu.shares`, v2
    /// `cpu.weight`): busy bots split contended cores equally, however many processes each
    /// has.
    pub cpu_equal_share: bool,
    /// The CPU time of the whole cgroup is counted (v1 `cpuacct.usage`, v2 `cpu.stat`), so a
    /// CPU time limit applies to the bot as a whole.
    pub cpu_time_counted: bool,
}

/// Readings after (or during) a bot's run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct CgroupUsage {
    /// Peak memory of the cgroup (v1 `memory.max_usage_in_bytes`, v2 `memory.peak`).
    pub memory_peak_bytes: Option<u64>,
    /// The memory limit was reached (reclaim or OOM kill).
    pub memory_limit_hit: bool,
    /// A fork or clone failed because of the pids limit.
    pub pids_limit_hit: bool,
    /// CPU time of every process of the cgroup together, in microseconds.
    pub cpu_time_us: Option<u64>,
    /// The bot was killed for using more CPU time than its limit (see
    /// [`CpuTimeHandle::kill_for_cpu_time`]).
    pub cpu_limit_hit: bool,
}

/// Where the arena's own cgroups are, as found by [`detect`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CgroupSupport {
    /// Own directories in the v1 hierarchies that exist (at least one of pids, memory and
    /// cpu). `cpuacct` is `None` when it is co-mounted with `cpu` (the `cpu` directory has
    /// both).
    V1 {
        pids: Option<PathBuf>,
        memory: Option<PathBuf>,
        freezer: Option<PathBuf>,
        cpu: Option<PathBuf>,
        cpuacct: Option<PathBuf>,
    },
    /// The own directory in the v2 hierarchy and which of our controllers it offers.
    V2 {
        own: PathBuf,
        pids: bool,
        memory: bool,
        cpu: bool,
    },
}

/// The role of one bot directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    V1Pids,
    V1Memory,
    V1Freezer,
    /// `cpu`, possibly co-mounted with `cpuacct` (then it has `cpuacct.usage` too).
    V1Cpu,
    V1Cpuacct,
    V2,
}

/// The async-signal-safe part: raw `cgroup.procs` fds for the child to write `0` to.
///
/// Valid only while the [`BotCgroup`] it came from is alive (it owns the fds), i.e. until the
/// spawn that runs [`CgroupEntry::enter`] has returned.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CgroupEntry {
    fds: [RawFd; MAX_DIRS],
    len: usize,
}

impl CgroupEntry {
    /// Moves the calling process into the bot's cgroups. Call it in `pre_exec`: it only makes
    /// `write` syscalls (no allocation, no locks), so it is async-signal-safe.
    pub(crate) fn enter(&self) -> io::Result<()> {
        for &fd in self.fds.iter().take(self.len) {
            // SAFETY: the owning BotCgroup keeps the fd open until the spawn returns.
            let fd = unsafe { BorrowedFd::borrow_raw(fd) };
            rustix::io::write(fd, b"0")
                .map_err(|e| io::Error::from_raw_os_error(e.raw_os_error()))?;
        }
        Ok(())
    }
}

/// One bot's cgroup (one directory per v1 controller, or one v2 directory). Dropping it kills
/// every process in it and removes the directories (best effort).
#[derive(Debug)]
pub(crate) struct BotCgroup {
    dirs: Vec<(Kind, PathBuf)>,
    procs: Vec<OwnedFd>,
    report: CgroupReport,
    /// The CPU time limit of the whole cgroup, for [`BotCgroup::cpu_time_limit`].
    cpu_seconds: Option<u64>,
    /// Set when the bot was killed for its CPU time (shared with the watcher's handle).
    cpu_limit_hit: Arc<AtomicBool>,
}

impl BotCgroup {
    /// A new cgroup for a bot named `label`, with `limits`. `Ok(None)` (the reason logged with
    /// `tracing::debug`) when this machine has no usable cgroups; `Err` when a usable one
    /// failed half way (the directories made so far are removed again).
    pub(crate) fn create(label: &str, limits: &CgroupLimits) -> Result<Option<BotCgroup>, String> {
        match detect() {
            Ok(support) => BotCgroup::create_in(support, label, limits),
            Err(reason) => {
                tracing::debug!("no per-bot cgroups: {reason}");
                Ok(None)
            }
        }
    }

    /// [`BotCgroup::create`] under an explicit [`CgroupSupport`] (tests pass a v2 mount).
    pub(crate) fn create_in(
        support: &CgroupSupport,
        label: &str,
        limits: &CgroupLimits,
    ) -> Result<Option<BotCgroup>, String> {
        let name = format!(
            "{}-{}",
            sanitize(label),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        );
        let parent_name = parent_name(getpid().as_raw_nonzero().get());
        let no_cpu = &None;
        let (version, bases): (CgroupVersion, Vec<(Kind, &Path)>) = match support {
            CgroupSupport::V1 {
                pids,
                memory,
                freezer,
                cpu,
                cpuacct,
            } => {
                let (cpu, cpuacct) = if limits.wants_cpu() {
                    (cpu, cpuacct)
                } else {
                    (no_cpu, no_cpu)
                };
                (
                    CgroupVersion::V1,
                    [
                        (Kind::V1Pids, pids),
                        (Kind::V1Memory, memory),
                        (Kind::V1Freezer, freezer),
                        (Kind::V1Cpu, cpu),
                        (Kind::V1Cpuacct, cpuacct),
                    ]
                    .into_iter()
                    .filter_map(|(k, p)| p.as_deref().map(|p| (k, p)))
                    .collect(),
                )
            }
            CgroupSupport::V2 { own, .. } => (CgroupVersion::V2, vec![(Kind::V2, own.as_path())]),
        };
        let mut cg = BotCgroup {
            dirs: Vec::new(),
            procs: Vec::new(),
            report: CgroupReport {
                version,
                pids_max: None,
                memory_max: None,
                cpu_max_millicpus: None,
                cpu_equal_share: false,
                cpu_time_counted: false,
            },
            cpu_seconds: limits.cpu_seconds,
            cpu_limit_hit: Arc::new(AtomicBool::new(false)),
        };
        {
            let _guard = PARENTS.lock().unwrap_or_else(|e| e.into_inner());
            for (kind, base) in bases {
                let parent = base.join(&parent_name);
                let made_parent = match fs::create_dir(&parent) {
                    Ok(()) => true,
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => false,
                    Err(e) => {
                        tracing::debug!("cgroup {}: {e}", parent.display());
                        continue;
                    }
                };
                if let CgroupSupport::V2 {
                    own,
                    pids,
                    memory,
                    cpu,
                } = support
                    && made_parent
                {
                    enable_v2_controllers(own, &parent, *pids, *memory, *cpu);
                }
                let dir = parent.join(&name);
                if let Err(e) = fs::create_dir(&dir) {
                    tracing::debug!("cgroup {}: {e}", dir.display());
                    continue;
                }
                cg.dirs.push((kind, dir));
            }
        }
        if cg.dirs.is_empty() {
            tracing::debug!("no per-bot cgroups: no writable cgroup directory");
            return Ok(None);
        }
        // From here on a failure drops `cg`, which removes what was made.
        for (kind, dir) in &cg.dirs {
            if let (Some(n), Kind::V1Pids | Kind::V2) = (limits.pids, kind)
                && dir.join("pids.max").exists()
            {
                write_file(&dir.join("pids.max"), &n.to_string())?;
                cg.report.pids_max = Some(n);
            }
            if let Some(n) = limits.memory_bytes {
                match kind {
                    Kind::V1Memory => {
                        // memsw must stay >= the memory limit, so memory first.
                        write_file(&dir.join("memory.limit_in_bytes"), &n.to_string())?;
                        let memsw = dir.join("memory.memsw.limit_in_bytes");
                        if memsw.exists() {
                            write_file(&memsw, &n.to_string())?;
                        }
                        cg.report.memory_max = Some(n);
                    }
                    Kind::V2 if dir.join("memory.max").exists() => {
                        write_file(&dir.join("memory.max"), &n.to_string())?;
                        let swap = dir.join("memory.swap.max");
                        if swap.exists() {
                            write_file(&swap, "0")?;
                        }
                        let oom_group = dir.join("memory.oom.group");
                        if oom_group.exists() {
                            write_file(&oom_group, "1")?;
                        }
                        cg.report.memory_max = Some(n);
                    }
                    _ => {}
                }
            }
            if limits.wants_cpu() {
                limit_cpu(&mut cg.report, *kind, dir, limits.millicpus)?;
            }
        }
        for (_, dir) in &cg.dirs {
            let path = dir.join("cgroup.procs");
            let file = OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            cg.procs.push(OwnedFd::from(file));
        }
        Ok(Some(cg))
    }

    /// The fds for the child's `pre_exec` hook; see [`CgroupEntry::enter`].
    pub(crate) fn entry(&self) -> CgroupEntry {
        let mut entry = CgroupEntry {
            fds: [-1; MAX_DIRS],
            len: 0,
        };
        for (slot, fd) in entry.fds.iter_mut().zip(&self.procs) {
            *slot = fd.as_raw_fd();
            entry.len += 1;
        }
        entry
    }

    /// SIGKILLs every process in the cgroup, `setsid`'d and double-forked descendants
    /// included, and waits (up to 2 s) until none is left. Does not reap: the arena reaps its
    /// own children (and, as subreaper, adopted orphans) elsewhere.
    ///
    /// v2: `cgroup.kill`. v1: `pids.max` = 0 first (no new forks), then the freezer if mounted
    /// (freeze, SIGKILL each, thaw), then SIGKILL what `cgroup.procs` lists until it is empty.
    pub(crate) fn kill_all(&self) {
        kill_dirs(&self.dirs);
    }

    /// What a CPU time watcher needs, with the limit to hold the bot to: `None` when the bot
    /// has no CPU time limit or its CPU time is not counted here.
    pub(crate) fn cpu_time_limit(&self) -> Option<(CpuTimeHandle, Duration)> {
        let limit = Duration::from_secs(self.cpu_seconds?);
        let meter = self.cpu_meter()?;
        // Processes of the cgroup run on at most this many CPUs at once: the quota's, else
        // every CPU of the machine.
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        let max_millicpus = self
            .report
            .cpu_max_millicpus
            .map_or(cpus * 1000, |m| m.min(cpus * 1000));
        let handle = CpuTimeHandle {
            meter,
            dirs: self.dirs.clone(),
            hit: Arc::clone(&self.cpu_limit_hit),
            max_millicpus,
        };
        Some((handle, limit))
    }

    /// Where the CPU time of the whole cgroup is read.
    fn cpu_meter(&self) -> Option<CpuMeter> {
        self.dirs.iter().find_map(|(kind, dir)| match kind {
            Kind::V1Cpu | Kind::V1Cpuacct if dir.join("cpuacct.usage").exists() => {
                Some(CpuMeter::V1(dir.join("cpuacct.usage")))
            }
            Kind::V2 if dir.join("cpu.stat").exists() => Some(CpuMeter::V2(dir.join("cpu.stat"))),
            _ => None,
        })
    }

    /// Peak memory, CPU time and whether the limits were hit.
    pub(crate) fn usage(&self) -> CgroupUsage {
        let mut usage = CgroupUsage {
            cpu_time_us: self
                .cpu_meter()
                .and_then(|m| m.read())
                .map(|t| t.as_micros() as u64),
            cpu_limit_hit: self.cpu_limit_hit.load(Ordering::Relaxed),
            ..CgroupUsage::default()
        };
        for (kind, dir) in &self.dirs {
            match kind {
                Kind::V1Memory => {
                    usage.memory_peak_bytes = read_u64(&dir.join("memory.max_usage_in_bytes"));
                    usage.memory_limit_hit = read_u64(&dir.join("memory.failcnt")).unwrap_or(0) > 0
                        || read_u64(&dir.join("memory.memsw.failcnt")).unwrap_or(0) > 0
                        || read_key(&dir.join("memory.oom_control"), "oom_kill").unwrap_or(0) > 0;
                }
                Kind::V1Pids => {
                    usage.pids_limit_hit =
                        read_key(&dir.join("pids.events"), "max").unwrap_or(0) > 0;
                }
                Kind::V2 => {
                    usage.memory_peak_bytes = read_u64(&dir.join("memory.peak"));
                    let events = dir.join("memory.events");
                    usage.memory_limit_hit = read_key(&events, "max").unwrap_or(0) > 0
                        || read_key(&events, "oom_kill").unwrap_or(0) > 0;
                    usage.pids_limit_hit =
                        read_key(&dir.join("pids.events"), "max").unwrap_or(0) > 0;
                }
                Kind::V1Freezer | Kind::V1Cpu | Kind::V1Cpuacct => {}
            }
        }
        usage
    }

    /// Which limits are in force.
    #[cfg(test)]
    pub(crate) fn report(&self) -> CgroupReport {
        self.report
    }

    /// Removes the (empty) directories, retrying while the kernel still counts exiting tasks,
    /// then the per-arena directory if this was its last bot. Best effort.
    fn remove(&mut self) {
        let deadline = Instant::now() + RMDIR_DEADLINE;
        self.procs.clear();
        for (_, dir) in &self.dirs {
            if let Err(e) = rmdir_retry(dir, deadline) {
                tracing::warn!("rmdir {}: {e}", dir.display());
            }
        }
        let _guard = PARENTS.lock().unwrap_or_else(|e| e.into_inner());
        for (_, dir) in self.dirs.drain(..) {
            if let Some(parent) = dir.parent() {
                // Fails while other bots (or the v2 arena leaf) are still in it: fine.
                let _ = fs::remove_dir(parent);
            }
        }
    }

    #[cfg(test)]
    fn paths(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|(_, d)| d.clone()).collect()
    }
}

impl Drop for BotCgroup {
    fn drop(&mut self) {
        self.kill_all();
        self.remove();
    }
}

/// Writes the equal weight and the quota of `millicpus` into a CPU directory, and notes
/// whether its CPU time is counted. A quota the kernel refuses (v1: more than an
/// ancestor's, as in a container limited to less) is left out of force, not an error:
/// the ancestor's bounds the bot then, and the report says no quota is in force.
fn limit_cpu(
    report: &mut CgroupReport,
    kind: Kind,
    dir: &Path,
    millicpus: Option<u64>,
) -> Result<(), String> {
    let quota = millicpus.map(cpu_quota);
    match kind {
        Kind::V1Cpu => {
            if dir.join("cpu.shares").exists() {
                write_file(&dir.join("cpu.shares"), &CPU_SHARES_V1.to_string())?;
                report.cpu_equal_share = true;
            }
            if let Some((quota, period)) = quota
                && dir.join("cpu.cfs_quota_us").exists()
            {
                // Period first: the new directory has no quota yet, so any period is valid.
                let written = write_file(&dir.join("cpu.cfs_period_us"), &period.to_string())
                    .and_then(|()| write_file(&dir.join("cpu.cfs_quota_us"), &quota.to_string()));
                match written {
                    Ok(()) => report.cpu_max_millicpus = millicpus,
                    Err(e) => tracing::debug!("no CPU quota: {e}"),
                }
            }
            report.cpu_time_counted |= dir.join("cpuacct.usage").exists();
        }
        Kind::V1Cpuacct => {
            report.cpu_time_counted |= dir.join("cpuacct.usage").exists();
        }
        Kind::V2 => {
            if dir.join("cpu.weight").exists() {
                write_file(&dir.join("cpu.weight"), &CPU_WEIGHT_V2.to_string())?;
                report.cpu_equal_share = true;
            }
            if let Some((quota, period)) = quota
                && dir.join("cpu.max").exists()
            {
                match write_file(&dir.join("cpu.max"), &format!("{quota} {period}")) {
                    Ok(()) => report.cpu_max_millicpus = millicpus,
                    Err(e) => tracing::debug!("no CPU quota: {e}"),
                }
            }
            // Core file: there without the cpu controller too.
            report.cpu_time_counted |= dir.join("cpu.stat").exists();
        }
        Kind::V1Pids | Kind::V1Memory | Kind::V1Freezer => {}
    }
    Ok(())
}

/// The (quota, period) in microseconds for `millicpus`: [`CPU_PERIOD_US`], or a longer period
/// where the quota would be under the kernel's 1 ms.
fn cpu_quota(millicpus: u64) -> (u64, u64) {
    let millicpus = millicpus.max(1);
    let period = CPU_PERIOD_US
        .max((CPU_MIN_QUOTA_US * 1000).div_ceil(millicpus))
        .min(CPU_MAX_PERIOD_US);
    let quota = (millicpus.saturating_mul(period) / 1000).max(CPU_MIN_QUOTA_US);
    (quota, period)
}

/// The file that holds a cgroup's CPU time.
#[derive(Debug, Clone)]
enum CpuMeter {
    /// `cpuacct.usage`: nanoseconds.
    V1(PathBuf),
    /// `cpu.stat`: `usage_usec`.
    V2(PathBuf),
}

impl CpuMeter {
    fn read(&self) -> Option<Duration> {
        match self {
            CpuMeter::V1(path) => read_u64(path).map(Duration::from_nanos),
            CpuMeter::V2(path) => read_key(path, "usage_usec").map(Duration::from_micros),
        }
    }
}

/// A bot's CPU time and the means to kill it, apart from its [`BotCgroup`] so that a watcher
/// task can own it. Once the cgroup is gone it reads nothing and kills nothing.
#[derive(Debug, Clone)]
pub(crate) struct CpuTimeHandle {
    meter: CpuMeter,
    dirs: Vec<(Kind, PathBuf)>,
    hit: Arc<AtomicBool>,
    /// Most CPU time the cgroup can use per second of wall time, in thousandths.
    max_millicpus: u64,
}

impl CpuTimeHandle {
    /// CPU time of every process of the cgroup together (the exited ones included); `None`
    /// once the cgroup is gone.
    pub(crate) fn cpu_time(&self) -> Option<Duration> {
        self.meter.read()
    }

    /// The soonest the cgroup can go from `used` to beyond `limit`, at its most CPUs.
    pub(crate) fn soonest_over(&self, used: Duration, limit: Duration) -> Duration {
        let left = limit.saturating_sub(used);
        left.mul_f64(1000.0 / self.max_millicpus.max(1) as f64)
    }

    /// Kills every process of the cgroup (as [`BotCgroup::kill_all`]; blocks up to 2 s) and
    /// marks it as killed for its CPU time ([`CgroupUsage::cpu_limit_hit`]).
    pub(crate) fn kill_for_cpu_time(&self) {
        self.hit.store(true, Ordering::Relaxed);
        kill_dirs(&self.dirs);
    }
}

impl CgroupSupport {
    /// The v2 hierarchy mounted at `mount` (tests: the hybrid `/sys/fs/cgroup/unified`).
    #[cfg(test)]
    pub(crate) fn v2_at(mount: &Path) -> Result<CgroupSupport, String> {
        let own = own_path(&read("/proc/self/cgroup")?, |c| c.is_empty())
            .ok_or("no cgroup v2 entry in /proc/self/cgroup")?;
        v2_support(mount.join(own.trim_start_matches('/')))
    }

    /// The own directories, one per hierarchy used.
    fn bases(&self) -> Vec<&Path> {
        match self {
            CgroupSupport::V1 {
                pids,
                memory,
                freezer,
                cpu,
                cpuacct,
            } => [pids, memory, freezer, cpu, cpuacct]
                .into_iter()
                .filter_map(|p| p.as_deref())
                .collect(),
            CgroupSupport::V2 { own, .. } => vec![own.as_path()],
        }
    }
}

/// What a bot's cgroup on this machine would hold for `limits`: `None` without cgroups.
pub fn planned(limits: &CgroupLimits) -> Option<CgroupReport> {
    // Detection reads the hierarchy; whether the arena may write there (root, or a delegated
    // subtree) shows only by making a cgroup, once.
    static USABLE: OnceLock<bool> = OnceLock::new();
    let usable = *USABLE.get_or_init(|| {
        matches!(
            BotCgroup::create("probe", &CgroupLimits::default()),
            Ok(Some(_))
        )
    });
    if !usable {
        return None;
    }
    let (version, pids, memory, cpu, counted) = match detect().ok()? {
        CgroupSupport::V1 {
            pids,
            memory,
            cpu,
            cpuacct,
            ..
        } => {
            // Co-mounted, `cpuacct` is `None` and the `cpu` directory counts.
            let counted = cpuacct.as_ref().or(cpu.as_ref());
            (
                CgroupVersion::V1,
                pids.is_some(),
                memory.is_some(),
                cpu.is_some(),
                counted.is_some_and(|d| d.join("cpuacct.usage").exists()),
            )
        }
        CgroupSupport::V2 {
            own,
            pids,
            memory,
            cpu,
        } => (
            CgroupVersion::V2,
            *pids,
            *memory,
            *cpu,
            own.join("cpu.stat").exists(),
        ),
    };
    let wants_cpu = limits.wants_cpu();
    Some(CgroupReport {
        version,
        pids_max: limits.pids.filter(|_| pids),
        memory_max: limits.memory_bytes.filter(|_| memory),
        cpu_max_millicpus: limits.millicpus.filter(|_| cpu),
        cpu_equal_share: wants_cpu && cpu,
        cpu_time_counted: wants_cpu && counted,
    })
}

/// The arena's cgroups, detected once: v2 when its own v2 cgroup offers pids or memory, else
/// v1 when a pids, memory or cpu hierarchy is mounted, else v2 without controllers (killing
/// and counting CPU time only).
pub(crate) fn detect() -> Result<&'static CgroupSupport, String> {
    static SUPPORT: OnceLock<Result<CgroupSupport, String>> = OnceLock::new();
    SUPPORT
        .get_or_init(detect_uncached)
        .as_ref()
        .map_err(Clone::clone)
}

fn detect_uncached() -> Result<CgroupSupport, String> {
    support_from(&read("/proc/self/cgroup")?, &read("/proc/self/mountinfo")?)
}

/// [`detect`] from the texts of `/proc/self/cgroup` and `/proc/self/mountinfo`.
fn support_from(cgroup: &str, mountinfo: &str) -> Result<CgroupSupport, String> {
    let mut v1 = [None, None, None, None, None];
    let mut v2 = None;
    for line in mountinfo.lines() {
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let left: Vec<&str> = left.split(' ').collect();
        let right: Vec<&str> = right.split(' ').collect();
        let (Some(root), Some(mount), Some(fstype)) = (left.get(3), left.get(4), right.first())
        else {
            continue;
        };
        match *fstype {
            "cgroup2" if v2.is_none() => {
                if let Some(own) = own_path(cgroup, |c| c.is_empty()) {
                    v2 = Some(join_own(mount, root, &own));
                }
            }
            "cgroup" => {
                let opts = right.get(2).copied().unwrap_or("");
                let ctrls = ["pids", "memory", "freezer", "cpu", "cpuacct"];
                for (slot, ctrl) in v1.iter_mut().zip(ctrls) {
                    if slot.is_none() && opts.split(',').any(|o| o == ctrl) {
                        let own = own_path(cgroup, |c| c.split(',').any(|c| c == ctrl));
                        *slot = own
                            .map(|own| join_own(mount, root, &own))
                            .filter(|p| p.is_dir());
                    }
                }
            }
            _ => {}
        }
    }
    let v2 = v2.filter(|p| p.is_dir()).map(v2_support).transpose()?;
    if let Some(s @ CgroupSupport::V2 { pids, memory, .. }) = v2.as_ref()
        && (*pids || *memory)
    {
        return Ok(s.clone());
    }
    let [pids, memory, freezer, cpu, cpuacct] = v1;
    // Co-mounted (`cpu,cpuacct`): one directory, made once, serves both.
    let cpuacct = cpuacct.filter(|acct| cpu.as_ref() != Some(acct));
    if pids.is_some() || memory.is_some() || cpu.is_some() {
        return Ok(CgroupSupport::V1 {
            pids,
            memory,
            freezer,
            cpu,
            cpuacct,
        });
    }
    v2.ok_or_else(|| "no cgroup v2 mount and no v1 pids, memory or cpu hierarchy".to_string())
}

fn v2_support(own: PathBuf) -> Result<CgroupSupport, String> {
    let controllers = read(own.join("cgroup.controllers"))?;
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    Ok(CgroupSupport::V2 {
        pids: has("pids"),
        memory: has("memory"),
        cpu: has("cpu"),
        own,
    })
}

/// The path in `/proc/self/cgroup` of the hierarchy whose controller list satisfies `which`.
fn own_path(proc_cgroup: &str, which: impl Fn(&str) -> bool) -> Option<String> {
    proc_cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, ctrls, path) = (parts.next()?, parts.next()?, parts.next()?);
        which(ctrls).then(|| path.to_string())
    })
}

/// The own directory: the mount point plus the own path relative to the mount's root.
fn join_own(mount: &str, root: &str, own: &str) -> PathBuf {
    let rel = if root != "/" {
        own.strip_prefix(root).unwrap_or(own)
    } else {
        own
    };
    Path::new(mount).join(rel.trim_start_matches('/'))
}

/// v2: lets `parent` (just created) hand pids, memory and cpu to its children. `<own>` must
/// have them in its `subtree_control` too, which the kernel refuses while `<own>` has
/// processes (unless it is the root): then the arena moves itself into `parent/arena` first.
/// One controller at a time, so that one the kernel refuses (cpu, while a realtime process
/// is about) leaves the others in force. Failure just leaves that limit out of force.
fn enable_v2_controllers(own: &Path, parent: &Path, pids: bool, memory: bool, cpu: bool) {
    let wanted: Vec<&str> = [("pids", pids), ("memory", memory), ("cpu", cpu)]
        .into_iter()
        .filter_map(|(c, ok)| ok.then_some(c))
        .collect();
    let enable = |dir: &Path, ctrl: &str| -> io::Result<()> {
        write_file_io(&dir.join("cgroup.subtree_control"), &format!("+{ctrl}"))
    };
    let mut moved = false;
    let mut enabled = Vec::with_capacity(wanted.len());
    for ctrl in wanted {
        let mut result = enable(own, ctrl);
        if !moved
            && let Err(e) = &result
            && e.raw_os_error() == Some(Errno::BUSY.raw_os_error())
        {
            let leaf = parent.join(ARENA_LEAF);
            result = fs::create_dir(&leaf)
                .and_then(|()| write_file_io(&leaf.join("cgroup.procs"), "0"))
                .and_then(|()| enable(own, ctrl));
            moved = true;
        }
        match result {
            Ok(()) => enabled.push(ctrl),
            Err(e) => tracing::debug!(
                "cgroup v2: can't enable {ctrl} under {}: {e}",
                own.display()
            ),
        }
    }
    for ctrl in enabled {
        if let Err(e) = enable(parent, ctrl) {
            tracing::debug!("cgroup v2 {} {ctrl}: {e}", parent.display());
        }
    }
}

/// Cleans up after arenas that died without removing their cgroups (SIGKILL): every
/// `teenpatti-arena-<pid>` directory under the arena's own cgroups whose pid is not a live
/// process gets its processes killed and is removed. Call it at startup.
pub fn reap_stale() {
    if let Ok(support) = detect() {
        for base in support.bases() {
            reap_stale_in(base);
        }
    }
}

fn reap_stale_in(base: &Path) {
    let me = getpid().as_raw_nonzero().get();
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let ours = format!("{PARENT_PREFIX}{}-", pid_namespace());
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(&ours))
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        if pid == me || process_alive(pid) {
            continue;
        }
        reap_parent(&entry.path());
    }
}

/// What the guard of arena `pid` does once that arena is gone: kills every process left in
/// its cgroups and removes them.
pub fn reap_arena(pid: u32) {
    if let Ok(support) = detect() {
        for base in support.bases() {
            let parent = base.join(parent_name(pid as i32));
            if parent.is_dir() {
                reap_parent(&parent);
            }
        }
    }
}

/// Kills the processes of one arena's cgroups and removes the directories.
fn reap_parent(parent: &Path) {
    tracing::info!("removing stale cgroup {}", parent.display());
    let deadline = Instant::now() + KILL_DEADLINE;
    let children: Vec<PathBuf> = fs::read_dir(parent)
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.path().is_dir())
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    for dir in &children {
        let _ = write_file(&dir.join("pids.max"), "0");
        kill_dir(dir, deadline);
    }
    kill_dir(parent, deadline);
    let rm_deadline = Instant::now() + RMDIR_DEADLINE;
    for dir in children.iter().map(PathBuf::as_path).chain([parent]) {
        if let Err(e) = rmdir_retry(dir, rm_deadline) {
            tracing::warn!("rmdir {}: {e}", dir.display());
        }
    }
}

/// The name of the directory of arena `pid`: `teenpatti-arena-<pid namespace>-<pid>`. The
/// namespace matters: containers may share a cgroup hierarchy while their pids overlap, and
/// a pid of another namespace cannot be checked from here, so the stale sweep looks only at
/// directories of its own namespace.
pub(crate) fn parent_name(pid: i32) -> String {
    format!("{PARENT_PREFIX}{}-{pid}", pid_namespace())
}

/// This process's PID namespace, as the inode number `/proc/self/ns/pid` links to (`0` if
/// unreadable).
fn pid_namespace() -> &'static str {
    static NS: OnceLock<String> = OnceLock::new();
    NS.get_or_init(|| {
        std::fs::read_link("/proc/self/ns/pid")
            .ok()
            .and_then(|link| {
                let text = link.to_string_lossy().into_owned();
                let digits: String = text.chars().filter(char::is_ascii_digit).collect();
                (!digits.is_empty()).then_some(digits)
            })
            .unwrap_or_else(|| "0".to_string())
    })
}

/// `pid` is a live process. Any process, not only one named `arena`: a program that embeds
/// the library (the test binaries do) owns its cgroups as much as the arena does. A dead
/// arena whose pid was reused keeps its directory until that process is gone too.
fn process_alive(pid: i32) -> bool {
    let Some(p) = Pid::from_raw(pid) else {
        return false;
    };
    matches!(test_kill_process(p), Ok(()) | Err(Errno::PERM))
}

/// Kills every process of one bot's directories: `pids.max` = 0 first (no new forks), then
/// the freezer's directory (the one without a pid-reuse race), then the others.
fn kill_dirs(dirs: &[(Kind, PathBuf)]) {
    let deadline = Instant::now() + KILL_DEADLINE;
    for (kind, dir) in dirs {
        if *kind == Kind::V1Pids {
            let _ = write_file(&dir.join("pids.max"), "0");
        }
    }
    let frozen_first = dirs
        .iter()
        .filter(|(k, _)| *k == Kind::V1Freezer)
        .chain(dirs.iter().filter(|(k, _)| *k != Kind::V1Freezer));
    for (_, dir) in frozen_first {
        kill_dir(dir, deadline);
    }
}

/// Kills every process in one cgroup directory: `cgroup.kill` (v2, 5.14+) or the freezer if
/// the directory has them, then SIGKILL to what `cgroup.procs` lists until it is empty or the
/// deadline passes.
fn kill_dir(dir: &Path, deadline: Instant) {
    let kill = dir.join("cgroup.kill");
    if kill.exists() && write_file(&kill, "1").is_ok() {
        // The kernel kills, concurrent forks included; just wait for the list to drain.
    } else if dir.join("freezer.state").exists() {
        let state = dir.join("freezer.state");
        if write_file(&state, "FROZEN").is_ok() {
            while read(&state).is_ok_and(|s| s.trim() != "FROZEN") && Instant::now() < deadline {
                sleep(Duration::from_millis(1));
            }
            signal_all(dir);
            let _ = write_file(&state, "THAWED");
        }
    }
    loop {
        if signal_all(dir) == 0 || Instant::now() >= deadline {
            break;
        }
        sleep(Duration::from_millis(1));
    }
}

/// SIGKILL to every pid in `dir/cgroup.procs`; how many were listed.
fn signal_all(dir: &Path) -> usize {
    let pids = procs(dir);
    for &pid in &pids {
        if let Some(p) = Pid::from_raw(pid) {
            let _ = kill_process(p, Signal::KILL);
        }
    }
    pids.len()
}

fn procs(dir: &Path) -> Vec<i32> {
    read(dir.join("cgroup.procs"))
        .map(|s| s.lines().filter_map(|l| l.trim().parse().ok()).collect())
        .unwrap_or_default()
}

fn rmdir_retry(dir: &Path, deadline: Instant) -> io::Result<()> {
    loop {
        match fs::remove_dir(dir) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e)
                if e.raw_os_error() == Some(Errno::BUSY.raw_os_error())
                    && Instant::now() < deadline =>
            {
                sleep(Duration::from_millis(2));
            }
            Err(e) => return Err(e),
        }
    }
}

/// Keeps `[A-Za-z0-9_-]` (max 48), so a label can't escape the directory or clash with a
/// control file.
fn sanitize(label: &str) -> String {
    let s: String = label
        .chars()
        .take(48)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() { "bot".to_string() } else { s }
}

fn read(path: impl AsRef<Path>) -> Result<String, String> {
    let path = path.as_ref();
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_u64(path: &Path) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The value of `key` in a flat-keyed file (`memory.events`, `pids.events`, ...).
fn read_key(path: &Path, key: &str) -> Option<u64> {
    fs::read_to_string(path).ok()?.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

/// One `write` of `value` into an existing control file.
fn write_file_io(path: &Path, value: &str) -> io::Result<()> {
    OpenOptions::new()
        .write(true)
        .open(path)?
        .write_all(value.as_bytes())
}

fn write_file(path: &Path, value: &str) -> Result<(), String> {
    write_file_io(path, value).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests;
