//! The viewer's HTTP server: hyper 1.x (HTTP/1.1 only) on a one-thread tokio
//! runtime, with every limit a hostile client could push against fixed here.
//!
//! - A request's head (request line and headers) is at most [`MAX_HEAD`]
//!   bytes and [`MAX_HEADERS`] fields (hyper answers 431 and closes); no more
//!   than [`MAX_READ`] bytes of it are ever read; and it
//!   must arrive within the header timeout (10 s; hyper closes the
//!   connection). A request target longer than [`MAX_TARGET`] is a 414.
//! - No route takes a body: one declared over [`MAX_BODY`] bytes, or without
//!   a length (chunked), is refused (413, 411) before a byte of it is read;
//!   a smaller one is discarded unread (hyper drains what has arrived, else
//!   closes the connection).
//! - At most [`MAX_CONNECTIONS`] connections are served at once. At the cap,
//!   a new connection closes the oldest one with no request in progress (one
//!   whose first request has not arrived whole yet is dropped; a kept-alive one is shut down
//!   gracefully, after the reply it may still be sending), so idle
//!   connections never keep a new request waiting for the header timeout;
//!   only when every connection has a request in progress does a new one
//!   wait in the listen queue. A connection holds no thread: the cheap routes (the
//!   page, `/api/status`, `/api/content`, the browser seat's poll and answer)
//!   are answered on the runtime's thread, the others on at most
//!   [`HEAVY_JOBS`] blocking threads, and the balance batch on a thread of its
//!   own ([`super::batch`]), so the cheap routes never wait behind either.
//! - Requests of another site are refused (403): a `Host` that is not this
//!   machine's, an `Origin` that is not the viewer's own, a `Sec-Fetch-Site`
//!   other than `same-origin` or `none` (except opening the page itself from a
//!   link); `POST` needs the `X-Arena` header ([`super::api::route`]).

use super::State;
use super::api::{self, Reply, Work};
use http_body_util::Full;
use hyper::body::{Body, Bytes, Incoming};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Request, Response};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};

/// Most bytes of a request's head: the request line and every header.
pub const MAX_HEAD: usize = 16 * 1024;
/// Most bytes read of a request's head before hyper gives up on it (431):
/// a head between [`MAX_HEAD`] and this is read whole, and refused cleanly.
pub const MAX_READ: usize = 2 * MAX_HEAD;
/// Most header fields in one request.
pub const MAX_HEADERS: usize = 64;
/// Most bytes of a request target (path and query).
pub const MAX_TARGET: usize = 4 * 1024;
/// Most bytes of a request body (none of the routes reads one).
pub const MAX_BODY: u64 = 1024;
/// Most connections served at once.
pub const MAX_CONNECTIONS: usize = 64;
/// Most requests of the routes that draw or play (maps, replays, files, games
/// to record) worked on at once; more wait for a turn.
pub const HEAVY_JOBS: usize = 4;
/// The header timeout when [`super::Config`] sets none.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// What the connections share.
struct Server {
    state: Arc<State>,
    heavy: Semaphore,
    port: u16,
}

/// Serve `listener` until `stop` fires (or its sender is dropped). Blocks the
/// calling thread; returns once the runtime has shut down.
pub(super) fn serve(
    listener: std::net::TcpListener,
    state: Arc<State>,
    header_timeout: Duration,
    stop: tokio::sync::oneshot::Receiver<()>,
) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(HEAVY_JOBS + 2)
        .thread_name("arena-serve")
        .build()?;
    let server = Arc::new(Server { state, heavy: Semaphore::new(HEAVY_JOBS), port });
    let result = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let accept = tokio::spawn(accept_loop(listener, server, header_timeout));
        let _ = stop.await;
        accept.abort();
        Ok(())
    });
    // Connections still open are dropped here (a batch of theirs is
    // cancelled); a drawing still running is given a moment to finish.
    runtime.shutdown_timeout(Duration::from_secs(2));
    result
}

/// One open connection, as the accept loop sees it: whether it has a request
/// in progress, and how to ask it to close.
#[derive(Default)]
struct Conn {
    /// Requests being answered now (0 or 1 on HTTP/1.1).
    in_service: AtomicUsize,
    /// Requests it has begun, in all.
    asked: AtomicUsize,
    /// Set once it has been asked to close (it is not asked twice).
    evicted: AtomicBool,
    /// Wakes its task to close it.
    close: Notify,
}

/// Counts a request of `conn` as in progress while alive.
struct InService(Arc<Conn>);

impl InService {
    fn new(conn: Arc<Conn>) -> Self {
        conn.asked.fetch_add(1, Ordering::SeqCst);
        conn.in_service.fetch_add(1, Ordering::SeqCst);
        InService(conn)
    }
}

impl Drop for InService {
    fn drop(&mut self) {
        self.0.in_service.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The open connections by when they were taken (oldest first).
type Open = Arc<Mutex<BTreeMap<u64, Arc<Conn>>>>;

/// Ask the oldest open connection with no request in progress to close
/// (none when every one has a request in progress).
fn evict_oldest_idle(open: &Open) {
    let open = open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let idle = open.values().find(|c| c.in_service.load(Ordering::SeqCst) == 0 && !c.evicted.load(Ordering::SeqCst));
    if let Some(c) = idle {
        c.evicted.store(true, Ordering::SeqCst);
        c.close.notify_one();
    }
}

async fn accept_loop(listener: tokio::net::TcpListener, server: Arc<Server>, header_timeout: Duration) {
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let open: Open = Arc::default();
    let mut taken: u64 = 0;
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_buf_size(MAX_READ)
        .max_header_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
        .half_close(false);
    loop {
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            // Out of file descriptors, or a connection reset before it was
            // taken: wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // At the cap: close the oldest idle connection, and serve this one
        // once its slot is free; with every one busy, once one ends (looking
        // again for an idle one every 100 ms). Later ones wait in the queue.
        let permit = loop {
            if let Ok(p) = connections.clone().try_acquire_owned() {
                break p;
            }
            evict_oldest_idle(&open);
            match tokio::time::timeout(Duration::from_millis(100), connections.clone().acquire_owned()).await {
                Ok(Ok(p)) => break p,
                Ok(Err(_)) => return,
                Err(_) => {}
            }
        };
        taken += 1;
        let conn = Arc::new(Conn::default());
        open.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(taken, conn.clone());
        let server = server.clone();
        let in_conn = conn.clone();
        let connection = http.serve_connection(
            hyper_util::rt::TokioIo::new(stream),
            hyper::service::service_fn(move |request| {
                let server = server.clone();
                let busy = InService::new(in_conn.clone());
                async move {
                    let reply = answer(&server, request).await;
                    drop(busy);
                    Ok::<_, Infallible>(reply)
                }
            }),
        );
        let open = open.clone();
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let mut closing = std::pin::pin!(conn.close.notified());
            // Asked to close (true) before it ended by itself (false)?
            let evicted = std::future::poll_fn(|cx| {
                if closing.as_mut().poll(cx).is_ready() {
                    return std::task::Poll::Ready(true);
                }
                connection.as_mut().poll(cx).map(|_| false)
            })
            .await;
            // One that asked nothing yet is dropped at once; one that has,
            // closes after the reply it may still be sending.
            if evicted && conn.asked.load(Ordering::SeqCst) > 0 {
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
            open.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&taken);
            drop(permit);
        });
    }
}

/// The reply to one request, as hyper sends it.
async fn answer(server: &Server, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let reply = match refusal(server, &request) {
        Some(reply) => reply,
        None => {
            let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
            let (path, query) = target.split_once('?').unwrap_or((target, ""));
            let ask = api::Ask {
                method: request.method().clone(),
                path: path.to_string(),
                query: query.to_string(),
                x_arena: request.headers().contains_key("x-arena"),
            };
            drop(request);
            run(server, api::route(&server.state, &ask)).await
        }
    };
    response(reply)
}

/// Do what the route said, on the thread it belongs on.
async fn run(server: &Server, work: Work) -> Reply {
    match work {
        Work::Now(reply) => reply,
        Work::Heavy(job) => {
            // Waiting for a turn holds no thread; a client that leaves while
            // it waits gives its place up.
            let Ok(_turn) = server.heavy.acquire().await else {
                return Reply::error(503, "the viewer is stopping");
            };
            tokio::task::spawn_blocking(job)
                .await
                .unwrap_or_else(|_| Reply::error(500, "the request failed inside the viewer"))
        }
        Work::Batch(job) => super::batch::run(&server.state, job).await,
    }
}

/// Why a request is refused before routing, if it is: too long a target, a
/// body, or another site's request.
fn refusal(server: &Server, request: &Request<Incoming>) -> Option<Reply> {
    let target = request.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if target > MAX_TARGET {
        return Some(Reply::error(414, format!("the request target is {target} bytes: at most {MAX_TARGET}")).close());
    }
    // No route reads a body: refuse a large or unbounded one before reading it.
    let hint = request.body().size_hint();
    match hint.upper() {
        Some(n) if n > MAX_BODY => {
            return Some(
                Reply::error(413, format!("a request body of {n} bytes: the viewer reads none (at most {MAX_BODY})"))
                    .close(),
            );
        }
        None => {
            return Some(Reply::error(411, "a request body without a Content-Length: the viewer reads none").close());
        }
        _ => {}
    }
    let headers = request.headers();
    if !local_host(headers, request.uri().host()) {
        return Some(Reply::error(403, "this viewer answers only requests for 127.0.0.1, localhost or [::1]"));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        if !own_origin(origin, server.port) {
            return Some(Reply::error(
                403,
                format!("a request from another site ({}) is refused", String::from_utf8_lossy(origin.as_bytes())),
            ));
        }
    }
    let fetch_site = headers.get("sec-fetch-site").map(HeaderValue::as_bytes);
    let opens_the_page = request.method() == hyper::Method::GET
        && request.uri().path() == "/"
        && headers.get("sec-fetch-mode").is_some_and(|m| m.as_bytes() == b"navigate");
    if let Some(site) = fetch_site {
        if site != b"same-origin" && site != b"none" && !opens_the_page {
            return Some(Reply::error(
                403,
                format!("a {} request is refused: only the viewer's own page asks it", String::from_utf8_lossy(site)),
            ));
        }
    }
    None
}

/// The host of a `Host` value or an authority: `[::1]` of `[::1]:7878`,
/// `localhost` of `localhost:7878`.
/// The whole value when it has no port; `v` itself (no host of ours) when
/// what follows the host is not `:` and digits (`[::1].evil.example`).
fn host_of(v: &str) -> &str {
    let end = if v.starts_with('[') { v.find(']').map_or(v.len(), |e| e + 1) } else { v.find(':').unwrap_or(v.len()) };
    let (host, rest) = v.split_at(end);
    let port_ok = rest.is_empty()
        || rest.strip_prefix(':').is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    if port_ok { host } else { v }
}

fn loopback_name(host: &str) -> bool {
    ["127.0.0.1", "localhost", "[::1]"].iter().any(|h| h.eq_ignore_ascii_case(host))
}

/// Whether the request names this machine as its host: a page of another
/// site that got its name pointed at 127.0.0.1 (DNS rebinding) is refused.
/// Every `Host` header, and the target's authority when it has one.
fn local_host(headers: &HeaderMap, authority: Option<&str>) -> bool {
    let host_headers_ok =
        headers.get_all(header::HOST).iter().all(|h| h.to_str().is_ok_and(|v| loopback_name(host_of(v.trim()))));
    // `uri().host()` gives IPv6 hosts with their brackets.
    host_headers_ok && authority.is_none_or(loopback_name)
}

/// Whether `Origin` is the viewer's own: `http://` a loopback name and its port.
fn own_origin(origin: &HeaderValue, port: u16) -> bool {
    let Some(rest) = origin.to_str().ok().and_then(|o| o.strip_prefix("http://")) else { return false };
    let host = host_of(rest);
    loopback_name(host) && rest[host.len()..] == *format!(":{port}")
}

fn response(reply: Reply) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(reply.body)));
    *r.status_mut() = hyper::StatusCode::from_u16(reply.status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // Another site's page cannot embed (`<img>`, `<script>`) what it sends.
    h.insert("cross-origin-resource-policy", HeaderValue::from_static("same-origin"));
    if let Some(allow) = reply.allow {
        h.insert(header::ALLOW, HeaderValue::from_static(allow));
    }
    if reply.close {
        h.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    r
}

/// The address a listener is bound to, for [`super::Viewer::addr`].
pub(super) fn bind(port: u16) -> anyhow::Result<(std::net::TcpListener, SocketAddr)> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let addr = listener.local_addr()?;
    Ok((listener, addr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bracketed_ipv6_host_is_read_whole() {
        assert_eq!(host_of("[::1]"), "[::1]");
        assert_eq!(host_of("[::1]:7878"), "[::1]");
        assert_eq!(host_of("localhost:7878"), "localhost");
        assert_eq!(host_of("127.0.0.1"), "127.0.0.1");
        assert_eq!(host_of("[::1].evil.example"), "[::1].evil.example");
        assert_eq!(host_of("[::1]:x"), "[::1]:x");
    }

    #[test]
    fn only_the_viewers_own_origin_is_its_own() {
        let o = |s: &'static str| HeaderValue::from_static(s);
        assert!(own_origin(&o("http://127.0.0.1:7878"), 7878));
        assert!(own_origin(&o("http://localhost:7878"), 7878));
        assert!(own_origin(&o("http://[::1]:7878"), 7878));
        assert!(!own_origin(&o("http://127.0.0.1:7879"), 7878));
        assert!(!own_origin(&o("http://127.0.0.1:78781"), 7878));
        assert!(!own_origin(&o("http://127.0.0.1"), 7878));
        assert!(!own_origin(&o("http://evil.example"), 7878));
        assert!(!own_origin(&o("https://127.0.0.1:7878"), 7878));
        assert!(!own_origin(&o("null"), 7878));
    }
}
