//! What protects the bots of a match, as `arena match --json` and the summaries state it.

use serde::Serialize;

use super::cgroup::{CgroupLimits, CgroupReport, planned};
use super::identity::running_as_root;
use super::spec::{Limits, SandboxLevel};

/// The protections in force for bots at one level with one set of limits, on this machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SandboxReport {
    pub level: SandboxLevel,
    /// Other seats, the arena and the operator's files are out of the bot's sight (own mount,
    /// PID, network, IPC and UTS namespaces).
    pub isolated: bool,
    /// Each bot runs as a uid of its own (the arena runs as root), else as the arena's user.
    pub own_uid: bool,
    /// No capability, no_new_privs.
    pub unprivileged: bool,
    /// The seccomp filter is installed (`limits` and `bwrap`).
    pub seccomp: bool,
    /// The bot's cgroup, with the limits it holds; `null` without cgroups.
    pub cgroup: Option<CgroupReport>,
    /// Processes and threads of the bot together: the cgroup's, or `RLIMIT_NPROC` of its own
    /// uid; `null` when nothing bounds them.
    pub processes_max: Option<u64>,
    /// Memory of the bot and all it starts (cgroup, tmpfs included), else per process
    /// (`RLIMIT_DATA`).
    pub memory_max_bytes: Option<u64>,
    pub memory_limit_per: &'static str,
    /// Size of the private `/tmp` and workdir (bwrap); `null`: per file only.
    pub disk_max_bytes: Option<u64>,
    pub file_size_max_bytes: Option<u64>,
    pub open_files_max: Option<u64>,
    pub cpu_seconds_max: Option<u64>,
    /// `bot`: the CPU time of all the bot's processes together (its cgroup counts it), else
    /// `process` (`RLIMIT_CPU` alone).
    pub cpu_seconds_per: &'static str,
    /// CPU bandwidth of the bot and all it starts, in thousandths of a CPU (1000: one CPU's
    /// worth of time); `null` when nothing bounds it (no cgroup `cpu` controller).
    pub cpu_max_millicpus: Option<u64>,
}

impl SandboxReport {
    pub fn new(level: SandboxLevel, limits: &Limits) -> SandboxReport {
        let limited = level != SandboxLevel::None;
        let isolated = level == SandboxLevel::Bwrap;
        let own_uid = limited && running_as_root();
        let cgroup = limited
            .then(|| {
                planned(&CgroupLimits {
                    pids: limits.processes,
                    memory_bytes: limits.memory_bytes,
                    millicpus: limits.millicpus,
                    cpu_seconds: limits.cpu_seconds,
                })
            })
            .flatten();
        let cgroup_pids = cgroup.and_then(|c| c.pids_max);
        let cgroup_memory = cgroup.and_then(|c| c.memory_max);
        let on = |v: Option<u64>| v.filter(|_| limited);
        SandboxReport {
            level,
            isolated,
            own_uid,
            unprivileged: limited && (own_uid || !running_as_root()),
            seccomp: limited,
            cgroup,
            processes_max: cgroup_pids.or(limits.processes.filter(|_| own_uid)),
            memory_max_bytes: cgroup_memory.or(on(limits.memory_bytes)),
            memory_limit_per: if cgroup_memory.is_some() {
                "bot"
            } else {
                "process"
            },
            disk_max_bytes: limits.disk_bytes.filter(|_| isolated),
            file_size_max_bytes: on(limits.file_size_bytes),
            open_files_max: on(limits.open_files),
            cpu_seconds_max: on(limits.cpu_seconds),
            cpu_seconds_per: if cgroup.is_some_and(|c| c.cpu_time_counted) {
                "bot"
            } else {
                "process"
            },
            cpu_max_millicpus: cgroup.and_then(|c| c.cpu_max_millicpus),
        }
    }

    /// One line for the readable summaries.
    pub fn line(&self) -> String {
        let level = match self.level {
            SandboxLevel::None => "none",
            SandboxLevel::Limits => "limits",
            SandboxLevel::Bwrap => "bwrap",
        };
        let mut parts: Vec<String> = Vec::new();
        if self.isolated {
            parts.push("isolated".into());
        } else if self.level != SandboxLevel::None {
            parts.push("NOT isolated".into());
        } else {
            parts.push("no protection".into());
        }
        if self.own_uid {
            parts.push("own uid".into());
        }
        if self.seccomp {
            parts.push("seccomp".into());
        }
        if let Some(n) = self.processes_max {
            parts.push(format!("{n} processes"));
        }
        if let Some(bytes) = self.memory_max_bytes {
            parts.push(format!(
                "{} MiB memory per {}",
                bytes >> 20,
                self.memory_limit_per
            ));
        }
        if let Some(bytes) = self.disk_max_bytes {
            parts.push(format!("{} MiB disk", bytes >> 20));
        }
        if let Some(millicpus) = self.cpu_max_millicpus {
            let cpus = millicpus as f64 / 1000.0;
            parts.push(format!(
                "{cpus} CPU{}",
                if millicpus == 1000 { "" } else { "s" }
            ));
        }
        format!("sandbox {level}: {}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_cpu_bandwidth() {
        let mut report = SandboxReport::new(SandboxLevel::None, &Limits::default());
        report.level = SandboxLevel::Limits;
        report.cpu_max_millicpus = Some(1000);
        assert!(report.line().ends_with(", 1 CPU"), "{}", report.line());
        report.cpu_max_millicpus = Some(1500);
        assert!(report.line().ends_with(", 1.5 CPUs"), "{}", report.line());
        report.cpu_max_millicpus = None;
        assert!(!report.line().contains("CPU"), "{}", report.line());
    }
}
