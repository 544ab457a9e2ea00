//! Property tests (proptest) of the parsers that read outside input: arm
//! sets, result CSVs, and the stand-in's Messages API requests. None may
//! panic; the stand-in must answer every request (2xx or 4xx) and keep serving.

use std::io::Write;

use failopen::standin::history::History;
use failopen::standin::script::scripted_step;
use failopen::standin::{Policy, StandIn};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Any JSON value, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map(Value::Number).unwrap_or(Value::Null)),
        ".{0,12}".prop_map(Value::String),
        // Words the parsers look for, so the fuzzing reaches past the first check.
        prop::sample::select(vec![
            "arms",
            "guard",
            "wrapper",
            "name",
            "deny",
            "bare",
            "hang",
            "timed",
            "sealed",
            "tool_use",
            "tool_result",
            "Bash",
            "Write",
            "messages",
            "tools",
            "content",
            "type",
            "id",
            "tool_use_id",
            "is_error",
            "text",
        ])
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "arms",
            "guard",
            "wrapper",
            "name",
            "hook_timeout",
            "deadline",
            "expect",
            "verdict",
            "source",
            "description",
            "messages",
            "tools",
            "content",
            "type",
            "id",
            "name",
            "input",
            "tool_use_id",
            "is_error",
            "text",
            "role",
            "system",
            "stream",
            "model",
        ])
        .prop_map(String::from),
        "[a-z_]{0,8}",
    ]
}

/// An arm entry with plausible and implausible values.
fn arm_entry() -> impl Strategy<Value = Value> {
    let guard = prop_oneof![prop::sample::select(failopen::guards::names()).prop_map(|s| json!(s)), any_json()];
    let wrapper = prop_oneof![
        prop::sample::select(vec!["bare", "plain", "timed", "native", "sealed"]).prop_map(|s| json!(s)),
        any_json()
    ];
    let secs = prop_oneof![any::<f64>().prop_map(|f| json!(f)), (-5i64..10).prop_map(|n| json!(n)), any_json()];
    (guard, wrapper, prop::option::of(secs.clone()), prop::option::of(secs), prop::option::of(any_json())).prop_map(
        |(g, w, t, d, name)| {
            let mut m = serde_json::Map::new();
            m.insert("guard".into(), g);
            m.insert("wrapper".into(), w);
            if let Some(t) = t {
                m.insert("hook_timeout".into(), t);
            }
            if let Some(d) = d {
                m.insert("deadline".into(), d);
            }
            if let Some(n) = name {
                m.insert("name".into(), n);
            }
            Value::Object(m)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arms_parser_never_panics_on_text(text in ".{0,200}") {
        let _ = failopen::arms::parse(&text, "fuzz.json");
    }

    #[test]
    fn arms_parser_never_panics_on_json(value in any_json()) {
        let _ = failopen::arms::parse(&value.to_string(), "fuzz.json");
    }

    /// Arm sets shaped like real ones: accepted arms have sane timeouts and unique names.
    #[test]
    fn arms_parser_checks_what_it_accepts(entries in prop::collection::vec(arm_entry(), 0..5)) {
        let text = json!({"arms": entries}).to_string();
        if let Ok(arms) = failopen::arms::parse(&text, "fuzz.json") {
            for a in &arms {
                prop_assert!(a.hook_timeout_secs > 0.0 && a.hook_timeout_secs.is_finite());
                prop_assert!(a.deadline_secs > 0.0 && a.deadline_secs.is_finite());
            }
            let mut names: Vec<_> = arms.iter().map(|a| a.name.clone()).collect();
            names.sort();
            names.dedup();
            prop_assert_eq!(names.len(), arms.len());
        }
    }

    #[test]
    fn csv_reader_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.csv");
        std::fs::write(&p, &bytes).unwrap();
        let _ = failopen::record::read_rows(&p);
    }

    /// The right header followed by anything: the reader and the writer's
    /// reopen never panic, and a reopened file ends with a whole line.
    #[test]
    fn csv_reader_and_reopen_never_panic_after_the_header(
        tail in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..300),
            ".{0,300}".prop_map(String::into_bytes),
            prop::collection::vec(prop::sample::select(vec![b',', b'"', b'\n', b'\r', b'a', b'1', b'.']), 0..200),
        ]
    ) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.csv");
        let mut f = std::fs::File::create(&p).unwrap();
        writeln!(f, "{}", failopen::record::HEADER.join(",")).unwrap();
        f.write_all(&tail).unwrap();
        drop(f);
        let _ = failopen::record::read_rows(&p);
        if failopen::record::RowWriter::open(&p).is_ok() {
            prop_assert!(std::fs::read(&p).unwrap().ends_with(b"\n"));
        }
    }

    #[test]
    fn stand_in_request_parsing_never_panics(body in any_json(), cwd in ".{0,20}") {
        let h = History::from_request(&body);
        let _ = scripted_step(&h, &cwd);
    }

    /// Requests shaped like Claude Code's, with random blocks.
    #[test]
    fn stand_in_script_never_panics_on_message_shaped_requests(
        blocks in prop::collection::vec(any_json(), 0..8),
        tools in prop::collection::vec(any_json(), 0..4),
    ) {
        let messages: Vec<Value> = blocks.into_iter().map(|b| json!({"role": "user", "content": [b]})).collect();
        let body = json!({"model": "m", "tools": tools, "messages": messages});
        let h = History::from_request(&body);
        let _ = scripted_step(&h, "/w");
    }
}

/// Send one raw HTTP request; the status code of the answer, if any.
async fn post(addr: std::net::SocketAddr, path: &str, body: &[u8]) -> Option<u16> {
    post_large(addr, path, body.to_vec()).await.0
}

/// Arbitrary bytes and arbitrary JSON posted to a running stand-in: every
/// request gets a 2xx or 4xx answer, and afterwards it still serves a real request.
#[test]
fn stand_in_server_answers_every_body_and_keeps_serving() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let standin = rt.block_on(StandIn::start(Policy::Scripted, None)).unwrap();
    let addr = standin.addr();
    let bodies = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        any_json().prop_map(|v| v.to_string().into_bytes()),
        (any_json(), any::<bool>()).prop_map(|(m, stream)| {
            json!({"model": "m", "stream": stream, "tools": [{"name": "Bash"}, {"name": "Write"}], "messages": m})
                .to_string()
                .into_bytes()
        }),
    ];
    let paths =
        prop::sample::select(vec!["/v1/messages", "/s/fuzz/v1/messages", "/s/fuzz/v1/messages/count_tokens", "/other"]);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig { cases: 300, ..ProptestConfig::default() });
    runner
        .run(&(bodies, paths), |(body, path)| {
            let status = rt.block_on(post(addr, path, &body));
            prop_assert!(
                status.is_some_and(|s| (200..300).contains(&s) || (400..500).contains(&s)),
                "{path} {:?}: status {status:?}",
                String::from_utf8_lossy(&body)
            );
            Ok(())
        })
        .unwrap();
    // Garbage that is not even HTTP, then a real request.
    rt.block_on(async {
        use tokio::io::AsyncWriteExt;
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let _ = s.write_all(b"\x00\xffGARBAGE\r\n\r\n\x16\x03\x01").await;
    });
    let real = json!({"model": "m", "tools": [{"name": "Bash"}], "messages": [{"role": "user", "content": "go"}]});
    assert_eq!(rt.block_on(post(addr, "/s/after/v1/messages", real.to_string().as_bytes())), Some(200));
    drop(standin);
}

/// Post `body` while reading the answer (a server may answer before it has
/// read everything); the status line and the body of the answer.
async fn post_large(addr: std::net::SocketAddr, path: &str, body: Vec<u8>) -> (Option<u16>, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(stream) = tokio::net::TcpStream::connect(addr).await else { return (None, String::new()) };
    let (mut read, mut write) = stream.into_split();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    // The writer hands its half back instead of dropping it: dropping it
    // half-closes the connection, and hyper drops a connection whose client
    // half-closed before the answer is written (a real client never does).
    let writer = tokio::spawn(async move {
        let _ = write.write_all(head.as_bytes()).await;
        let _ = write.write_all(&body).await;
        write
    });
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(30), read.read_to_end(&mut answer)).await;
    drop(writer.await);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.strip_prefix("HTTP/1.1 ").and_then(|t| t.get(..3)).and_then(|s| s.parse().ok());
    (status, text)
}

/// The stand-in takes what the Messages API takes (32 MB), so a guard's
/// 5 MB refusal sent back to the model is answered, not turned away: axum's
/// default 2 MB limit made Claude Code report "Request too large" for
/// big-output under the article's wrappers. Past 32 MB, the API's answer.
#[test]
fn stand_in_reads_bodies_up_to_the_api_limit() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let standin = rt.block_on(StandIn::start(Policy::Scripted, None)).unwrap();
    let request = |refusal_bytes: usize| {
        json!({"model": "m", "tools": [{"name": "Bash"}, {"name": "Write"}], "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": true,
                "content": format!("PreToolUse:Bash hook error: {}", "x".repeat(refusal_bytes))}]}
        ]})
        .to_string()
        .into_bytes()
    };
    let (status, text) = rt.block_on(post_large(standin.addr(), "/s/big/v1/messages", request(10 << 20)));
    assert_eq!(status, Some(200), "{}", &text[..text.len().min(300)]);
    assert!(text.contains(r#""name":"Write""#), "the refused Bash leads to Write: {}", &text[..text.len().min(600)]);
    let transcript = standin.take_transcript("big");
    assert_eq!((transcript.requests, transcript.errors_sent), (1, 0));

    let (status, text) = rt.block_on(post_large(standin.addr(), "/s/huge/v1/messages", request(33 << 20)));
    assert_eq!(status, Some(413));
    assert!(text.contains("request_too_large"), "{text}");
    let transcript = standin.take_transcript("huge");
    assert_eq!((transcript.requests, transcript.errors_sent), (0, 1));
    drop(standin);
}
