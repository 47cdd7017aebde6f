//! The server's binaries as a deployment runs them: `arena-server` and `arena-worker`
//! processes (killed when dropped) and plain HTTP/1.1 requests over a socket.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A process of ours, SIGKILLed and reaped when dropped.
pub struct Process {
    pub child: Child,
    /// Its `TMPDIR`, removed after the process is killed: a SIGKILLed server or worker cannot
    /// remove its bots' and checks' scratch directories itself, and they must not pile up in
    /// `/tmp`.
    _tmp: tempfile::TempDir,
}

#[path = "../../../arena/tests/common/process_tmpdir.rs"]
mod process_tmpdir;
use process_tmpdir::process_tmpdir;

impl Process {
    /// SIGKILL now (as a crash or the OOM killer would), and reap it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The server process and the address it listens on.
pub struct Server {
    pub process: Process,
    pub address: String,
}

/// Starts `arena-server CONTEST --listen 127.0.0.1:0 EXTRA...` and waits for its address.
pub fn start_server_with(contest: &Path, extra: &[&str]) -> Server {
    let tmp = process_tmpdir();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena-server"))
        .env("TMPDIR", tmp.path())
        .arg(contest)
        .args(["--listen", "127.0.0.1:0"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut said = String::new();
    let address = loop {
        let Some(Ok(line)) = lines.next() else {
            panic!("the server stopped before printing its address:\n{said}");
        };
        said.push_str(&line);
        said.push('\n');
        if let Some(rest) = line.split("open http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    // Kept draining (a full pipe would block the server), and shown with a failure.
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            eprintln!("server: {line}");
        }
    });
    Server {
        process: Process { child, _tmp: tmp },
        address,
    }
}

pub fn start_server(contest: &Path) -> Server {
    start_server_with(contest, &[])
}

/// Starts `arena-worker --db URL --data DATA --name NAME` (the URL through ARENA_DB_URL, as
/// the documentation advises); its stderr goes to `DATA.log`.
pub fn start_worker(db_url: &str, data: &Path, name: &str) -> Process {
    let log = std::fs::File::create(data.with_extension("log")).unwrap();
    let tmp = process_tmpdir();
    let child = Command::new(env!("CARGO_BIN_EXE_arena-worker"))
        .env("ARENA_DB_URL", db_url)
        .env("TMPDIR", tmp.path())
        .arg("--data")
        .arg(data)
        .args(["--name", name])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    Process { child, _tmp: tmp }
}

/// One HTTP/1.1 request; (status, headers, body).
pub fn request(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let status = head[9..12].parse().unwrap();
    (status, head.to_string(), body.to_string())
}

/// A multipart/form-data body with boundary `b0`: the `language` field and the `file`.
pub fn upload_body(language: &str, file_name: &str, bytes: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--b0\r\nContent-Disposition: form-data; name=\"language\"\r\n\r\n{language}\r\n\
         --b0\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(b"\r\n--b0--\r\n");
    body
}

/// An account's bearer token, signed up through the site's form as a participant would.
pub fn new_account_bearer(address: &str, name: &str) -> String {
    let origin = format!("http://{address}");
    let form = format!("name={name}&password=pass-word-1&confirm=pass-word-1");
    let (status, head, _) = request(
        address,
        "POST",
        "/register",
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Origin", &origin),
        ],
        form.as_bytes(),
    );
    assert_eq!(status, 303, "{head}");
    let json = format!(r#"{{"name":"{name}","password":"pass-word-1"}}"#);
    let (status, _, body) = request(
        address,
        "POST",
        "/api/tokens",
        &[("Content-Type", "application/json")],
        json.as_bytes(),
    );
    assert_eq!(status, 201, "{body}");
    let token: serde_json::Value = serde_json::from_str(&body).unwrap();
    format!("Bearer {}", token["token"].as_str().unwrap())
}
