//! Where a bot's answers are read from: its stdout pipe, or under bwrap a FIFO.
//!
//! Why a FIFO under bwrap: bwrap's own processes outside and inside the sandbox (the monitor
//! and the namespace's init) inherit the bot's stdout and keep it open for the bot's whole
//! life, so a bot that closes its stdout would never produce EOF there: the arena would wait
//! for a timeout and burn the bot's bank, where the same act is a `crashed` fault at the
//! other levels. So at the bwrap level bwrap's own stdout is `/dev/null`, and the bot's first
//! act inside the sandbox (a one-line `sh` wrapper) is to point its stdout at a FIFO that only
//! the bot holds: closing it is EOF, as with a plain pipe.

use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};
use tokio::net::unix::pipe;
use tokio::process::ChildStdout;

/// Where the FIFO appears inside the sandbox.
pub const SANDBOX_STDOUT: &str = "/run/arena/stdout";

/// The bot's stdout as the arena reads it.
#[derive(Debug)]
pub(crate) enum BotStdout {
    Pipe(ChildStdout),
    Fifo(pipe::Receiver),
}

impl AsyncRead for BotStdout {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            BotStdout::Pipe(pipe) => Pin::new(pipe).poll_read(cx, buf),
            BotStdout::Fifo(fifo) => Pin::new(fifo).poll_read(cx, buf),
        }
    }
}

/// A FIFO for one bot, in a private directory of the arena, with its read end open (so the
/// bot's open for writing does not block). The directory goes when this is dropped.
#[derive(Debug)]
pub(crate) struct StdoutFifo {
    dir: tempfile::TempDir,
    reader: Option<pipe::Receiver>,
}

impl StdoutFifo {
    /// Must be called inside a tokio runtime (the read end is registered with it).
    pub(crate) fn create() -> io::Result<StdoutFifo> {
        let dir = tempfile::Builder::new().prefix("arena-bot-").tempdir()?;
        let path = dir.path().join("stdout");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )?;
        // Writable by the bot's own uid; nobody else can reach it (the directory is 0700,
        // and inside the sandbox only this bot exists).
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o666))?;
        // Read end first, non-blocking: a FIFO reports no EOF before its first writer came.
        let reader = pipe::OpenOptions::new().open_receiver(&path)?;
        Ok(StdoutFifo {
            dir,
            reader: Some(reader),
        })
    }

    /// The FIFO's private directory (0700, removed with it): also holds the bot's frozen
    /// `/proc` files.
    pub(crate) fn dir(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.dir.path().join("stdout")
    }

    /// The read end, once.
    pub(crate) fn take_reader(&mut self) -> Option<pipe::Receiver> {
        self.reader.take()
    }
}

/// The `sh` wrapper that the sandbox runs first: stdout to the FIFO, then the bot itself
/// (`$0` is the bot's program, `$@` its arguments).
pub(crate) fn wrapper_args(program: &Path) -> Vec<std::ffi::OsString> {
    vec![
        "/bin/sh".into(),
        "-c".into(),
        format!("exec >{SANDBOX_STDOUT} || exit 127; exec \"$0\" \"$@\"").into(),
        program.into(),
    ]
}
