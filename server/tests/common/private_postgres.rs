//! A PostgreSQL server of one test's own: `initdb` into a temporary directory, started on a
//! free loopback port, which the test may stop and start again. The shared cluster of
//! `ARENA_TEST_POSTGRES_URL` serves the other tests running at the same time: stopping it
//! would fail them. Stopped (immediately) and removed when dropped, a failed test included.
//!
//! Run as root, the server runs as the `postgres` user (it refuses root): its directory is
//! handed to that user and its commands go through `runuser`.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct PrivatePostgres {
    bin: PathBuf,
    data: PathBuf,
    port: u16,
    /// The server's own user when the test runs as root.
    user: Option<String>,
    dir: tempfile::TempDir,
}

/// The newest installed server's `bin` directory (Debian's layout, as `.ci/run` installs it).
fn binaries() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            (bin.join("initdb").is_file() && bin.join("pg_ctl").is_file()).then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn id_of(user: &str, flag: &str) -> u32 {
    let out = Command::new("id").args([flag, user]).output().unwrap();
    assert!(out.status.success(), "no user {user}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

impl PrivatePostgres {
    /// Initializes and starts one; `None`, after saying why, when no PostgreSQL server is
    /// installed here.
    pub fn start(test: &str) -> Option<PrivatePostgres> {
        let Some(bin) = binaries() else {
            eprintln!(
                "{test}: skipped: no PostgreSQL server installed (no /usr/lib/postgresql/*/bin/initdb; \
                 `apt-get install postgresql`, as .ci/run does)"
            );
            return None;
        };
        let root = rustix::process::geteuid().is_root();
        let user = root.then(|| "postgres".to_string());
        // Under root, in `/tmp` itself: the `postgres` user must cross every directory above
        // its own, which a private `TMPDIR` of root's would not let it.
        let parent = if root {
            PathBuf::from("/tmp")
        } else {
            std::env::temp_dir()
        };
        let dir = tempfile::Builder::new()
            .prefix("arena-private-pg-")
            .tempdir_in(parent)
            .unwrap();
        if let Some(user) = &user {
            std::os::unix::fs::chown(dir.path(), Some(id_of(user, "-u")), Some(id_of(user, "-g")))
                .unwrap();
        }
        let pg = PrivatePostgres {
            data: dir.path().join("data"),
            bin,
            port: free_port(),
            user,
            dir,
        };
        pg.run(
            "initdb",
            &[
                "-D".as_ref(),
                pg.data.as_os_str(),
                "-A".as_ref(),
                "trust".as_ref(),
                "-U".as_ref(),
                "postgres".as_ref(),
                "-E".as_ref(),
                "UTF8".as_ref(),
                "--no-sync".as_ref(),
            ],
        );
        pg.start_again();
        Some(pg)
    }

    /// What the test's pools connect with.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Starts the (stopped) server and waits until it takes connections.
    pub fn start_again(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60",
            self.port,
            self.dir.path().display()
        );
        self.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                self.data.as_os_str(),
                "-l".as_ref(),
                self.log().as_os_str(),
                "-w".as_ref(),
                "-t".as_ref(),
                "30".as_ref(),
                "-o".as_ref(),
                options.as_ref(),
                "start".as_ref(),
            ],
        );
    }

    /// Stops it as a crash would (`-m immediate`: no checkpoint, every connection cut at
    /// once; the next start recovers from the WAL).
    pub fn stop(&self) {
        self.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                self.data.as_os_str(),
                "-m".as_ref(),
                "immediate".as_ref(),
                "-w".as_ref(),
                "stop".as_ref(),
            ],
        );
    }

    /// The server's log, for a failure's message.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(self.log()).unwrap_or_default()
    }

    fn log(&self) -> PathBuf {
        self.dir.path().join("server.log")
    }

    fn command(&self, program: &str, args: &[&std::ffi::OsStr]) -> Command {
        let path = self.bin.join(program);
        let mut c = match &self.user {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&path);
                c
            }
            None => Command::new(&path),
        };
        c.args(args).current_dir(self.dir.path());
        c
    }

    fn run(&self, program: &str, args: &[&std::ffi::OsStr]) {
        let out = self.command(program, args).output().unwrap();
        assert!(
            out.status.success(),
            "{program} failed: {}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            self.log_text()
        );
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for PrivatePostgres {
    /// Stops the server if it runs (errors ignored: it may be stopped already), before the
    /// directory it lives in goes.
    fn drop(&mut self) {
        let _ = self
            .command(
                "pg_ctl",
                &[
                    "-D".as_ref(),
                    self.data.as_os_str(),
                    "-m".as_ref(),
                    "immediate".as_ref(),
                    "-w".as_ref(),
                    "stop".as_ref(),
                ],
            )
            .output();
    }
}
