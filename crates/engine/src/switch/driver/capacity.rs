//! Control-session capacity (RFC 8456 §5.2.1): open sessions one at a time, each with the full
//! handshake and an echo round trip, until the controller refuses, drops or stalls one (or the
//! requested number is reached); then hold them all for `hold_ms` and count the survivors.

use crate::config::{Config, Slice};
use crate::result::Capacity;
use crate::switch::accounting::{SessionState, SwitchStats};
use crate::switch::protocol::{Cmd, Ready, WorkerEvent, WorkerReport, PROTOCOL};
use crate::switch::session::{socket::open, Session};
use crate::switch::shared::{switch_report, Shared};
use std::cell::RefCell;
use std::net::SocketAddr;
use std::rc::Rc;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::{sleep, timeout, Duration, Instant};

pub async fn run(cfg: Config, slice: Slice, mut cmds: UnboundedReceiver<Cmd>, emit: &mut dyn FnMut(WorkerEvent)) {
    let addr: SocketAddr = match crate::config::limits::resolve(cfg.controller()) {
        Ok(a) => a,
        Err(e) => return emit(WorkerEvent::Fatal(e)),
    };
    emit(WorkerEvent::Ready(Ready { worker: slice.worker, protocol: PROTOCOL.into(), pid: std::process::id(), ..Default::default() }));
    if !matches!(cmds.recv().await, Some(Cmd::Go)) {
        return;
    }
    let n = slice.hi - slice.lo;
    let sh = Rc::new(Shared::new(cfg, n));
    let mut rep = Capacity { hold_ms: sh.cfg.hold_ms, ..Default::default() };
    let mut stats: Vec<Rc<RefCell<SwitchStats>>> = Vec::new();
    let t0 = Instant::now();
    let per_session = Duration::from_millis(sh.cfg.connect_timeout_ms);
    for (pos, index) in (slice.lo..slice.hi).enumerate() {
        if let Ok(Some(Cmd::Stop)) | Ok(None) = timeout(Duration::ZERO, cmds.recv()).await {
            break;
        }
        rep.attempted += 1;
        let st = Rc::new(RefCell::new(SwitchStats::new(index, sh.cfg.first_dpid + index as u64, false)));
        stats.push(st.clone());
        let t = Instant::now();
        let sh2 = sh.clone();
        let stream = open(&sh, addr, index, sh.cfg.connect_timeout_ms * 1_000_000).await;
        let mut session = Session::new(sh2, st.clone(), index, pos as u32);
        tokio::task::spawn_local(async move { session.run(stream, addr).await });
        let outcome = timeout(per_session, async {
            loop {
                {
                    let s = st.borrow(); // released before the await below
                    if !s.rare().echo_rtt_ns.is_empty() {
                        return Ok(());
                    }
                    if let Some(d) = &s.disconnect {
                        return Err(d.reason.clone());
                    }
                }
                sleep(Duration::from_micros(200)).await;
            }
        })
        .await;
        match outcome {
            Ok(Ok(())) => {
                rep.established += 1;
                rep.session_ms.push(t.elapsed().as_secs_f64() * 1e3);
            }
            Ok(Err(reason)) => {
                rep.first_failure = Some(reason);
                break;
            }
            Err(_) => {
                rep.first_failure = Some(format!("no handshake + echo within {} ms", sh.cfg.connect_timeout_ms));
                break;
            }
        }
    }
    rep.establish_s = t0.elapsed().as_secs_f64();
    sleep(Duration::from_millis(sh.cfg.hold_ms)).await;
    rep.held = stats
        .iter()
        .filter(|s| {
            let s = s.borrow();
            s.state == SessionState::Up && !s.rare().echo_rtt_ns.is_empty()
        })
        .count() as u32;
    let now = sh.now_ns();
    stats.iter().for_each(|s| s.borrow_mut().close_down_time(now, false));
    let switches = stats.iter().map(|s| switch_report(&s.borrow(), slice.worker, 0)).collect();
    sh.stop_all();
    emit(WorkerEvent::Done(Box::new(WorkerReport {
        worker: slice.worker,
        pid: std::process::id(),
        switches,
        capacity: Some(rep.with_rate()),
        network: None,
        ..Default::default()
    })));
}
