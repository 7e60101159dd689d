//! A tiny static file server for `www/`, built on `std::net` so xtask needs
//! no dependencies. One thread per connection, GET and HEAD only, correct
//! MIME types (browsers refuse `WebAssembly.instantiateStreaming` and module
//! scripts served with the wrong one), `Cache-Control: no-store` so a rebuilt
//! module is always picked up, and no way to read outside the served folder.
//! The page is served cross-origin isolated (COOP/COEP headers; everything it
//! loads is same-origin), which gives its workers a `performance.now()` with
//! microsecond resolution instead of 0.1 ms, for the step timings.

use crate::cmd::{Error, Result};
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Longest request head we accept; real browser requests are a few hundred
/// bytes, and the cap stops a misbehaving client from growing memory.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// A bound, not yet running server.
pub struct Server {
    listener: TcpListener,
    root: Arc<PathBuf>,
    log_requests: bool,
}

/// Binds 127.0.0.1:`port` (0 picks a free port) to serve the folder `root`.
pub fn bind(root: &Path, port: u16, log_requests: bool) -> Result<Server> {
    let root = root
        .canonicalize()
        .map_err(|e| Error::new(format!("cannot serve {}: {e}", root.display())))?;
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(|e| {
        if e.kind() == ErrorKind::AddrInUse {
            Error::new(format!(
                "port {port} on 127.0.0.1 is already in use (another `cargo xtask serve`?).\n\
                 Stop that program, or pick another port: cargo xtask serve --port {}",
                port.saturating_add(1)
            ))
        } else {
            Error::new(format!("cannot listen on 127.0.0.1:{port}: {e}"))
        }
    })?;
    Ok(Server {
        listener,
        root: Arc::new(root),
        log_requests,
    })
}

impl Server {
    /// The port actually bound (the ephemeral one when 0 was asked for).
    pub fn port(&self) -> Result<u16> {
        self.listener
            .local_addr()
            .map(|addr| addr.port())
            .map_err(|e| Error::new(format!("cannot read the server's address: {e}")))
    }

    /// Serves until the process ends.
    pub fn run(self) {
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            let root = Arc::clone(&self.root);
            let log_requests = self.log_requests;
            // If the thread cannot be created the connection is dropped and
            // the browser retries; the server itself keeps going.
            let _ = std::thread::Builder::new()
                .name("xtask-http".into())
                .spawn(move || handle(stream, &root, log_requests));
        }
    }

    /// Serves from a background thread, for the browser tests.
    pub fn spawn(self) {
        std::thread::spawn(move || self.run());
    }
}

struct Response {
    status: u16,
    reason: &'static str,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Response {
    fn text(status: u16, reason: &'static str, message: &str) -> Self {
        Response {
            status,
            reason,
            content_type: "text/plain; charset=utf-8",
            body: format!("{status} {reason}: {message}\n").into_bytes(),
        }
    }
}

fn handle(mut stream: TcpStream, root: &Path, log_requests: bool) {
    // A client that connects and never sends (a browser's speculative
    // preconnect) must not hold a thread forever.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Some((method, target)) = read_request_line(&stream) else {
        return;
    };
    let response = match method.as_str() {
        "GET" | "HEAD" => respond(root, &target),
        _ => Response::text(405, "Method Not Allowed", "only GET and HEAD"),
    };
    if log_requests {
        println!("{method} {target} {}", response.status);
    }
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Cross-Origin-Opener-Policy: same-origin\r\n\
         Cross-Origin-Embedder-Policy: require-corp\r\n\
         Allow: GET, HEAD\r\nConnection: close\r\n\r\n",
        response.status,
        response.reason,
        response.content_type,
        response.body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    if method != "HEAD" {
        let _ = stream.write_all(&response.body);
    }
    let _ = stream.flush();
}

/// Reads the request head and returns its method and target; `None` when
/// the client sent nothing usable (it then just gets the connection closed).
fn read_request_line(stream: &TcpStream) -> Option<(String, String)> {
    let mut reader = BufReader::new(stream);
    let mut first = String::new();
    let mut total = reader.read_line(&mut first).ok()?;
    // Drain the headers so closing the socket does not reset the connection
    // before the client has read the response.
    loop {
        let mut line = String::new();
        let read = reader.read_line(&mut line).ok()?;
        total += read;
        if read == 0 || line == "\r\n" || line == "\n" || total > MAX_HEAD_BYTES {
            break;
        }
    }
    let mut parts = first.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    Some((method, target))
}

fn respond(root: &Path, target: &str) -> Response {
    let Some(relative) = safe_relative_path(target) else {
        return Response::text(400, "Bad Request", "invalid path");
    };
    let mut path = root.join(&relative);
    if path.is_dir() {
        path.push("index.html");
    }
    // Symbolic links could still point outside the root: compare the
    // resolved path, not the requested one.
    let resolved = match path.canonicalize() {
        Ok(resolved) if resolved.starts_with(root) => resolved,
        Ok(_) => return Response::text(403, "Forbidden", "outside the served folder"),
        Err(_) => return Response::text(404, "Not Found", target),
    };
    match std::fs::read(&resolved) {
        Ok(body) => Response {
            status: 200,
            reason: "OK",
            content_type: mime_type(&resolved),
            body,
        },
        Err(_) => Response::text(404, "Not Found", target),
    }
}

/// Turns a request target into a path below the root, or `None` when it is
/// malformed or tries to climb out (`..`, absolute or Windows-style parts).
fn safe_relative_path(target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next()?;
    let path = path.strip_prefix('/')?;
    let decoded = percent_decode(path)?;
    let mut relative = PathBuf::new();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return None,
            _ if segment.contains(['\\', '\0', ':']) => return None,
            _ => relative.push(segment),
        }
    }
    Some(relative)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn mime_type(path: &Path) -> &'static str {
    let extension = path
        .extension()
        .and_then(|ext| ext.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("wasm") => "application/wasm",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("ico") => "image/x-icon",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        Some("csv") => "text/csv; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_below_the_root() {
        assert_eq!(safe_relative_path("/"), Some(PathBuf::new()));
        assert_eq!(
            safe_relative_path("/pkg/contactlab.js?v=1"),
            Some(PathBuf::from("pkg/contactlab.js"))
        );
        assert_eq!(
            safe_relative_path("/a%20b.png"),
            Some(PathBuf::from("a b.png"))
        );
        assert_eq!(safe_relative_path("/../Cargo.toml"), None);
        assert_eq!(safe_relative_path("/pkg/%2e%2e/%2e%2e/Cargo.toml"), None);
        assert_eq!(safe_relative_path("/..%2fCargo.toml"), None);
        assert_eq!(safe_relative_path("/a%5c..%5cb"), None);
        assert_eq!(safe_relative_path("/bad%zz"), None);
        assert_eq!(safe_relative_path("http://example.com/"), None);
    }

    #[test]
    fn module_files_get_the_types_browsers_insist_on() {
        assert_eq!(mime_type(Path::new("a/b.wasm")), "application/wasm");
        assert!(mime_type(Path::new("main.js")).starts_with("text/javascript"));
        assert!(mime_type(Path::new("x.mjs")).starts_with("text/javascript"));
        assert_eq!(mime_type(Path::new("x.bin")), "application/octet-stream");
    }
}
