//! OpenFlow over TLS (issue 51) against an in-process rustls controller with a known answer:
//! the controller waits a known time before its side of the TLS handshake, so the engine's TLS
//! handshake figure must hold that wait and its TCP connect and OpenFlow handshake figures must
//! not. Every switch presents its certificate (the controller requires one); the result names
//! the version and cipher suite agreed. A controller whose certificate the switch's CA did not
//! sign ends every session with a reason naming TLS.

mod common;

use rcgen::{BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair, SanType};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The wait before the controller's side of the handshake (ms): the known answer.
const DELAY_MS: u64 = 150;

struct Pki {
    dir: PathBuf,
}

impl Pki {
    fn path(&self, f: &str) -> String {
        self.dir.join(f).to_str().unwrap().to_string()
    }
}

/// A CA, a controller certificate (127.0.0.1, localhost) and a switch certificate (client
/// auth) signed by it, as PEM files in `dir`.
fn pki(tag: &str) -> Pki {
    let dir = std::env::temp_dir().join(format!("sdnbench-tls-test-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cap = CertificateParams::new(Vec::<String>::new()).unwrap();
    cap.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    cap.distinguished_name.push(DnType::CommonName, format!("sdnbench test CA {tag}"));
    let cak = KeyPair::generate().unwrap();
    let ca = cap.self_signed(&cak).unwrap();
    let mut sp = CertificateParams::new(vec!["localhost".to_string()]).unwrap();
    sp.subject_alt_names.push(SanType::IpAddress("127.0.0.1".parse().unwrap()));
    let sk = KeyPair::generate().unwrap();
    let server = sp.signed_by(&sk, &ca, &cak).unwrap();
    let mut cp = CertificateParams::new(Vec::<String>::new()).unwrap();
    cp.distinguished_name.push(DnType::CommonName, "sdnbench-switch");
    cp.extended_key_usages.push(ExtendedKeyUsagePurpose::ClientAuth);
    let ck = KeyPair::generate().unwrap();
    let client = cp.signed_by(&ck, &ca, &cak).unwrap();
    for (f, text) in [
        ("ca.pem", ca.pem()),
        ("ctl.pem", server.pem()),
        ("ctl.key", sk.serialize_pem()),
        ("sw.pem", client.pem()),
        ("sw.key", ck.serialize_pem()),
    ] {
        std::fs::write(dir.join(f), text).unwrap();
    }
    Pki { dir }
}

/// A TLS controller on 127.0.0.1 that requires a client certificate signed by `p`'s CA,
/// sleeps `DELAY_MS` before its side of each TLS handshake, then greets (OF 1.3) and answers
/// every packet-in with a flow-mod and every echo. Returns the port.
fn tls_controller(p: &Pki) -> u16 {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let ca = CertificateDer::from_pem_file(p.path("ca.pem")).unwrap();
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca).unwrap();
    let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider.clone()).build().unwrap();
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(p.path("ctl.pem")).unwrap().map(Result::unwrap).collect();
    let key = PrivateKeyDer::from_pem_file(p.path("ctl.key")).unwrap();
    let cfg = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS12, &rustls::version::TLS13])
        .unwrap()
        .with_client_cert_verifier(verifier)
        .with_single_cert(chain, key)
        .unwrap();
    let cfg = Arc::new(cfg);
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(s) = s else { break };
            let cfg = cfg.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(DELAY_MS));
                s.set_nodelay(true).unwrap();
                let conn = rustls::ServerConnection::new(cfg).unwrap();
                let mut t = rustls::StreamOwned::new(conn, s);
                if t.write_all(&common::greeting13()).is_err() {
                    return; // the handshake failed (written on the first write)
                }
                let (mut buf, mut chunk) = (Vec::new(), vec![0u8; 65536]);
                loop {
                    let n = match t.read(&mut chunk) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => n,
                    };
                    buf.extend_from_slice(&chunk[..n]);
                    let mut out = Vec::new();
                    for m in common::take_messages(&mut buf) {
                        common::answer13(&m, &mut out);
                    }
                    if !out.is_empty() && t.write_all(&out).is_err() {
                        return;
                    }
                }
            });
        }
    });
    port
}

fn run(tag: &str, p: &Pki, port: u16, extra: &str) -> common::Run {
    let args = format!(
        "--controller 127.0.0.1:{port} --switches 2 --loops 1 --loop-ms 300 --warmup 0 --no-learn --settle-ms 0 --workers 1 \
         --reconnect off --tls-ca {} --tls-cert {} --tls-key {} {extra}",
        p.path("ca.pem"),
        p.path("sw.pem"),
        p.path("sw.key")
    );
    common::run_engine(tag, &args.split_whitespace().collect::<Vec<_>>())
}

fn p50(j: &Value, figure: &str) -> f64 {
    j["handshake"][figure]["p50"].as_f64().unwrap_or_else(|| panic!("handshake.{figure} missing: {}", j["handshake"]))
}

#[test]
fn every_session_over_tls_and_its_handshake_timed_alone() {
    let p = pki("known");
    let port = tls_controller(&p);
    for (mode, versions, want) in [("throughput", "1.2,1.3", "TLSv1_3"), ("latency", "1.2", "TLSv1_2")] {
        let r = run(mode, &p, port, &format!("--mode {mode} --tls-versions {versions}"));
        let j = &r.json;
        assert_eq!(r.code, Some(0), "{mode}: {}", r.stderr);
        assert_eq!(j["handshake"]["sessions_up"], 2, "{mode}: {}", j["handshake"]);
        let t = &j["transport"];
        assert_eq!((t["protocol"].as_str(), t["tls_version"].as_str()), (Some("tls"), Some(want)), "{mode}: {t}");
        assert_eq!(t["sessions_tls"], 2, "{t}");
        assert!(t["cipher_suite"].as_str().unwrap().starts_with(if want == "TLSv1_3" { "TLS13_" } else { "TLS_ECDHE_" }), "{t}");
        assert!(common::u(&j["totals"], "answered") > 0, "{mode}: {}", j["totals"]);
        // the known answer: the controller's wait is in the TLS handshake, and only there
        let (tcp, tls, of) = (p50(j, "tcp_connect_us"), p50(j, "tls_handshake_us"), p50(j, "openflow_handshake_us"));
        assert!(tls >= DELAY_MS as f64 * 1e3, "{mode}: TLS handshake {tls} µs < the controller's {DELAY_MS} ms wait");
        assert!(of < DELAY_MS as f64 * 1e3 && tcp < DELAY_MS as f64 * 1e3, "{mode}: the wait leaked: TCP {tcp} µs, OpenFlow {of} µs");
        assert!(j["switches"][0]["tls_version"].as_str() == Some(want), "{}", j["switches"][0]);
    }
    let _ = std::fs::remove_dir_all(&p.dir);
}

#[test]
fn a_controller_the_ca_did_not_sign_ends_every_session_naming_tls() {
    let (p, other) = (pki("ctl"), pki("other"));
    let port = tls_controller(&p);
    let args = format!(
        "--controller 127.0.0.1:{port} --switches 1 --loops 1 --loop-ms 100 --warmup 0 --no-learn --workers 1 --reconnect off --tls-ca {}",
        other.path("ca.pem")
    );
    let r = common::run_engine("wrong-ca", &args.split_whitespace().collect::<Vec<_>>());
    let f = &r.json["handshake"]["failures"][0]["reason"];
    assert!(f.as_str().unwrap().starts_with("tls: invalid peer certificate"), "{f}");
    assert_eq!(r.json["handshake"]["sessions_up"], 0);
    assert_eq!(r.json["transport"]["sessions_tls"], 0);
    assert_ne!(r.code, Some(0), "{}", r.stderr);
    // a plain-TCP controller: the switch names TLS and the likely cause
    let plain = common::controller(|mut s, _| {
        let _ = common::greet13(&mut s);
        std::thread::sleep(Duration::from_millis(500));
    });
    let args = format!(
        "--controller 127.0.0.1:{plain} --switches 1 --loops 1 --loop-ms 100 --warmup 0 --no-learn --workers 1 --reconnect off --tls-ca {}",
        p.path("ca.pem")
    );
    let r = common::run_engine("plain-ctl", &args.split_whitespace().collect::<Vec<_>>());
    let f = r.json["handshake"]["failures"][0]["reason"].as_str().unwrap().to_string();
    assert!(f.starts_with("tls: ") && f.contains("does the controller speak TLS"), "{f}");
    for d in [&p.dir, &other.dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}
