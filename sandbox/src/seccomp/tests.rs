//! Real runs under bwrap with the filter installed (root, as here and in CI): runtimes still
//! work, and the denied calls fail with the policy's errno.

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, BorrowedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

use super::*;

/// Runs `argv` in bwrap, with `filter` (if any) installed by `--seccomp`.
fn sandboxed_with(filter: Option<File>, argv: &[&str]) -> Output {
    let mut cmd = Command::new("bwrap");
    cmd.args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"])
        .args(["--unshare-all", "--die-with-parent", "--cap-drop", "ALL"]);
    if let Some(file) = &filter {
        let fd = file.as_raw_fd();
        cmd.arg("--seccomp").arg(fd.to_string());
        let inherit = move || {
            // SAFETY: `fd` stays open in the parent until `output()` returns, so it is open
            // in the child; fcntl is async-signal-safe and changes only the child's table.
            let fd = unsafe { BorrowedFd::borrow_raw(fd) };
            rustix::io::fcntl_setfd(fd, rustix::io::FdFlags::empty())?;
            Ok(())
        };
        // SAFETY: the hook only calls fcntl (see above).
        unsafe { cmd.pre_exec(inherit) };
    }
    cmd.arg("--").args(argv).stdin(Stdio::null());
    let out = cmd.output().expect("bwrap starts");
    drop(filter);
    out
}

fn sandboxed(argv: &[&str]) -> Output {
    sandboxed_with(Some(bot_filter().expect("filter builds")), argv)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "{:?}\nstdout: {}\nstderr: {}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// The real interpreter: `python3` here is a pyenv shim, which bwrap's clean view may not run.
fn python() -> String {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 runs");
    assert_ok(&out);
    text(&out.stdout).trim().to_owned()
}

#[test]
fn the_program_is_built_once_and_handed_over_from_offset_zero() {
    let start = Instant::now();
    let fresh = compile().unwrap();
    eprintln!(
        "seccomp program: {} instructions, compiled in {:?}",
        fresh.len() / 8,
        start.elapsed()
    );
    let bytes = program().unwrap();
    assert_eq!(bytes, fresh, "the same program every time");
    assert!(!bytes.is_empty());
    assert_eq!(bytes.len() % 8, 0, "whole `struct sock_filter`s");
    let start = Instant::now();
    let mut file = bot_filter().unwrap();
    eprintln!("a bot's memfd from the cache: {:?}", start.elapsed());
    let mut read = Vec::new();
    file.read_to_end(&mut read).unwrap();
    assert_eq!(read, bytes);
    assert!(std::ptr::eq(program().unwrap(), bytes), "cached");
}

#[test]
fn true_runs() {
    assert_ok(&sandboxed(&["/bin/true"]));
}

#[test]
fn python_threads_and_a_subprocess_work() {
    let script = "import threading, subprocess\n\
                  t = threading.Thread(target=lambda: None); t.start(); t.join()\n\
                  print(subprocess.run(['/bin/true']).returncode)";
    let out = sandboxed(&[&python(), "-c", script]);
    assert_ok(&out);
    assert_eq!(text(&out.stdout), "0\n");
}

#[test]
fn node_a_worker_and_a_child_process_work() {
    let script = "require('child_process').execSync('true');\n\
                  const { Worker } = require('worker_threads');\n\
                  new Worker('require(\"worker_threads\").parentPort.postMessage(7)', { eval: true })\n\
                  .on('message', (m) => console.log('worker', m));";
    let out = sandboxed(&["node", "-e", script]);
    assert_ok(&out);
    assert_eq!(text(&out.stdout), "worker 7\n");
}

#[test]
fn java_starts() {
    let out = sandboxed(&["java", "-version"]);
    assert_ok(&out);
    assert!(
        text(&out.stderr).contains("version"),
        "{}",
        text(&out.stderr)
    );
}

/// Each call and how it ended: `ok` or the errno's name. `ptrace(PTRACE_TRACEME)` comes last:
/// where it succeeds, any later signal would stop the process for a tracer that never comes.
const PROBE: &str = r#"
import ctypes, errno, os, platform
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
L = ctypes.c_long
NR = {"x86_64": {"clone": 56, "ioctl": 16}, "aarch64": {"clone": 220, "ioctl": 29}}[platform.machine()]
def call(name, f, *args):
    ctypes.set_errno(0)
    r = f(*args)
    if r == 0 and name.startswith("clone"):
        os._exit(0)  # the child, where the clone was let through
    if r > 0 and name.startswith("clone"):
        os.waitpid(r, 0)
    e = ctypes.get_errno()
    print(name, errno.errorcode.get(e, e) if r == -1 else "ok")
call("fork", lambda: 0 if os.waitpid(os.fork() or os._exit(0), 0) else -1)
call("unshare", libc.unshare, 0x20000)
call("mount", libc.mount, b"none", b"/tmp", b"tmpfs", 0, None)
call("clone_newuser", libc.syscall, L(NR["clone"]), L(0x10000000 | 17), L(0), L(0), L(0), L(0))
call("clone3", libc.syscall, L(435), None, L(0))
call("io_uring_setup", libc.syscall, L(425), L(1), None)
call("socket_vsock", libc.socket, 40, 1, 0)
call("ioctl_tiocsti", libc.ioctl, 0, L(0x5412), b"x")
call("ioctl_tioclinux", libc.ioctl, 0, L(0x541C), b"x")
call("ioctl_tiocsti_high_bits", libc.syscall, L(NR["ioctl"]), L(0), L(0x1_0000_5412), b"x")
libc.personality.argtypes = [ctypes.c_ulong]
call("personality_query", libc.personality, 0xffffffff)
call("personality_linux32", libc.personality, 0x0008)
call("personality_default", libc.personality, 0)
call("personality_no_randomize", libc.personality, 0x0040000)
call("personality_default_high_bits", libc.personality, 0x1_0000_0000)
call("personality_no_randomize_high_bits", libc.personality, 0x1_0004_0000)
def pycall(name, f):
    try:
        f()
        print(name, "ok")
    except OSError as e:
        print(name, errno.errorcode.get(e.errno, e.errno))
shared = os.open("/etc/passwd", os.O_RDONLY)
flock = ctypes.create_string_buffer(32)  # struct flock, l_type F_RDLCK (0) at offset 0
call("flock", libc.flock, shared, 1)
call("fcntl_setlk", libc.fcntl, shared, 6, flock)
flock[0] = 1  # F_WRLCK: is there a conflicting lock?
call("fcntl_getlk", libc.fcntl, shared, 5, flock)
call("fcntl_ofd_getlk", libc.fcntl, shared, 36, flock)
call("fcntl_notify", libc.fcntl, shared, 1026, L(1))
call("inotify_init1", libc.inotify_init1, 0)
call("io_setup", libc.syscall, L(206 if platform.machine() == "x86_64" else 0), L(1), ctypes.byref(ctypes.c_ulong(0)))
call("sysinfo", libc.sysinfo, ctypes.create_string_buffer(128))
page = ctypes.create_string_buffer(8)
call("mincore", libc.mincore, ctypes.c_void_p(ctypes.addressof(page) & ~4095), L(4096), page)
pycall("fadvise_dontneed", lambda: os.posix_fadvise(shared, 0, 0, os.POSIX_FADV_DONTNEED))
call("madvise_pageout", libc.madvise, ctypes.c_void_p(ctypes.addressof(page) & ~4095), L(4096), 21)
pycall("preadv2_nowait", lambda: os.preadv(shared, [bytearray(16)], 0, os.RWF_NOWAIT))
pycall("preadv2_plain", lambda: os.preadv(shared, [bytearray(16)], 0, 0))
call("cachestat", libc.syscall, L(451), L(shared), None, None, L(0))
call("mq_open", libc.mq_open, b"/arena-probe", os.O_RDONLY)
call("shmget", libc.shmget, L(0), L(4096), L(0o1000 | 0o600))
call("ptrace", libc.ptrace, 0, 0, None, None)
"#;

fn probe(filter: Option<File>) -> String {
    let out = sandboxed_with(filter, &[&python(), "-c", PROBE]);
    assert_ok(&out);
    text(&out.stdout)
}

#[test]
fn denied_calls_fail_with_the_policys_errno() {
    let expected = "\
fork ok
unshare EPERM
mount EPERM
clone_newuser EPERM
clone3 ENOSYS
io_uring_setup ENOSYS
socket_vsock EPERM
ioctl_tiocsti EPERM
ioctl_tioclinux EPERM
ioctl_tiocsti_high_bits EPERM
personality_query ok
personality_linux32 ok
personality_default ok
personality_no_randomize EPERM
personality_default_high_bits ok
personality_no_randomize_high_bits EPERM
flock ok
fcntl_setlk ok
fcntl_getlk ENOLCK
fcntl_ofd_getlk ENOLCK
fcntl_notify EPERM
inotify_init1 ENOSYS
io_setup ENOSYS
sysinfo ENOSYS
mincore ENOSYS
fadvise_dontneed ok
madvise_pageout ok
preadv2_nowait ENOTSUP
preadv2_plain ok
cachestat ENOSYS
mq_open ENOSYS
shmget ENOSYS
ptrace EPERM
";
    assert_eq!(probe(Some(bot_filter().unwrap())), expected);
}

/// The same probe without the filter: the calls the filter decides are let through or fail
/// otherwise, so the test above measures the filter and not bwrap's dropped capabilities.
#[test]
fn without_the_filter_the_probe_answers_differently() {
    let out = probe(None);
    for line in [
        "clone3 EINVAL",
        "ioctl_tiocsti ENOTTY",
        "ioctl_tiocsti_high_bits ENOTTY",
        "personality_no_randomize ok",
        "fcntl_getlk ok",
        "inotify_init1 ok",
        "io_setup ok",
        "sysinfo ok",
        "mincore ok",
        "cachestat EFAULT",
        "shmget ok",
        "ptrace ok",
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} not in\n{out}");
    }
}

/// x32 syscalls (numbers with bit 30 set) are another ABI: the process is killed (SIGSYS)
/// before the call returns anything.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_x32_abi_is_refused() {
    let script = "import ctypes\n\
                  libc = ctypes.CDLL(None)\n\
                  libc.syscall.restype = ctypes.c_long\n\
                  print('getpid', libc.syscall(ctypes.c_long(0x40000000 + 39)), flush=True)";
    let out = sandboxed(&[&python(), "-c", script]);
    assert!(!out.status.success(), "{:?}", out.status);
    assert_eq!(text(&out.stdout), "", "{}", text(&out.stderr));
    // bwrap, as the namespace's init, reports its child's death by signal as 128 + signal.
    let sigsys = rustix::process::Signal::SYS.as_raw();
    assert_eq!(
        out.status.code(),
        Some(128 + sigsys),
        "{:?}",
        out.status.signal()
    );
}
