//! The responder's greeting: HELLO, then FEATURES_REQUEST once the switch's HELLO is read. A
//! switch whose HELLO is in before the responder accepts (the usual case at scale) gets both in
//! one write: one data segment, not two (issue 32). Counted by the kernel (TCP_INFO).

use ofwire::{frame_len, Body, Header, Hello, Message, MsgType, Version};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

struct Responder(Child);

impl Drop for Responder {
    fn drop(&mut self) {
        unsafe { libc::kill(self.0.id() as i32, libc::SIGCONT) };
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One test at a time: both take a port that was free a moment before, and two responders given
/// the same one left one test talking to the other's responder, which then went away (a CI run:
/// "Connection refused" after the listen check had passed).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A responder listening on a port of its own: one that could not bind it (taken meanwhile) has
/// exited, and the port is drawn again; the listen check only counts while our child runs.
fn start() -> (Responder, u16) {
    for _ in 0..5 {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut r = Responder(
            Command::new(env!("CARGO_BIN_EXE_sdnbench-responder"))
                .args(["--listen", &format!("127.0.0.1:{port}"), "--of", "1.3"])
                .spawn()
                .unwrap(),
        );
        let until = Instant::now() + Duration::from_secs(10);
        while r.0.try_wait().unwrap().is_none() {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() && r.0.try_wait().unwrap().is_none() {
                return (r, port);
            }
            assert!(Instant::now() < until, "the responder did not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    panic!("no responder could listen on a free port in 5 tries");
}

/// Data segments this socket received (`tcpi_data_segs_in`).
fn data_segments_in(s: &TcpStream) -> u32 {
    let mut ti: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    let r = unsafe { libc::getsockopt(s.as_raw_fd(), libc::IPPROTO_TCP, libc::TCP_INFO, &mut ti as *mut _ as *mut _, &mut len) };
    assert_eq!(r, 0);
    ti.tcpi_data_segs_in
}

/// The message types the switch reads until it has `n` messages.
fn read_types(s: &mut TcpStream, n: usize) -> Vec<MsgType> {
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let (mut buf, mut types) = (Vec::new(), Vec::new());
    while types.len() < n {
        let mut chunk = [0u8; 512];
        let k = s.read(&mut chunk).expect("the responder's greeting");
        assert!(k > 0, "closed after {types:?}");
        buf.extend_from_slice(&chunk[..k]);
        while let Ok(Some(len)) = frame_len(&buf) {
            if buf.len() < len {
                break;
            }
            let h = Header::new_unchecked(&buf[..len]);
            types.push(MsgType::from_wire(h.version(), h.msg_type()));
            buf.drain(..len);
        }
    }
    types
}

fn hello() -> Vec<u8> {
    Message::new(Version::V13, 7, Body::Hello(Hello::with_versions(&[1, 4]))).to_vec()
}

#[test]
fn a_hello_in_before_accept_gets_hello_and_features_request_in_one_segment() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (r, port) = start();
    // stopped, the responder cannot accept: the switch's HELLO is queued with the connection
    unsafe { libc::kill(r.0.id() as i32, libc::SIGSTOP) };
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.write_all(&hello()).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    unsafe { libc::kill(r.0.id() as i32, libc::SIGCONT) };
    assert_eq!(read_types(&mut s, 2), vec![MsgType::Hello, MsgType::FeaturesRequest]);
    assert_eq!(data_segments_in(&s), 1);
}

#[test]
fn a_hello_after_accept_is_answered_too() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_r, port) = start();
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    assert_eq!(read_types(&mut s, 1), vec![MsgType::Hello]);
    s.write_all(&hello()).unwrap();
    assert_eq!(read_types(&mut s, 1), vec![MsgType::FeaturesRequest]);
    assert_eq!(data_segments_in(&s), 2);
}
