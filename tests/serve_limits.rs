//! `arena serve` holds against hostile requests: a real viewer on the
//! loopback address gets each request below (few of them, each bounded in
//! time), and after each still answers `/api/status` within a second. The
//! limits are `arena::serve`'s constants, as docs/viewer.md states them.

use arena::serve::{Config, MAX_BODY, MAX_HEAD, MAX_TARGET, Viewer, start};
use arena_tests::tests_dir;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn viewer_with(header_timeout_ms: Option<u64>) -> Viewer {
    let core = tests_dir().join("../content/aristeia-core");
    start(Config { paths: vec![core], port: 0, debounce_ms: Some(50), header_timeout_ms, ..Config::default() }).unwrap()
}

fn viewer() -> Viewer {
    viewer_with(None)
}

fn connect(v: &Viewer) -> TcpStream {
    let s = TcpStream::connect(v.addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
    s
}

/// The status line's code, the headers and the body of what `s` answers,
/// read until the server closes (or 10 s pass).
fn read_reply(s: &mut TcpStream) -> (u16, String, String) {
    let mut bytes = Vec::new();
    let _ = s.read_to_end(&mut bytes);
    let reply = String::from_utf8_lossy(&bytes).into_owned();
    let code = reply.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
    (code, head.to_string(), body.to_string())
}

/// Send `raw` as is and read the reply.
fn send(v: &Viewer, raw: &str) -> (u16, String, String) {
    let mut s = connect(v);
    s.write_all(raw.as_bytes()).unwrap();
    read_reply(&mut s)
}

/// One request with `Connection: close`, the `Host` of the viewer unless
/// `headers` gives one.
fn request(v: &Viewer, method: &str, target: &str, headers: &[&str]) -> (u16, String, String) {
    let mut text = format!("{method} {target} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|h| h.starts_with("Host:")) {
        text.push_str(&format!("Host: {}\r\n", v.addr()));
    }
    for h in headers {
        text.push_str(&format!("{h}\r\n"));
    }
    text.push_str("\r\n");
    send(v, &text)
}

/// The viewer answers `GET /api/status` with 200 within a second.
fn still_answers(v: &Viewer, after: &str) {
    let t = Instant::now();
    let mut s = connect(v);
    s.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
    s.write_all(format!("GET /api/status HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", v.addr()).as_bytes())
        .unwrap();
    let (code, _, body) = read_reply(&mut s);
    let took = t.elapsed();
    assert_eq!(code, 200, "after {after}, /api/status did not answer: {body}");
    assert!(took < Duration::from_secs(1), "after {after}, /api/status took {took:?}");
    assert!(body.contains("\"generation\""), "{body}");
}

#[test]
fn a_declared_body_over_the_cap_is_refused_with_413_before_it_is_read() {
    let v = viewer();
    let host = v.addr();
    let (code, _, body) =
        send(&v, &format!("GET /api/status HTTP/1.1\r\nHost: {host}\r\nContent-Length: 100000000000\r\n\r\n"));
    assert_eq!(code, 413, "{body}");
    assert!(body.contains(&MAX_BODY.to_string()), "the reply says the cap: {body}");
    still_answers(&v, "a GET declaring 100 GB");
    // Four at once of the largest length there is, and four just under what
    // hyper can count: the first are refused by hyper itself as it reads the
    // head (431: a length it cannot hold), the others by the viewer (413).
    let mut clients: Vec<(u64, TcpStream)> = [u64::MAX, u64::MAX - 2]
        .iter()
        .flat_map(|&n| std::iter::repeat_n(n, 4))
        .map(|n| {
            let mut s = connect(&v);
            let raw =
                format!("POST /api/replays HTTP/1.1\r\nHost: {host}\r\nX-Arena: 1\r\nContent-Length: {n}\r\n\r\n");
            s.write_all(raw.as_bytes()).unwrap();
            (n, s)
        })
        .collect();
    for (n, s) in &mut clients {
        let expected = if *n == u64::MAX { 431 } else { 413 };
        assert_eq!(read_reply(s).0, expected, "Content-Length: {n}");
    }
    still_answers(&v, "four requests declaring 2^64-1 bytes");
    // A body of unknown length (chunked) is not read either.
    let (code, _, _) =
        send(&v, &format!("GET /api/status HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n\r\n"));
    assert_eq!(code, 411);
    still_answers(&v, "a chunked body");
}

#[test]
fn clients_that_declare_a_body_and_send_none_hold_nothing() {
    let v = viewer();
    let host = v.addr();
    // Eight clients each declare a small body, send none, and stay: each is
    // answered without the viewer waiting for the body.
    let mut clients: Vec<TcpStream> = (0..8)
        .map(|i| {
            let mut s = connect(&v);
            let target = if i % 2 == 0 { "/api/status" } else { "/api/map.svg?id=hexadome-a" };
            s.write_all(format!("GET {target} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 100\r\n\r\n").as_bytes())
                .unwrap();
            s
        })
        .collect();
    still_answers(&v, "eight clients that declared a body and sent none");
    let t = Instant::now();
    for s in &mut clients {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        assert_eq!(read_reply(s).0, 200);
    }
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn a_long_request_target_is_414_and_a_huge_one_is_never_buffered() {
    let v = viewer();
    let host = v.addr();
    let long = format!("/api/map.svg?id={}", "a".repeat(MAX_TARGET));
    let (code, _, body) = request(&v, "GET", &long, &[]);
    assert_eq!(code, 414, "{body}");
    still_answers(&v, "a long request target");
    // A request line of 64 MiB: the viewer stops reading after its head cap
    // and closes, so the writes fail long before the end.
    let mut s = connect(&v);
    s.write_all(b"GET /api/status?x=").unwrap();
    let chunk = vec![b'a'; 1 << 20];
    let mut sent = 0usize;
    while sent < 64 << 20 {
        if s.write_all(&chunk).is_err() {
            break;
        }
        sent += chunk.len();
    }
    assert!(sent < 64 << 20, "the viewer read a 64 MiB request line");
    still_answers(&v, "a 64 MiB request line");
    // A head over the cap (read whole: under twice the cap) is answered 431.
    let mut s = connect(&v);
    let big = format!("GET /api/status HTTP/1.1\r\nHost: {host}\r\nX-Pad: {}\r\n\r\n", "p".repeat(MAX_HEAD));
    let _ = s.write_all(big.as_bytes());
    assert_eq!(read_reply(&mut s).0, 431);
    still_answers(&v, "a head over the cap");
}

#[test]
fn too_many_headers_are_431() {
    let v = viewer();
    let pads: Vec<String> = (0..100).map(|i| format!("X-Pad-{i}: 1")).collect();
    let pads: Vec<&str> = pads.iter().map(String::as_str).collect();
    assert_eq!(request(&v, "GET", "/api/status", &pads).0, 431);
    still_answers(&v, "a hundred headers");
}

#[test]
fn a_client_that_never_finishes_its_head_is_closed_after_the_header_timeout() {
    let v = viewer_with(Some(500));
    // Twenty clients send half a request line and wait.
    let mut slow: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut s = connect(&v);
            s.write_all(b"GET /api/status HTTP/1.1\r\nHost: 127").unwrap();
            s
        })
        .collect();
    still_answers(&v, "twenty half heads");
    let t = Instant::now();
    for s in &mut slow {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0u8; 512];
        // Closed (0 bytes, or a reset), or answered and closed; never left open.
        loop {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }
    let took = t.elapsed();
    assert!(took < Duration::from_secs(4), "the half heads were closed after {took:?}");
    still_answers(&v, "the header timeout");
}

#[test]
fn more_connections_than_the_cap_wait_and_the_viewer_still_answers() {
    let v = viewer_with(Some(500));
    // Past the connection cap, idle: they are closed by the header timeout,
    // and the viewer answers again.
    let idle: Vec<TcpStream> = (0..arena::serve::MAX_CONNECTIONS + 16).map(|_| connect(&v)).collect();
    let t = Instant::now();
    let mut s = connect(&v);
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(format!("GET /api/status HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", v.addr()).as_bytes())
        .unwrap();
    assert_eq!(read_reply(&mut s).0, 200);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    drop(idle);
    still_answers(&v, "more idle connections than the cap");
}

#[test]
fn a_map_picture_from_a_space_off_the_map_is_a_400_with_the_reason() {
    let v = viewer();
    for from in ["-2147483648,-2147483648", "2147483647,-2147483648", "0,3000", "10,0"] {
        let t = Instant::now();
        let (code, _, body) = request(&v, "GET", &format!("/api/map.svg?id=hexadome-a&from={from}"), &[]);
        assert_eq!(code, 400, "from={from}: {body}");
        assert!(body.contains("not a space of the board"), "{body}");
        assert!(t.elapsed() < Duration::from_secs(1), "from={from} took {:?}", t.elapsed());
        still_answers(&v, &format!("from={from}"));
    }
    let (code, _, body) = request(&v, "GET", "/api/map.svg?id=hexadome-a&from=north", &[]);
    assert_eq!(code, 400);
    assert!(body.contains("Q,R"), "{body}");
    assert_eq!(request(&v, "GET", "/api/map.svg?id=hexadome-a&from=0,-4", &[]).0, 200);
    assert_eq!(request(&v, "GET", "/api/map.svg?id=hexadome-a&from=9,-9", &[]).0, 200);
}

#[test]
fn a_bad_query_value_is_a_400_with_the_reason_never_a_default() {
    let v = viewer();
    let post = |target: &str| request(&v, "POST", target, &["X-Arena: 1"]);
    let (code, _, body) = post("/api/replays?setup=assault&seed=-5");
    assert_eq!(code, 400, "seed=-5 is not seed 1: {body}");
    assert!(body.contains("`seed`"), "{body}");
    assert_eq!(post("/api/replays?setup=assault&seed=1x").0, 400);
    assert_eq!(post("/api/play/start?setup=assault&seed=-1").0, 400);
    assert_eq!(post("/api/play/answer?index=-1").0, 400);
    let (code, _, body) = request(&v, "GET", "/api/map.svg?id=hexadome-a&coords=yes", &[]);
    assert_eq!(code, 400);
    assert!(body.contains("`coords`"), "{body}");
    let (code, _, body) = request(&v, "GET", "/api/map.svg?id=hexadome-a&zoom=2", &[]);
    assert_eq!(code, 400);
    assert!(body.contains("no parameter `zoom`"), "{body}");
    let (code, _, body) = request(&v, "GET", "/api/map.svg?id=hexadome-a&id=assault", &[]);
    assert_eq!(code, 400);
    assert!(body.contains("twice"), "{body}");
    let (code, _, body) = request(&v, "GET", "/api/status?x=1", &[]);
    assert_eq!(code, 400, "{body}");
    // Nothing was played.
    let (_, _, content) = request(&v, "GET", "/api/content", &[]);
    let content: serde_json::Value = serde_json::from_str(&content).unwrap();
    assert_eq!(content["replays"], serde_json::json!([]), "no replay was recorded");
    let balance = |q: &str| post(&format!("/api/balance.svg?scenario=assault&{q}"));
    assert_eq!(balance("games=0").0, 400);
    assert_eq!(balance("games=2001").0, 400);
    assert_eq!(balance("games=-3").0, 400);
    assert_eq!(balance("seed=18446744073709551615&games=2").0, 400);
    assert_eq!(balance("random_teams=yes").0, 400);
    assert_eq!(balance("seats=5").0, 400);
    still_answers(&v, "bad query values");
}

#[test]
fn balance_is_a_post_with_the_header_and_other_sites_are_refused() {
    let v = viewer();
    let (code, head, body) = request(&v, "GET", "/api/balance.svg?scenario=assault&games=1", &[]);
    assert_eq!(code, 405, "{body}");
    assert!(head.to_ascii_lowercase().contains("allow: post"), "{head}");
    assert_eq!(request(&v, "POST", "/api/balance.svg?scenario=assault&games=1", &[]).0, 403);
    let evil = ["X-Arena: 1", "Origin: http://evil.example"];
    let (code, _, body) = request(&v, "POST", "/api/balance.svg?scenario=assault&games=1", &evil);
    assert_eq!(code, 403, "{body}");
    assert!(body.contains("evil.example"), "{body}");
    let cross = ["X-Arena: 1", "Sec-Fetch-Site: cross-site"];
    assert_eq!(request(&v, "POST", "/api/balance.svg?scenario=assault&games=1", &cross).0, 403);
    // What an `<img>` of another site sends.
    let img = ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors", "Sec-Fetch-Dest: image"];
    assert_eq!(request(&v, "GET", "/api/map.svg?id=hexadome-a", &img).0, 403);
    assert_eq!(request(&v, "GET", "/api/status", &["Sec-Fetch-Site: same-site"]).0, 403);
    let other_port = format!("Origin: http://127.0.0.1:{}", v.addr().port().wrapping_add(1));
    assert_eq!(request(&v, "GET", "/api/status", &[&other_port]).0, 403);
    // The viewer's own page, and opening it from a link, are served.
    let own = format!("Origin: http://127.0.0.1:{}", v.addr().port());
    assert_eq!(request(&v, "GET", "/api/status", &[&own, "Sec-Fetch-Site: same-origin"]).0, 200);
    let link = ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"];
    assert_eq!(request(&v, "GET", "/", &link).0, 200);
    assert_eq!(request(&v, "GET", "/api/status", &link).0, 403);
    // A read route takes no POST, and other methods are refused.
    assert_eq!(request(&v, "POST", "/api/status", &["X-Arena: 1"]).0, 405);
    assert_eq!(request(&v, "DELETE", "/api/content", &[]).0, 405);
    still_answers(&v, "cross-site requests");
}

#[test]
fn the_loopback_hosts_the_docs_list_are_accepted() {
    let v = viewer();
    let port = v.addr().port();
    for host in ["[::1]".to_string(), format!("[::1]:{port}"), format!("localhost:{port}"), "127.0.0.1".into()] {
        let (code, _, body) = request(&v, "GET", "/api/status", &[&format!("Host: {host}")]);
        assert_eq!(code, 200, "Host: {host}: {body}");
    }
    for host in ["[::2]", "evil.example", "127.0.0.1.evil.example", "[::1].evil.example"] {
        assert_eq!(request(&v, "GET", "/api/status", &[&format!("Host: {host}")]).0, 403, "Host: {host}");
    }
}

/// POST a batch, then leave without reading the answer.
fn abandon_a_batch(v: &Viewer, games: u64) {
    let mut s = connect(v);
    let raw = format!(
        "POST /api/balance.svg?scenario=assault&games={games} HTTP/1.1\r\nHost: {}\r\nX-Arena: 1\r\nContent-Length: 0\r\n\r\n",
        v.addr()
    );
    s.write_all(raw.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    drop(s);
}

#[test]
fn one_batch_runs_at_a_time_and_an_abandoned_one_stops() {
    let v = viewer();
    let host = v.addr();
    // A batch of 2000 games, asked for and kept waiting.
    let mut first = connect(&v);
    first
        .write_all(
            format!(
                "POST /api/balance.svg?scenario=assault&games=2000 HTTP/1.1\r\nHost: {host}\r\nX-Arena: 1\r\nContent-Length: 0\r\n\r\n"
            )
            .as_bytes(),
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let (code, _, body) = request(&v, "POST", "/api/balance.svg?scenario=assault&games=1", &["X-Arena: 1"]);
    assert_eq!(code, 409, "a second batch waits for none: {body}");
    still_answers(&v, "a batch of 2000 games running");
    // The client leaves: the batch stops between games, so a new one can
    // start soon (2000 games would take minutes).
    drop(first);
    for _ in 0..3 {
        abandon_a_batch(&v, 2000);
        still_answers(&v, "an abandoned batch");
    }
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (code, head, body) = request(&v, "POST", "/api/balance.svg?scenario=assault&games=1", &["X-Arena: 1"]);
        if code == 200 {
            assert!(head.contains("image/svg+xml") && body.starts_with("<svg"), "{head}");
            break;
        }
        assert_eq!(code, 409, "{body}");
        assert!(Instant::now() < deadline, "the abandoned batches did not stop");
        std::thread::sleep(Duration::from_millis(200));
    }
    still_answers(&v, "the batches");
}

/// At the connection cap, idle connections (open, nothing sent) never keep a
/// new request waiting for the header timeout: the oldest idle one is closed
/// to make room, so `/api/status` answers within a second with the default
/// 10 s timeout, again and again; a kept-alive connection between requests
/// is closed the same way, and the reply it had is whole.
#[test]
fn idle_connections_at_the_cap_make_room_for_a_new_request_at_once() {
    let v = viewer();
    // A kept-alive client that has had its reply, then idles.
    let mut kept = connect(&v);
    kept.write_all(format!("GET /api/status HTTP/1.1\r\nHost: {}\r\n\r\n", v.addr()).as_bytes()).unwrap();
    let mut first = [0u8; 12];
    kept.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    let idle: Vec<TcpStream> = (0..arena::serve::MAX_CONNECTIONS).map(|_| connect(&v)).collect();
    for round in 0..3 {
        still_answers(&v, &format!("{} idle connections, round {round}", idle.len()));
    }
    // The oldest, the kept-alive one, was closed cleanly: its reply whole, then the end.
    kept.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut rest = Vec::new();
    let _ = kept.read_to_end(&mut rest);
    assert!(String::from_utf8_lossy(&rest).contains("\"generation\""), "{}", String::from_utf8_lossy(&rest));
    drop(idle);
}

#[test]
fn a_report_given_with_chart_is_drawn_in_the_balance_tab_and_another_name_is_a_404() {
    let core = tests_dir().join("../content/aristeia-core");
    let chart = tests_dir().join("fixtures/charts/tune-duel.json");
    let v = start(Config { paths: vec![core], port: 0, charts: vec![chart], ..Config::default() }).unwrap();
    let (code, _, body) = request(&v, "GET", "/api/content", &[]);
    assert_eq!(code, 200);
    assert!(body.contains("\"charts\":[\"tune-duel.json\"]"), "{body}");
    let (code, head, body) = request(&v, "GET", "/api/chart.svg?name=tune-duel.json", &[]);
    assert_eq!(code, 200, "{body}");
    assert!(head.to_ascii_lowercase().contains("image/svg+xml"), "{head}");
    assert!(body.contains("r=\"9\""), "the answer ringed");
    let (code, _, body) = request(&v, "GET", "/api/chart.svg?name=other.json", &[]);
    assert_eq!((code, body.contains("no chart `other.json`")), (404, true), "{body}");
    // A file that is no report stops the viewer from starting, with the reason.
    let bad = tests_dir().join("fixtures/charts/none.json");
    let e = start(Config { paths: vec![], port: 0, charts: vec![bad], ..Config::default() }).err().unwrap();
    assert!(e.to_string().contains("--chart"), "{e}");
}
