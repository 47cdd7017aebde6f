//! A minimal HTTP/1.1 client over one keep-alive TCP connection: enough for the bench's GETs
//! and multipart POSTs to the server it started, and cheap, so that 200 of them measure the
//! server rather than the client. Bodies must have a `Content-Length` (axum sends one for
//! every page and JSON answer of this server).

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub struct Client {
    stream: TcpStream,
    buf: Vec<u8>,
}

/// An answer: status and body.
pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
}

impl Client {
    pub async fn connect(address: SocketAddr) -> std::io::Result<Client> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        Ok(Client {
            stream,
            buf: Vec::with_capacity(64 * 1024),
        })
    }

    pub async fn get(&mut self, path: &str) -> std::io::Result<Answer> {
        let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        self.stream.write_all(request.as_bytes()).await?;
        self.read_answer().await
    }

    /// A multipart POST with a bearer token: `fields` as text parts, then `file`.
    pub async fn post_multipart(
        &mut self,
        path: &str,
        token: &str,
        fields: &[(&str, &str)],
        file: (&str, &[u8]),
    ) -> std::io::Result<Answer> {
        let boundary = "----ladder-load-bench-boundary";
        let mut body = Vec::new();
        for (name, value) in fields {
            body.extend_from_slice(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
                )
                .as_bytes(),
            );
        }
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{}\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n",
                file.0
            )
            .as_bytes(),
        );
        body.extend_from_slice(file.1);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: multipart/form-data; boundary={boundary}\r\n\
             Content-Length: {}\r\n\r\n",
            body.len()
        );
        self.stream.write_all(head.as_bytes()).await?;
        self.stream.write_all(&body).await?;
        self.read_answer().await
    }

    async fn read_answer(&mut self) -> std::io::Result<Answer> {
        let bad = |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string());
        // The head.
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            self.fill().await?;
        };
        let head = std::str::from_utf8(&self.buf[..head_end]).map_err(|_| bad("head"))?;
        let status: u16 = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("status line"))?;
        let length: usize = head
            .lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse().ok())?
            })
            .ok_or_else(|| bad("no Content-Length"))?;
        while self.buf.len() < head_end + length {
            self.fill().await?;
        }
        let body = self.buf[head_end..head_end + length].to_vec();
        self.buf.drain(..head_end + length);
        Ok(Answer { status, body })
    }

    async fn fill(&mut self) -> std::io::Result<()> {
        let mut chunk = [0u8; 32 * 1024];
        let n = self.stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(())
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
