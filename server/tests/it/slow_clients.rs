//! The `arena-server` binary under slow and idle clients: a half-sent request, a body
//! announced and never sent whole, a huge `Content-Length`, a thousand idle sockets and
//! hundreds of half-sent requests from one address. The server cuts each off within its
//! (short, for the test) timeouts or refuses it at once, and a real visitor arriving while
//! they are all held is served the leaderboard in under a second.
//!
//! The clients come from different loopback addresses (127.0.X.Y, all on `lo`), so that the
//! per-address cap sees them as the different machines they stand for.

use crate::common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::time::{Duration, Instant};

use common::binaries::{Server, start_server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The test server's limits.
const HEADER_SECONDS: u64 = 6;
const BODY_SECONDS: u64 = 4;
/// How much later than its timeout a connection may be closed on a loaded machine.
const SLACK: Duration = Duration::from_secs(15);

fn contest_file(dir: &Path, http: &str) -> std::path::PathBuf {
    let path = dir.join("contest.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"slow\"\ngame = \"classic\"\n[ladder]\nworkers = 0\n\
             [storage]\ndata_dir = \"{}\"\n[http]\n{http}",
            dir.join("data").display()
        ),
    )
    .unwrap();
    path
}

/// This test holds a few thousand sockets itself.
fn raise_own_open_files() {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let hard = limit.maximum.unwrap_or(u64::MAX);
    assert!(
        hard >= 4096,
        "the slow-client test needs a hard limit of at least 4096 open files, not {hard}"
    );
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        },
    )
    .unwrap();
}

fn loopback(a: u8, b: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, a, b))
}

async fn connect_from(source: IpAddr, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(source, 0)).unwrap();
    socket
        .connect(server)
        .await
        .unwrap_or_else(|e| panic!("connect from {source}: {e}"))
}

/// How a held connection ended: after how long (from its opening) the server closed it,
/// and what it had answered by then.
struct Ending {
    after: Duration,
    answer: String,
}

/// Reads until the server closes `stream` (EOF or reset), at most `limit`.
async fn until_closed(mut stream: TcpStream, opened: Instant, limit: Duration) -> Ending {
    let mut answer = Vec::new();
    let read = tokio::time::timeout(limit, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    assert!(
        read.is_ok(),
        "a connection was still open after {limit:?}; it had answered {answer:?}"
    );
    Ending {
        after: opened.elapsed(),
        answer,
    }
}

/// Opens a connection from `source`, sends `sent`, and watches it until the server closes
/// it (a task of its own).
async fn hold(
    source: IpAddr,
    server: SocketAddr,
    sent: &[u8],
    limit: Duration,
) -> tokio::task::JoinHandle<Ending> {
    let mut stream = connect_from(source, server).await;
    let opened = Instant::now();
    if !sent.is_empty() {
        // A refused connection may already be closed: that is for `until_closed` to see.
        let _ = stream.write_all(sent).await;
    }
    tokio::spawn(until_closed(stream, opened, limit))
}

/// A visitor's `GET path`: the status and how long the whole answer took.
async fn visit(source: IpAddr, server: SocketAddr, path: &str) -> (u16, Duration) {
    let started = Instant::now();
    let mut stream = connect_from(source, server).await;
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut answer))
        .await
        .expect("an answer within 30 s")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer);
    let status = answer
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"));
    (status, started.elapsed())
}

fn status_of(answer: &str) -> Option<u16> {
    answer.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

fn address(server: &Server) -> SocketAddr {
    server.address.parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_idle_clients_are_cut_off_and_a_visitor_is_still_served() {
    raise_own_open_files();
    let dir = tempfile::tempdir().unwrap();
    let contest = contest_file(
        dir.path(),
        &format!(
            "header_seconds = {HEADER_SECONDS}\nbody_seconds = {BODY_SECONDS}\n\
             max_connections = 3000\nmax_connections_per_address = 300\n"
        ),
    );
    let server = start_server(&contest);
    let at = address(&server);
    let header = Duration::from_secs(HEADER_SECONDS);
    let body = Duration::from_secs(BODY_SECONDS);
    let limit = header + SLACK;
    let started = Instant::now();

    // A thousand idle sockets, from four addresses.
    let mut idle = Vec::new();
    for i in 0..1000 {
        idle.push(hold(loopback(1, 1 + (i % 4) as u8), at, b"", limit).await);
    }
    // Four hundred half-sent requests from one address: 300 are held, the rest refused.
    let mut half_sent = Vec::new();
    for _ in 0..400 {
        half_sent.push(hold(loopback(2, 1), at, b"GET / HTTP/1.1\r\nHost: x\r\n", limit).await);
    }
    // A login announcing 1,000 bytes and sending 10.
    let short_body = hold(
        loopback(3, 1),
        at,
        b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n\
          Content-Length: 1000\r\n\r\nname=a&pas",
        limit,
    )
    .await;
    // Bodies of 100 GB announced and never sent: refused at once, by every route (a page
    // that reads no body too: its connection could not be reused).
    let huge = |method: &str, path: &str| {
        format!("{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000000\r\n\r\n")
    };
    let huge_login = hold(loopback(3, 2), at, huge("POST", "/login").as_bytes(), limit).await;
    let huge_upload = hold(
        loopback(3, 3),
        at,
        huge("POST", "/api/bots/mybot/versions").as_bytes(),
        limit,
    )
    .await;
    let huge_get = hold(loopback(3, 4), at, huge("GET", "/").as_bytes(), limit).await;
    let all_open = started.elapsed();

    // A real visitor, while all of that is held: served at once, every time.
    for i in 0..5 {
        let (status, took) = visit(loopback(4, 1 + i), at, "/leaderboard").await;
        assert_eq!(status, 200);
        assert!(
            took < Duration::from_secs(1),
            "the leaderboard took {took:?} with {} connections held",
            1300
        );
    }
    let visited = started.elapsed();

    let huge_login = huge_login.await.unwrap();
    assert_eq!(
        status_of(&huge_login.answer),
        Some(413),
        "{}",
        huge_login.answer
    );
    assert!(
        huge_login.answer.contains("accepts at most"),
        "{}",
        huge_login.answer
    );
    assert!(
        huge_login.after < Duration::from_secs(3),
        "{:?}",
        huge_login.after
    );
    let huge_upload = huge_upload.await.unwrap();
    assert_eq!(
        status_of(&huge_upload.answer),
        Some(413),
        "{}",
        huge_upload.answer
    );
    assert!(
        huge_upload.after < Duration::from_secs(3),
        "{:?}",
        huge_upload.after
    );
    let huge_get = huge_get.await.unwrap();
    assert_eq!(
        status_of(&huge_get.answer),
        Some(413),
        "{}",
        huge_get.answer
    );
    assert!(
        huge_get.after < Duration::from_secs(3),
        "{:?}",
        huge_get.after
    );

    let short_body = short_body.await.unwrap();
    assert_eq!(
        status_of(&short_body.answer),
        Some(400),
        "{}",
        short_body.answer
    );
    assert!(
        short_body.answer.contains("did not arrive within 4 s"),
        "{}",
        short_body.answer
    );
    assert!(
        short_body.after >= body - Duration::from_millis(500) && short_body.after < body + SLACK,
        "the short body was cut off after {:?}",
        short_body.after
    );

    // Every idle socket was held (not refused), then closed at the header timeout.
    let mut first_closed = Duration::MAX;
    for task in idle {
        let ending = task.await.unwrap();
        assert!(
            ending.after >= header - Duration::from_millis(500),
            "an idle socket was closed after {:?}, before the {header:?} timeout: {:?}",
            ending.after,
            ending.answer
        );
        first_closed = first_closed.min(ending.after);
    }
    // The half-sent requests: the address's 300 held until the timeout, the other 100
    // answered 429 (or reset, when the request was already in the socket) at once.
    let (mut held, mut refused) = (0, 0);
    for task in half_sent {
        let ending = task.await.unwrap();
        if ending.after < Duration::from_secs(3) {
            refused += 1;
            assert!(
                ending.answer.is_empty() || status_of(&ending.answer) == Some(429),
                "{}",
                ending.answer
            );
        } else {
            assert!(ending.after >= header - Duration::from_millis(500));
            assert_eq!(
                status_of(&ending.answer).unwrap_or(408),
                408,
                "{}",
                ending.answer
            );
            held += 1;
        }
    }
    assert_eq!((held, refused), (300, 100));
    eprintln!(
        "1,300 connections opened in {all_open:?}; visitor served by {visited:?}; \
         the first held socket closed after {first_closed:?}"
    );
    assert!(
        visited < first_closed,
        "the visitor must be served while the sockets are held"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_total_cap_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let contest = contest_file(
        dir.path(),
        "header_seconds = 3\nmax_connections = 40\nmax_connections_per_address = 4\n",
    );
    let server = start_server(&contest);
    let at = address(&server);
    let limit = Duration::from_secs(3) + SLACK;

    // Forty idle sockets from ten addresses fill the server.
    let mut idle = Vec::new();
    for i in 0..40 {
        idle.push(hold(loopback(5, 1 + (i % 10) as u8), at, b"", limit).await);
    }
    // Whoever comes next is told at once, without being read.
    let opened = Instant::now();
    let stream = connect_from(loopback(6, 1), at).await;
    let refused = until_closed(stream, opened, Duration::from_secs(5)).await;
    assert_eq!(status_of(&refused.answer), Some(503), "{}", refused.answer);
    assert!(
        refused.answer.contains("retry-after: 5"),
        "{}",
        refused.answer
    );
    assert!(
        refused.after < Duration::from_secs(2),
        "{:?}",
        refused.after
    );

    // Once the idle ones are cut off, there is room again.
    for task in idle {
        task.await.unwrap();
    }
    let (status, took) = visit(loopback(6, 1), at, "/").await;
    assert_eq!(status, 200);
    assert!(took < Duration::from_secs(1), "{took:?}");
}
