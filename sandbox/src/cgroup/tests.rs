//! Tests of per-bot cgroups on this machine (root; cgroup v1 here, the hybrid v2 too).

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};

use rustix::process::geteuid;

use super::*;

/// The detected support, or `None` after printing why these tests can't run here. Under
/// `CI` (root, cgroup v1) that is a failure instead.
fn support_or_skip(test: &str) -> Option<&'static CgroupSupport> {
    let why = if !geteuid().is_root() {
        "not root".to_string()
    } else {
        match detect() {
            Ok(s) => return Some(s),
            Err(e) => e,
        }
    };
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: cgroups unavailable under CI: {why}"
    );
    eprintln!("skipping {test}: {why}");
    None
}

fn create_or_skip(test: &str, limits: CgroupLimits) -> Option<BotCgroup> {
    let support = support_or_skip(test)?;
    match BotCgroup::create_in(support, test, &limits).expect("create") {
        Some(cg) => Some(cg),
        None => {
            assert!(
                std::env::var_os("CI").is_none(),
                "{test}: no writable cgroup under CI"
            );
            eprintln!("skipping {test}: no writable cgroup");
            None
        }
    }
}

fn spawn_in(entry: CgroupEntry, script: &str) -> Child {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: `enter` only makes write syscalls on fds the cgroup keeps open.
    unsafe { cmd.pre_exec(move || entry.enter()) };
    cmd.spawn().expect("spawn /bin/sh")
}

/// Polls `cond` every 10 ms for up to `secs`.
fn wait_until(secs: u64, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if cond() {
            return true;
        }
        sleep(Duration::from_millis(10));
    }
    cond()
}

/// `pid` is gone or a zombie (an orphan waiting for init or the subreaper).
fn dead(pid: i32) -> bool {
    match test_kill_process(Pid::from_raw(pid).unwrap()) {
        Err(Errno::SRCH) => true,
        _ => fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| {
                s.rsplit_once(')')
                    .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
            })
            .unwrap_or(true),
    }
}

#[test]
fn cgroup_sanitize_keeps_names_inside_the_directory() {
    assert_eq!(sanitize("../x/y.z"), "___x_y_z");
    assert_eq!(sanitize(""), "bot");
    assert_eq!(sanitize("chaal-bot_2"), "chaal-bot_2");
}

#[test]
fn cgroup_parses_own_paths() {
    let pc = "9:name=systemd:/\n8:pids:/a\n4:memory,foo:/process_api/x\n0::/u\n";
    assert_eq!(
        own_path(pc, |c| c.split(',').any(|c| c == "memory")).unwrap(),
        "/process_api/x"
    );
    assert_eq!(own_path(pc, |c| c.is_empty()).unwrap(), "/u");
    assert_eq!(
        join_own("/sys/fs/cgroup/pids", "/", "/a"),
        PathBuf::from("/sys/fs/cgroup/pids/a")
    );
    assert_eq!(join_own("/m", "/a", "/a/b"), PathBuf::from("/m/b"));
}

#[test]
fn cgroup_pids_limit_stops_a_fork_bomb() {
    let Some(cg) = create_or_skip(
        "pids",
        CgroupLimits {
            pids: Some(50),
            ..CgroupLimits::default()
        },
    ) else {
        return;
    };
    if cg.report().pids_max.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no pids controller under CI"
        );
        eprintln!("skipping: no pids controller");
        return;
    }
    let child = spawn_in(
        cg.entry(),
        "for i in $(seq 200); do sleep 30 >/dev/null 2>&1 & done; echo looped",
    );
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.to_lowercase().contains("fork"), "stderr: {stderr}");
    let (_, dir) = cg
        .dirs
        .iter()
        .find(|(k, _)| matches!(k, Kind::V1Pids | Kind::V2))
        .unwrap();
    let left = procs(dir);
    assert!(
        left.len() <= 50 && left.len() >= 10,
        "{} processes",
        left.len()
    );
    assert!(cg.usage().pids_limit_hit);
    let paths = cg.paths();
    cg.kill_all();
    assert!(left.iter().all(|&p| dead(p)));
    drop(cg);
    assert!(paths.iter().all(|p| !p.exists()), "{paths:?}");
}

#[test]
fn cgroup_memory_limit_kills_a_hog() {
    let limit = 100 << 20;
    let Some(cg) = create_or_skip(
        "memory",
        CgroupLimits {
            memory_bytes: Some(limit),
            ..CgroupLimits::default()
        },
    ) else {
        return;
    };
    if cg.report().memory_max.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no memory controller under CI"
        );
        eprintln!("skipping: no memory controller");
        return;
    }
    // tail keeps the whole (newline-free) last line: 400 MB unless the limit stops it.
    let out = spawn_in(cg.entry(), "head -c 400M /dev/zero | tail")
        .wait_with_output()
        .unwrap();
    assert!(!out.status.success(), "{:?}", out.status);
    let usage = cg.usage();
    assert!(usage.memory_limit_hit, "{usage:?}");
    let peak = usage.memory_peak_bytes.unwrap();
    assert!(peak <= limit + (1 << 20), "peak {peak}");
    assert!(peak >= limit / 2, "peak {peak}");
}

/// The directory of `kind` in `cg`.
fn dir_of(cg: &BotCgroup, kind: Kind) -> Option<&Path> {
    cg.dirs
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, d)| d.as_path())
}

/// A cgroup with CPU limits, or `None` (skipped) where this machine has no `cpu` controller.
fn cpu_cgroup_or_skip(test: &str, limits: CgroupLimits) -> Option<BotCgroup> {
    let cg = create_or_skip(test, limits)?;
    if !cg.report().cpu_equal_share {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: no cpu controller under CI: {:?}",
            cg.report()
        );
        eprintln!("skipping {test}: no cpu controller");
        return None;
    }
    Some(cg)
}

#[test]
fn cgroup_detects_cpu_and_cpuacct_separate_or_co_mounted() {
    let root = tempfile::tempdir().unwrap();
    let at = |name: &str| {
        let dir = root.path().join(name);
        fs::create_dir_all(dir.join("own")).unwrap();
        dir.display().to_string()
    };
    let (cpu, acct, both, pids) = (at("cpu"), at("cpuacct"), at("both"), at("pids"));
    let line = |id: u32, mount: &str, opts: &str| {
        format!("{id} 1 0:{id} / {mount} rw,relatime - cgroup cgroup rw,{opts}\n")
    };
    // This machine's layout: separate hierarchies (and a `cpuset` that must not count).
    let separate = [
        line(32, &cpu, "cpu"),
        line(33, &acct, "cpuacct"),
        line(34, "/nonexistent", "cpuset"),
        line(39, &pids, "pids"),
    ]
    .concat();
    let cgroup = "8:pids:/own\n3:cpuset:/\n2:cpuacct:/own\n1:cpu:/own\n0::/\n";
    let CgroupSupport::V1 {
        cpu: c, cpuacct: a, ..
    } = support_from(cgroup, &separate).unwrap()
    else {
        panic!("v1 expected");
    };
    assert_eq!(c, Some(PathBuf::from(&cpu).join("own")));
    assert_eq!(a, Some(PathBuf::from(&acct).join("own")));
    // Co-mounted: one directory for both, made once.
    let together = [line(32, &both, "cpu,cpuacct"), line(39, &pids, "pids")].concat();
    let cgroup = "8:pids:/own\n2:cpu,cpuacct:/own\n0::/\n";
    let support = support_from(cgroup, &together).unwrap();
    let CgroupSupport::V1 {
        cpu: c, cpuacct: a, ..
    } = &support
    else {
        panic!("v1 expected");
    };
    assert_eq!(c.as_deref(), Some(Path::new(&both).join("own").as_path()));
    assert_eq!(*a, None);
    assert_eq!(support.bases().len(), 2);
    // A cpu hierarchy alone is enough for v1.
    let cgroup = "1:cpu:/own\n";
    assert!(matches!(
        support_from(cgroup, &line(32, &cpu, "cpu")),
        Ok(CgroupSupport::V1 { cpu: Some(_), .. })
    ));
}

#[test]
fn cgroup_without_cpu_limits_has_no_cpu_directories() {
    let Some(cg) = create_or_skip("no-cpu", CgroupLimits::default()) else {
        return;
    };
    assert!(dir_of(&cg, Kind::V1Cpu).is_none());
    assert!(dir_of(&cg, Kind::V1Cpuacct).is_none());
    let report = cg.report();
    assert_eq!(report.cpu_max_millicpus, None);
    assert!(
        !report.cpu_equal_share && !report.cpu_time_counted,
        "{report:?}"
    );
    assert!(cg.cpu_time_limit().is_none());
}

#[test]
fn cgroup_cpu_controller_gets_equal_shares_and_the_quota() {
    let limits = CgroupLimits {
        millicpus: Some(500),
        cpu_seconds: Some(30),
        ..CgroupLimits::default()
    };
    let Some(cg) = cpu_cgroup_or_skip("cpu-files", limits) else {
        return;
    };
    let report = cg.report();
    assert_eq!(report.cpu_max_millicpus, Some(500), "{report:?}");
    assert!(report.cpu_time_counted, "{report:?}");
    assert_eq!(
        planned(&limits).map(|p| p.cpu_max_millicpus),
        Some(Some(500))
    );
    let text = |dir: &Path, file: &str| read(dir.join(file)).unwrap().trim().to_string();
    match report.version {
        CgroupVersion::V1 => {
            let cpu = dir_of(&cg, Kind::V1Cpu).expect("a cpu directory");
            assert_eq!(text(cpu, "cpu.shares"), "1024");
            assert_eq!(text(cpu, "cpu.cfs_period_us"), "10000");
            assert_eq!(text(cpu, "cpu.cfs_quota_us"), "5000");
            // Separate hierarchies (this machine) or co-mounted: the time is read somewhere.
            let acct = dir_of(&cg, Kind::V1Cpuacct).unwrap_or(cpu);
            assert!(acct.join("cpuacct.usage").exists());
        }
        CgroupVersion::V2 => {
            let dir = &cg.dirs[0].1;
            assert_eq!(text(dir, "cpu.max"), "5000 10000");
            assert_eq!(text(dir, "cpu.weight"), "100");
        }
    }
    // The smallest quota the kernel takes, 1 ms, with a longer period.
    let tiny = CgroupLimits {
        millicpus: Some(10),
        ..CgroupLimits::default()
    };
    if let Some(cg) = create_or_skip("cpu-tiny", tiny)
        && let Some(cpu) = dir_of(&cg, Kind::V1Cpu)
    {
        assert_eq!(text(cpu, "cpu.cfs_quota_us"), "1000");
        assert_eq!(text(cpu, "cpu.cfs_period_us"), "100000");
        assert_eq!(cg.report().cpu_max_millicpus, Some(10));
    }
}

#[test]
fn cgroup_cpu_quota_keeps_within_the_kernels_bounds() {
    assert_eq!(cpu_quota(1000), (10_000, 10_000));
    assert_eq!(cpu_quota(1500), (15_000, 10_000));
    assert_eq!(cpu_quota(100), (1_000, 10_000));
    assert_eq!(cpu_quota(50), (1_000, 20_000));
    assert_eq!(cpu_quota(10), (1_000, 100_000));
    assert_eq!(cpu_quota(3), (1_000, 333_334));
    assert_eq!(cpu_quota(0), (1_000, 1_000_000));
    assert_eq!(cpu_quota(1_024_000), (10_240_000, 10_000));
}

/// Two processes (one `setsid`'d) each burn 0.3 s of their own CPU time: the cgroup counts
/// both, and the handle kills what is left.
#[test]
fn cgroup_counts_the_cpu_time_of_every_process_and_kills_for_it() {
    let limits = CgroupLimits {
        cpu_seconds: Some(1),
        ..CgroupLimits::default()
    };
    let Some(cg) = cpu_cgroup_or_skip("cpu-time", limits) else {
        return;
    };
    let (handle, limit) = cg.cpu_time_limit().expect("counted and limited");
    assert_eq!(limit, Duration::from_secs(1));
    let burn = "python3 -c 'import time\nwhile time.process_time() < 0.3: pass'";
    let child = spawn_in(
        cg.entry(),
        &format!("{burn} & setsid {burn} & wait; exec sleep 300"),
    );
    let dir = cg.dirs[0].1.clone();
    // Both burners done: only sh's exec'd sleep is left (the setsid one is not waited for).
    assert!(
        wait_until(60, || handle.cpu_time().unwrap_or_default()
            >= Duration::from_millis(600)
            && procs(&dir).len() == 1),
        "{:?} {:?}",
        handle.cpu_time(),
        procs(&dir)
    );
    let usage = cg.usage();
    let used = usage.cpu_time_us.expect("counted");
    assert!(used >= 600_000, "{usage:?}");
    assert!(!usage.cpu_limit_hit);
    assert!(handle.soonest_over(Duration::ZERO, limit) > Duration::ZERO);
    handle.kill_for_cpu_time();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(9));
    assert!(cg.usage().cpu_limit_hit);
    let paths = cg.paths();
    drop(cg);
    assert!(paths.iter().all(|p| !p.exists()), "{paths:?}");
    // The handle outlives its cgroup harmlessly.
    assert_eq!(handle.cpu_time(), None);
    handle.kill_for_cpu_time();
}

/// Double-forked, `setsid`'d grandchild; returns the pids seen in the cgroup.
fn check_kill_all(cg: BotCgroup) {
    let mut child = spawn_in(
        cg.entry(),
        "(setsid sleep 300 >/dev/null 2>&1 &); exec sleep 300",
    );
    let dir = cg.dirs[0].1.clone();
    // sh execs into sleep; the subshell exits after starting setsid's sleep: 2 left.
    assert!(
        wait_until(5, || procs(&dir).len() == 2),
        "{:?}",
        procs(&dir)
    );
    let pids = procs(&dir);
    let paths = cg.paths();
    let start = Instant::now();
    cg.kill_all();
    eprintln!("kill_all took {:?}", start.elapsed());
    assert_eq!(child.wait().unwrap().signal(), Some(9));
    assert!(wait_until(2, || pids.iter().all(|&p| dead(p))), "{pids:?}");
    assert!(procs(&dir).is_empty());
    drop(cg);
    assert!(paths.iter().all(|p| !p.exists()), "{paths:?}");
}

#[test]
fn cgroup_kill_all_gets_setsid_grandchildren() {
    if let Some(cg) = create_or_skip("kill", CgroupLimits::default()) {
        check_kill_all(cg);
    }
}

#[test]
fn cgroup_v2_kill_all_on_the_unified_mount() {
    let mount = Path::new("/sys/fs/cgroup/unified");
    let is_v2 = read("/proc/self/mountinfo").is_ok_and(|m| {
        m.lines()
            .any(|l| l.contains(" /sys/fs/cgroup/unified ") && l.contains(" - cgroup2 "))
    });
    if !is_v2 || !geteuid().is_root() {
        // CI is a hybrid v1 machine like this one, with cgroup2 at .../unified.
        assert!(
            std::env::var_os("CI").is_none(),
            "no cgroup2 at {} under CI",
            mount.display()
        );
        eprintln!("skipping: no cgroup2 at {} or not root", mount.display());
        return;
    }
    let support = CgroupSupport::v2_at(mount).unwrap();
    let limits = CgroupLimits {
        pids: Some(20),
        memory_bytes: Some(64 << 20),
        millicpus: Some(1500),
        cpu_seconds: Some(60),
    };
    let cg = BotCgroup::create_in(&support, "v2", &limits)
        .unwrap()
        .expect("v2 cgroup");
    let report = cg.report();
    assert_eq!(report.version, CgroupVersion::V2);
    let CgroupSupport::V2 {
        pids, memory, cpu, ..
    } = support
    else {
        unreachable!()
    };
    assert_eq!(report.pids_max.is_some(), pids, "{report:?}");
    assert_eq!(report.memory_max.is_some(), memory, "{report:?}");
    assert_eq!(report.cpu_max_millicpus.is_some(), cpu, "{report:?}");
    assert_eq!(report.cpu_equal_share, cpu, "{report:?}");
    // cpu.stat is a core file: CPU time is counted without the controller.
    assert!(report.cpu_time_counted, "{report:?}");
    let dir = &cg.dirs[0].1;
    if cpu {
        assert_eq!(read(dir.join("cpu.max")).unwrap().trim(), "15000 10000");
        assert_eq!(read(dir.join("cpu.weight")).unwrap().trim(), "100");
    }
    assert!(cg.usage().cpu_time_us.is_some());
    check_kill_all(cg);
}

#[test]
fn cgroup_reap_stale_removes_dead_arenas() {
    let Some(support) = support_or_skip("reap_stale") else {
        return;
    };
    let mut done = Command::new("/bin/true").spawn().unwrap();
    let dead_pid = done.id();
    done.wait().unwrap();
    let parents: Vec<PathBuf> = support
        .bases()
        .iter()
        .map(|b| b.join(parent_name(dead_pid as i32)))
        .collect();
    let mut fds = Vec::new();
    for parent in &parents {
        fs::create_dir_all(parent.join("bot-0")).unwrap();
        let f = OpenOptions::new()
            .write(true)
            .open(parent.join("bot-0/cgroup.procs"))
            .unwrap();
        fds.push(OwnedFd::from(f));
    }
    let mut entry = CgroupEntry {
        fds: [-1; MAX_DIRS],
        len: 0,
    };
    for (slot, fd) in entry.fds.iter_mut().zip(&fds) {
        *slot = fd.as_raw_fd();
        entry.len += 1;
    }
    let mut child = spawn_in(
        entry,
        "(setsid sleep 300 >/dev/null 2>&1 &); exec sleep 300",
    );
    drop(fds);
    let bot = parents[0].join("bot-0");
    // Any arena that starts meanwhile (other tests run them in parallel) reaps these cgroups
    // too, as its own start-up does: then they are gone before this test looks, and what is
    // checked below must hold all the same (only the orphan's pid is unknown).
    assert!(
        wait_until(5, || procs(&bot).len() == 2 || !bot.exists()),
        "{:?}",
        procs(&bot)
    );
    let pids = procs(&bot);
    // Reap the direct child concurrently, as the arena's reaper would.
    let waiter = std::thread::spawn(move || child.wait().unwrap());
    reap_stale();
    assert_eq!(waiter.join().unwrap().signal(), Some(9));
    assert!(wait_until(2, || pids.iter().all(|&p| dead(p))), "{pids:?}");
    assert!(parents.iter().all(|p| !p.exists()), "{parents:?}");
}

/// Not an assertion: prints what one bot's cgroup costs (run with --nocapture).
#[test]
fn cgroup_measure_create_join_kill_remove() {
    if support_or_skip("measure").is_none() {
        return;
    }
    let limits = CgroupLimits {
        pids: Some(64),
        memory_bytes: Some(256 << 20),
        millicpus: Some(1000),
        cpu_seconds: Some(600),
    };
    let rounds = 20;
    let (mut create, mut spawn, mut kill, mut remove) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
    );
    for _ in 0..rounds {
        let t = Instant::now();
        let Some(cg) = BotCgroup::create("measure", &limits).unwrap() else {
            return;
        };
        create += t.elapsed();
        let t = Instant::now();
        let mut child = spawn_in(cg.entry(), "exec sleep 30");
        spawn += t.elapsed();
        let t = Instant::now();
        cg.kill_all();
        kill += t.elapsed();
        child.wait().unwrap();
        let t = Instant::now();
        drop(cg);
        remove += t.elapsed();
    }
    let n = rounds as u32;
    eprintln!(
        "per bot: create {:?}, spawn+join {:?}, kill_all {:?}, remove {:?}",
        create / n,
        spawn / n,
        kill / n,
        remove / n
    );
}
