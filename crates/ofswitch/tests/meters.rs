//! Meters on the emulated switch, on a scripted clock: a drop band passes what its token
//! bucket allows (known answers in packets per second and kilobits per second), meter-mods
//! refused with Open vSwitch's errors, meter stats, config and features.

mod common;
use common::*;
use ofswitch::frames;
use ofwire::error_names::{error_type, meter_mod_failed};
use ofwire::group_stats::parse_list;
use ofwire::meter_stats::*;
use ofwire::{Body, Instruction, MeterBand, MeterMod, Oxm, OxmMatch, StatsReplyBody, StatsRequest, StatsRequestBody};

const MS: u64 = 1_000_000;

fn meter_mod(command: u16, flags: u16, meter_id: u32, bands: Vec<MeterBand>) -> Vec<u8> {
    message(V13, 60, Body::MeterMod(MeterMod { command, flags, meter_id, bands }))
}

fn drop_band(rate: u32, burst_size: u32) -> MeterBand {
    MeterBand::Drop { rate, burst_size }
}

/// in_port=1 → meter `m`, then output:2 (the os-ken meter tests' flow).
fn metered(m: u32) -> Vec<u8> {
    let ins = vec![Instruction::Meter(m), Instruction::ApplyActions(vec![output(2)])];
    flow_mod(V13, add13(0, 10, OxmMatch::new(vec![Oxm::in_port(1)]), ins))
}

fn multipart(s: &mut ofswitch::Switch, now: u64, typ: u16, data: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::new();
    let req = message(V13, 70, Body::StatsRequest(StatsRequest { flags: 0, body: StatsRequestBody::Unknown { typ, data } }));
    s.on_message(now, &req, &mut out).unwrap();
    match decode(&out).remove(0).body {
        Body::StatsReply(r) => match r.body {
            StatsReplyBody::Unknown { data, .. } => data,
            b => panic!("{b:?}"),
        },
        b => panic!("{b:?}"),
    }
}

/// Offer `pps` frames of `size` bytes a second for `secs` seconds; how many left on port 2.
fn offer(s: &mut ofswitch::Switch, outs: &mut [Vec<u8>], pps: u64, secs: u64, size: usize) -> usize {
    let frame = frames::udp_frame(0, 10, 1, 2, 0, size);
    let step = 1_000_000_000 / pps;
    s.tx.clear();
    for i in 0..pps * secs {
        s.receive_frame(i * step, 1, &frame, outs);
    }
    s.tx.len()
}

/// 100 packets/s, no burst given (Open vSwitch then takes the rate: a bucket of 100 packets,
/// full at the start), 200 packets/s offered for 10 s: 100 + 100 × 10 pass.
#[test]
fn drop_meter_in_packets_per_second_passes_its_rate() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    assert_eq!(send(&mut s, &mut outs, &meter_mod(MC_ADD, MF_PKTPS, 1, vec![drop_band(100, 0)])), vec![]);
    assert_eq!(send(&mut s, &mut outs, &metered(1)), vec![]);
    let passed = offer(&mut s, &mut outs, 200, 10, 64);
    assert!((1099..=1101).contains(&passed), "passed {passed}");
    let st = parse_list(&multipart(&mut s, 10_000 * MS, MP_METER, M_ALL.to_be_bytes().to_vec()), MeterStats::parse).unwrap();
    assert_eq!((st[0].meter_id, st[0].flow_count, st[0].packet_in_count, st[0].byte_in_count), (1, 1, 2000, 2000 * 64));
    assert_eq!(st[0].bands, vec![(2000 - passed as u64, (2000 - passed as u64) * 64)], "the band counts what it dropped");
    assert_eq!(st[0].duration_sec, 10);
    // the config reports the band as installed, burst 0 included (as CPqD; os-ken's tool
    // compares them exactly: Open vSwitch's rate there is its "Added incorrect meters")
    let c = parse_list(&multipart(&mut s, 0, MP_METER_CONFIG, M_ALL.to_be_bytes().to_vec()), MeterConfig::parse).unwrap();
    assert_eq!(c, vec![MeterConfig { flags: MF_PKTPS, meter_id: 1, bands: vec![drop_band(100, 0)] }]);
}

/// 1,000 kb/s with a 1,000 kb burst, 1,500-byte frames (12,000 bits) at 200/s (2.4 Mb/s) for
/// 10 s: (1e6 + 1e6 × 10) / 12,000 = 916.7 frames pass.
#[test]
fn drop_meter_in_kilobits_per_second_passes_its_rate() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    assert_eq!(send(&mut s, &mut outs, &meter_mod(MC_ADD, MF_KBPS | MF_BURST, 3, vec![drop_band(1000, 1000)])), vec![]);
    send(&mut s, &mut outs, &metered(3));
    let passed = offer(&mut s, &mut outs, 200, 10, 1500);
    assert!((915..=918).contains(&passed), "passed {passed}");
    // a higher rate than offered drops nothing
    send(&mut s, &mut outs, &meter_mod(MC_MODIFY, MF_KBPS, 3, vec![drop_band(10_000, 0)]));
    assert_eq!(offer(&mut s, &mut outs, 200, 2, 1500), 400);
}

/// A DSCP-remark band (os-ken's `02_DSCP_REMARK_01_PKTPS_00_100`: 100 packets/s, prec_level 1)
/// on IPv4 frames of DSCP 18 (AF21) at 200/s for 10 s from the meter's creation: every frame
/// passes. As CPqD, the band starts empty and fills at each new second: the first second's 200
/// leave remarked, then 100 a second keep DSCP 18 (9 × 100) and the rest leave with DSCP 20
/// (AF22, 1,100), their IPv4 checksum right; the band counts the 1,100 and the config reads
/// back as installed.
#[test]
fn dscp_remark_band_raises_the_drop_precedence_beyond_its_rate() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    let band = MeterBand::DscpRemark { rate: 100, burst_size: 0, prec_level: 1 };
    assert_eq!(send(&mut s, &mut outs, &meter_mod(MC_ADD, MF_PKTPS, 1, vec![band.clone()])), vec![]);
    send(&mut s, &mut outs, &metered(1));
    let mut frame = frames::udp_frame(0, 10, 1, 2, 0, 64);
    frame[15] = 18 << 2;
    assert!(ofswitch::checksum::fix(&mut frame));
    s.tx.clear();
    for i in 0..2000u64 {
        s.receive_frame(i * 5 * MS, 1, &frame, &mut outs);
    }
    let dscps: Vec<u8> = s.tx.iter().map(|(_, f)| f[15] >> 2).collect();
    assert_eq!(dscps.len(), 2000);
    let remarked = dscps.iter().filter(|d| **d == 20).count();
    assert!(remarked == 1100 && dscps.iter().all(|d| *d == 18 || *d == 20), "remarked {remarked}");
    assert!(dscps[..200].iter().all(|d| *d == 20), "the first second, before the first fill, is all remarked");
    assert!(dscps[200..300].iter().all(|d| *d == 18) && dscps[300..400].iter().all(|d| *d == 20), "each second: 100 kept, then remarked");
    let st = parse_list(&multipart(&mut s, 10_000 * MS, MP_METER, M_ALL.to_be_bytes().to_vec()), MeterStats::parse).unwrap();
    assert_eq!(st[0].bands[0].0, 1100, "the band counts what it remarked");
    let out = s.tx.iter().map(|(_, f)| f.clone()).find(|f| f[15] >> 2 == 20).unwrap();
    let mut fixed = out.clone();
    ofswitch::checksum::fix(&mut fixed);
    assert_eq!(out, fixed, "the IPv4 checksum follows the new DSCP");
    let c = parse_list(&multipart(&mut s, 0, MP_METER_CONFIG, M_ALL.to_be_bytes().to_vec()), MeterConfig::parse).unwrap();
    assert_eq!(c[0].bands, vec![band]);
}

#[test]
fn meter_mod_errors_are_open_vswitchs() {
    let (mut s, mut outs) = switch(V13, 1, 4, |_| {});
    send(&mut s, &mut outs, &meter_mod(MC_ADD, MF_KBPS, 1, vec![drop_band(10, 0)]));
    let exp = MeterBand::Experimenter { rate: 10, burst_size: 0, experimenter: 0x2320, data: vec![] };
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (meter_mod(MC_ADD, MF_KBPS, 1, vec![drop_band(10, 0)]), meter_mod_failed::METER_EXISTS, "add twice"),
        (meter_mod(MC_MODIFY, MF_KBPS, 9, vec![drop_band(10, 0)]), meter_mod_failed::UNKNOWN_METER, "modify a missing meter"),
        (meter_mod(MC_ADD, MF_KBPS, 0, vec![drop_band(10, 0)]), meter_mod_failed::INVALID_METER, "meter 0"),
        (meter_mod(MC_ADD, MF_KBPS, M_ALL, vec![drop_band(10, 0)]), meter_mod_failed::INVALID_METER, "OFPM_ALL"),
        (meter_mod(MC_ADD, MF_KBPS | MF_PKTPS, 2, vec![drop_band(10, 0)]), meter_mod_failed::BAD_FLAGS, "kbps and pktps"),
        (meter_mod(MC_ADD, 0x10, 2, vec![drop_band(10, 0)]), meter_mod_failed::BAD_FLAGS, "an unknown flag"),
        (meter_mod(MC_ADD, MF_KBPS, 2, vec![exp]), meter_mod_failed::BAD_BAND, "an experimenter band"),
        (meter_mod(MC_ADD, MF_KBPS, 2, vec![drop_band(0, 0)]), meter_mod_failed::BAD_RATE, "rate 0"),
        (meter_mod(MC_ADD, MF_KBPS, 2, vec![drop_band(10, 0); 9]), meter_mod_failed::OUT_OF_BANDS, "9 bands"),
        (meter_mod(7, MF_KBPS, 2, vec![]), meter_mod_failed::BAD_COMMAND, "command 7"),
        (metered(5), meter_mod_failed::UNKNOWN_METER, "a flow naming a missing meter"),
    ];
    for (msg, code, what) in cases {
        assert_eq!(send(&mut s, &mut outs, &msg), vec![(error_type::v13::METER_MOD_FAILED, code)], "{what}");
    }
    assert_eq!(send(&mut s, &mut outs, &meter_mod(MC_DELETE, 0, 77, vec![])), vec![], "delete a missing meter");
    assert_eq!(send(&mut s, &mut outs, &meter_mod(MC_DELETE, 0, M_ALL, vec![])), vec![]);
    assert!(s.meters.map.is_empty());
    let f = MeterFeatures::parse(&multipart(&mut s, 0, MP_METER_FEATURES, vec![])).unwrap();
    assert_eq!((f.max_meter, f.band_types, f.capabilities, f.max_bands), (1 << 18, 2 | 4, 0xf, 8));
}

#[test]
fn a_switch_without_meters_refuses_a_meter_mod() {
    let (mut s, mut outs) = switch(V13, 1, 4, |c| c.max_meter = 0);
    let e = send(&mut s, &mut outs, &meter_mod(MC_ADD, MF_KBPS, 1, vec![drop_band(10, 0)]));
    assert_eq!(e, vec![(error_type::v13::METER_MOD_FAILED, meter_mod_failed::INVALID_METER)]);
    assert_eq!(MeterFeatures::parse(&multipart(&mut s, 0, MP_METER_FEATURES, vec![])).unwrap(), MeterFeatures::default());
}
