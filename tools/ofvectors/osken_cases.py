"""The messages the vectors cover, in each version, with non-trivial field values."""

import osken_norm as N
import osken_pack as P

MAC1, MAC2 = "02:00:00:00:00:01", "0a:1b:2c:3d:4e:5f"
BMAC1, BMAC2 = bytes.fromhex("020000000001"), bytes.fromhex("0a1b2c3d4e5f")
FRAME = bytes.fromhex("0a1b2c3d4e5f02000000000108004500002e0001000040117a6a0a0000010a000002"
                      "04d2162e001a0000") + bytes(range(18))


def cases(ofp, parser, dp):
    v13 = ofp.OFP_VERSION == 4
    out = []

    def enc(name, kind, build, xid, extra=None):
        def make(ser, dec):
            msg = build()
            raw = ser(msg, xid)
            return "osken-serialize", raw, dict(N.expect_for(ofp, kind, msg), **(extra or {}))
        out.append((name, kind, make))

    def packed(name, kind, raw):
        def make(ser, dec):
            return "osken-struct+parse", raw, N.expect_for(ofp, kind, dec(raw))
        out.append((name, kind, make))

    enc("hello", "hello", lambda: parser.OFPHello(dp), 1)
    if v13:
        packed("hello_bitmap", "hello", P.hello_bitmap(ofp, 2, [0x12]))
        # Only one bitmap word: os-ken's hello parser steps over elements by their unpadded
        # length, so the 4 pad bytes after a 2-word bitmap make it loop forever.
    for typ, code, tname, cname in error_codes(ofp):
        enc("error_%s_%s" % (tname, cname), "error",
            lambda t=typ, c=code: parser.OFPErrorMsg(dp, type_=t, code=c, data=b"\x04\x0e\x00\x50\xde\xad\xbe\xef"),
            0x100 + typ * 32 + code, extra={"type_name": tname, "code_name": cname})
    enc("echo_request", "echo_request", lambda: parser.OFPEchoRequest(dp, data=b"ping-1234"), 0x11)
    enc("echo_reply", "echo_reply", lambda: parser.OFPEchoReply(dp, data=b"\x00\x01\x02\xff"), 0x12)
    enc("echo_request_empty", "echo_request", lambda: parser.OFPEchoRequest(dp, data=b""), 0x13)
    enc("experimenter", "experimenter", lambda: experimenter(ofp, parser, dp), 0x14)
    enc("features_request", "features_request", lambda: parser.OFPFeaturesRequest(dp), 0x20)
    ports = [port_fields(ofp, 1, BMAC1, b"s1-eth1"), port_fields(ofp, ofp.OFPP_LOCAL, BMAC2, b"s1")]
    last = ofp.OFPC_FLOW_STATS if v13 else 0xfff  # 1.0: supported actions bitmap; 1.3: reserved
    packed("features_reply", "features_reply",
           P.features_reply(ofp, 0x21, 0x00000000000000ab, 256, 254, 0xc7, 0 if v13 else last, ports))
    enc("get_config_request", "get_config_request", lambda: parser.OFPGetConfigRequest(dp), 0x22)
    packed("get_config_reply", "get_config_reply", P.switch_config(ofp, ofp.OFPT_GET_CONFIG_REPLY, 0x23, 1, 128))
    enc("set_config", "set_config", lambda: parser.OFPSetConfig(dp, ofp.OFPC_FRAG_REASM, 0xffe5), 0x24)
    packed_in(ofp, parser, packed)
    packed("flow_removed", "flow_removed", P.flow_removed(ofp, 0x31, {
        "cookie": 0x1122334455667788, "priority": 0x7fff, "reason": 1, "table_id": 3, "duration_sec": 86400,
        "duration_nsec": 999999999, "idle_timeout": 60, "hard_timeout": 600, "packet_count": 12345678901,
        "byte_count": 98765432109}, rich_match(ofp, parser)))
    for reason in (ofp.OFPPR_ADD, ofp.OFPPR_DELETE, ofp.OFPPR_MODIFY):
        packed("port_status_%d" % reason, "port_status", P.port_status(ofp, 0x32 + reason, reason, ports[0]))
    enc("packet_out", "packet_out", lambda: parser.OFPPacketOut(
        dp, buffer_id=0xffffffff, in_port=ofp.OFPP_CONTROLLER,
        actions=[parser.OFPActionOutput(ofp.OFPP_FLOOD, 0)], data=FRAME), 0x40)
    enc("packet_out_buffered", "packet_out", lambda: parser.OFPPacketOut(
        dp, buffer_id=0x1234, in_port=2, actions=[parser.OFPActionOutput(3, 0), parser.OFPActionOutput(4, 64)],
        data=None), 0x41)
    flow_mods(ofp, parser, dp, enc)
    enc("port_mod", "port_mod", lambda: parser.OFPPortMod(
        dp, port_no=3, hw_addr=MAC2, config=ofp.OFPPC_PORT_DOWN, mask=ofp.OFPPC_PORT_DOWN | ofp.OFPPC_NO_FWD,
        advertise=0x82f), 0x60)
    if v13:
        group_meter(ofp, parser, dp, enc)
    stats_requests(ofp, parser, dp, enc)
    stats_replies(ofp, parser, packed)
    enc("barrier_request", "barrier_request", lambda: parser.OFPBarrierRequest(dp), 0x90)
    packed("barrier_reply", "barrier_reply", P.message(ofp, ofp.OFPT_BARRIER_REPLY, 0x91, b""))
    if v13:
        enc("role_request", "role_request", lambda: parser.OFPRoleRequest(dp, ofp.OFPCR_ROLE_MASTER, 0x0102030405060708), 0xa0)
        packed("role_reply", "role_reply", P.role_reply(ofp, 0xa1, ofp.OFPCR_ROLE_SLAVE, 0xfffffffffffffffe))
        enc("get_async_request", "get_async_request", lambda: parser.OFPGetAsyncRequest(dp), 0xa2)
        packed("get_async_reply", "get_async_reply", P.get_async_reply(ofp, 0xa3, (3, 1), (7, 0), (15, 2)))
        enc("set_async", "set_async", lambda: parser.OFPSetAsync(dp, [1, 2], [7, 5], [3, 0]), 0xa4)
    return out


ERROR_PREFIXES = {
    "OFPET_HELLO_FAILED": "OFPHFC_", "OFPET_BAD_REQUEST": "OFPBRC_", "OFPET_BAD_ACTION": "OFPBAC_",
    "OFPET_BAD_INSTRUCTION": "OFPBIC_", "OFPET_BAD_MATCH": "OFPBMC_", "OFPET_FLOW_MOD_FAILED": "OFPFMFC_",
    "OFPET_GROUP_MOD_FAILED": "OFPGMFC_", "OFPET_PORT_MOD_FAILED": "OFPPMFC_",
    "OFPET_TABLE_MOD_FAILED": "OFPTMFC_", "OFPET_QUEUE_OP_FAILED": "OFPQOFC_",
    "OFPET_SWITCH_CONFIG_FAILED": "OFPSCFC_", "OFPET_ROLE_REQUEST_FAILED": "OFPRRFC_",
    "OFPET_METER_MOD_FAILED": "OFPMMFC_", "OFPET_TABLE_FEATURES_FAILED": "OFPTFFC_",
}


def error_codes(ofp):
    """Every (type, code) os-ken's ofproto module defines, with their names."""
    names = vars(ofp)
    out = []
    for tname, prefix in ERROR_PREFIXES.items():
        if tname not in names:
            continue
        codes = sorted((v, k) for k, v in names.items() if k.startswith(prefix) and isinstance(v, int))
        out += [(names[tname], v, tname, k) for v, k in codes]
    return out


def experimenter(ofp, parser, dp):
    if ofp.OFP_VERSION == 4:
        return parser.OFPExperimenter(dp, experimenter=0x00002320, exp_type=7, data=b"\x00\x01\x02\x03opaque!!")
    m = parser.OFPVendor(dp)
    m.vendor = 0x00002320
    m.data = b"\x00\x00\x00\x0cnicira-body"
    return m


def port_fields(ofp, port_no, mac, name):
    return {"port_no": port_no, "hw_addr": mac, "name": name, "config": 1, "state": 4,
            "curr": 0x840, "advertised": 0x82f, "supported": 0xfff, "peer": 0x20,
            "curr_speed": 10000000, "max_speed": 40000000}


def rich_match(ofp, parser):
    if ofp.OFP_VERSION == 1:
        return parser.OFPMatch(in_port=2, dl_src=MAC1, dl_dst=MAC2, dl_vlan=100, dl_vlan_pcp=5, dl_type=0x0800,
                               nw_tos=0x28, nw_proto=6, nw_src="10.0.0.1", nw_dst="10.1.0.0", nw_dst_mask=16,
                               tp_src=1234, tp_dst=80)
    return parser.OFPMatch(in_port=2, eth_dst=(MAC2, "ff:ff:ff:00:00:00"), eth_src=MAC1, eth_type=0x0800,
                           vlan_vid=(0x1000 | 100), ip_proto=6, ipv4_src="10.0.0.1",
                           ipv4_dst=("10.1.0.0", "255.255.0.0"), tcp_src=1234, tcp_dst=80)


def packed_in(ofp, parser, packed):
    v13 = ofp.OFP_VERSION == 4
    m = parser.OFPMatch(in_port=7) if v13 else None
    packed("packet_in_miss", "packet_in", P.packet_in(ofp, 0x30, 0xffffffff, len(FRAME), 7, 0, 0, 0, m, FRAME))
    m2 = parser.OFPMatch(in_port=3, eth_type=0x0800, metadata=0xfedcba9876543210) if v13 else None
    packed("packet_in_action_buffered", "packet_in",
           P.packet_in(ofp, 0x35, 0x00000155, 1500, 3, 1, 4, 0xc0ffee00c0ffee, m2, FRAME[:32]))


def all_actions(ofp, parser):
    if ofp.OFP_VERSION == 1:
        return [parser.OFPActionVlanVid(100), parser.OFPActionVlanPcp(3), parser.OFPActionStripVlan(),
                parser.OFPActionSetDlSrc(BMAC1), parser.OFPActionSetDlDst(BMAC2),
                parser.OFPActionSetNwSrc(0x0a000001), parser.OFPActionSetNwDst(0xc0a80101),
                parser.OFPActionSetNwTos(0x28), parser.OFPActionSetTpSrc(5000), parser.OFPActionSetTpDst(6000),
                parser.OFPActionEnqueue(2, 7), parser.OFPActionOutput(ofp.OFPP_CONTROLLER, 0xffff)]
    return [parser.OFPActionPushVlan(0x8100), parser.OFPActionSetField(vlan_vid=0x1000 | 42),
            parser.OFPActionPopVlan(), parser.OFPActionPushMpls(0x8847), parser.OFPActionSetMplsTtl(64),
            parser.OFPActionDecMplsTtl(), parser.OFPActionPopMpls(0x0800), parser.OFPActionCopyTtlOut(),
            parser.OFPActionCopyTtlIn(), parser.OFPActionSetNwTtl(17), parser.OFPActionDecNwTtl(),
            parser.OFPActionPushPbb(0x88e7), parser.OFPActionPopPbb(), parser.OFPActionSetQueue(5),
            parser.OFPActionGroup(9), parser.OFPActionSetField(eth_src=MAC1),
            parser.OFPActionSetField(ipv4_dst="192.168.1.1"),
            parser.OFPActionOutput(ofp.OFPP_CONTROLLER, ofp.OFPCML_NO_BUFFER)]


ALL_OXM = dict(
    in_port=1, in_phy_port=2, metadata=0x0123456789abcdef, eth_dst=MAC2, eth_src=MAC1, eth_type=0x86dd,
    vlan_vid=0x1000 | 10, vlan_pcp=3, ip_dscp=46, ip_ecn=1, ip_proto=58, ipv4_src="10.0.0.1",
    ipv4_dst="10.0.0.2", tcp_src=1, tcp_dst=2, udp_src=3, udp_dst=4, sctp_src=5, sctp_dst=6,
    icmpv4_type=8, icmpv4_code=0, arp_op=1, arp_spa="10.0.0.3", arp_tpa="10.0.0.4", arp_sha=MAC1,
    arp_tha=MAC2, ipv6_src="2001:db8::1", ipv6_dst="2001:db8::2", ipv6_flabel=0x12345, icmpv6_type=135,
    icmpv6_code=0, ipv6_nd_target="2001:db8::3", ipv6_nd_sll=MAC1, ipv6_nd_tll=MAC2, mpls_label=0xabcde,
    mpls_tc=5, mpls_bos=1, pbb_isid=0x123456, tunnel_id=0xdeadbeefcafe, ipv6_exthdr=0x1ff,
)
MASKED_OXM = dict(
    metadata=(0x0123456789abcdef, 0xffffffff00000000), eth_dst=(MAC2, "ff:ff:ff:00:00:00"),
    eth_src=(MAC1, "01:00:00:00:00:00"), vlan_vid=(0x1000, 0x1000), ipv4_src=("10.0.0.0", "255.0.0.0"),
    ipv4_dst=("10.1.2.0", "255.255.255.0"), arp_spa=("10.0.0.0", "255.255.0.0"),
    arp_tpa=("10.9.0.0", "255.255.0.0"), arp_sha=(MAC1, "ff:ff:ff:ff:ff:00"), arp_tha=(MAC2, "ff:00:00:00:00:00"),
    ipv6_src=("2001:db8::", "ffff:ffff::"), ipv6_dst=("2001:db8:1::", "ffff:ffff:ffff::"),
    ipv6_flabel=(0x12345, 0xfffff), pbb_isid=(0x123456, 0xff0000), tunnel_id=(0xdead, 0xffff),
    ipv6_exthdr=(0x100, 0x1f0),
)


def flow_mods(ofp, parser, dp, enc):
    v13 = ofp.OFP_VERSION == 4
    if not v13:
        enc("flow_mod_add_all_actions", "flow_mod", lambda: parser.OFPFlowMod(
            dp, match=rich_match(ofp, parser), cookie=0xfeedfacecafebeef, command=ofp.OFPFC_ADD,
            idle_timeout=10, hard_timeout=300, priority=0x1234, buffer_id=0x77, out_port=ofp.OFPP_NONE,
            flags=ofp.OFPFF_SEND_FLOW_REM | ofp.OFPFF_CHECK_OVERLAP, actions=all_actions(ofp, parser)), 0x50)
        enc("flow_mod_delete_wildcard", "flow_mod", lambda: parser.OFPFlowMod(
            dp, match=parser.OFPMatch(), command=ofp.OFPFC_DELETE, out_port=3, actions=[]), 0x51)
        return
    ins = [parser.OFPInstructionMeter(3), parser.OFPInstructionActions(ofp.OFPIT_APPLY_ACTIONS, all_actions(ofp, parser)),
           parser.OFPInstructionActions(ofp.OFPIT_CLEAR_ACTIONS, []),
           parser.OFPInstructionActions(ofp.OFPIT_WRITE_ACTIONS, [parser.OFPActionGroup(1), parser.OFPActionOutput(2, 0)]),
           parser.OFPInstructionWriteMetadata(0x1111, 0xffff), parser.OFPInstructionGotoTable(5)]
    enc("flow_mod_add_rich", "flow_mod", lambda: parser.OFPFlowMod(
        dp, cookie=0xfeedfacecafebeef, cookie_mask=0xffffffff00000000, table_id=1, command=ofp.OFPFC_ADD,
        idle_timeout=10, hard_timeout=300, priority=0x1234, buffer_id=0x77, out_port=ofp.OFPP_ANY,
        out_group=ofp.OFPG_ANY, flags=ofp.OFPFF_SEND_FLOW_REM | ofp.OFPFF_NO_BYT_COUNTS,
        match=rich_match(ofp, parser), instructions=ins), 0x50)
    enc("flow_mod_every_oxm_field", "flow_mod", lambda: parser.OFPFlowMod(
        dp, command=ofp.OFPFC_MODIFY_STRICT, priority=7, match=parser.OFPMatch(**ALL_OXM),
        instructions=[parser.OFPInstructionGotoTable(1)]), 0x52)
    enc("flow_mod_every_mask", "flow_mod", lambda: parser.OFPFlowMod(
        dp, command=ofp.OFPFC_DELETE, table_id=ofp.OFPTT_ALL, out_port=5, out_group=ofp.OFPG_ANY,
        match=parser.OFPMatch(**MASKED_OXM), instructions=[]), 0x53)
    enc("flow_mod_table_miss", "flow_mod", lambda: parser.OFPFlowMod(
        dp, priority=0, match=parser.OFPMatch(), instructions=[parser.OFPInstructionActions(
            ofp.OFPIT_APPLY_ACTIONS, [parser.OFPActionOutput(ofp.OFPP_CONTROLLER, ofp.OFPCML_NO_BUFFER)])]), 0x54)


def group_meter(ofp, parser, dp, enc):
    buckets = [parser.OFPBucket(weight=10, watch_port=2, watch_group=ofp.OFPG_ANY,
                                actions=[parser.OFPActionSetField(eth_dst=MAC2), parser.OFPActionOutput(2, 0)]),
               parser.OFPBucket(weight=20, watch_port=3, watch_group=7, actions=[parser.OFPActionOutput(3, 0)])]
    enc("group_mod_select", "group_mod", lambda: parser.OFPGroupMod(
        dp, command=ofp.OFPGC_ADD, type_=ofp.OFPGT_SELECT, group_id=42, buckets=buckets), 0x70)
    enc("group_mod_delete", "group_mod", lambda: parser.OFPGroupMod(
        dp, command=ofp.OFPGC_DELETE, type_=ofp.OFPGT_ALL, group_id=ofp.OFPG_ALL, buckets=[]), 0x71)
    bands = [parser.OFPMeterBandDrop(rate=1000, burst_size=100),
             parser.OFPMeterBandDscpRemark(rate=500, burst_size=50, prec_level=2),
             parser.OFPMeterBandExperimenter(rate=10, burst_size=1, experimenter=0x2320)]
    enc("meter_mod_add", "meter_mod", lambda: parser.OFPMeterMod(
        dp, command=ofp.OFPMC_ADD, flags=ofp.OFPMF_KBPS | ofp.OFPMF_BURST | ofp.OFPMF_STATS, meter_id=3,
        bands=bands), 0x72)


def stats_requests(ofp, parser, dp, enc):
    v13 = ofp.OFP_VERSION == 4
    enc("stats_request_desc", "stats_request_desc", lambda: parser.OFPDescStatsRequest(dp, 0), 0x80)
    if v13:
        flow = lambda cls: cls(dp, 0, table_id=1, out_port=3, out_group=4, cookie=0xabc, cookie_mask=0xfff,
                               match=rich_match(ofp, parser))
        port = lambda: parser.OFPPortStatsRequest(dp, 0, 5)
        queue = lambda: parser.OFPQueueStatsRequest(dp, 0, ofp.OFPP_ANY, ofp.OFPQ_ALL)
        enc("stats_request_port_desc", "stats_request_port_desc", lambda: parser.OFPPortDescStatsRequest(dp, 0), 0x87)
    else:
        flow = lambda cls: cls(dp, 0, rich_match(ofp, parser), 0xff, ofp.OFPP_NONE)
        port = lambda: parser.OFPPortStatsRequest(dp, 0, 5)
        queue = lambda: parser.OFPQueueStatsRequest(dp, 0, ofp.OFPP_ALL, ofp.OFPQ_ALL)
    enc("stats_request_flow", "stats_request_flow", lambda: flow(parser.OFPFlowStatsRequest), 0x81)
    enc("stats_request_aggregate", "stats_request_aggregate", lambda: flow(parser.OFPAggregateStatsRequest), 0x82)
    enc("stats_request_table", "stats_request_table", lambda: parser.OFPTableStatsRequest(dp, 0), 0x83)
    enc("stats_request_port", "stats_request_port", port, 0x84)
    enc("stats_request_queue", "stats_request_queue", queue, 0x85)


def stats_replies(ofp, parser, packed):
    v13 = ofp.OFP_VERSION == 4
    k = (lambda n: getattr(ofp, "OFPMP_" + n)) if v13 else (lambda n: getattr(ofp, "OFPST_" + n))
    body = P.desc(ofp, b"Nicira, Inc.", b"Open vSwitch", b"3.1.0", b"None", b"s1 datapath")
    packed("stats_reply_desc", "stats_reply_desc", P.stats_reply(ofp, 0x88, k("DESC"), 0, body))
    f = {"table_id": 0, "duration_sec": 12, "duration_nsec": 345000000, "priority": 100, "idle_timeout": 10,
         "hard_timeout": 0, "flags": 1, "cookie": 0xabcdef, "packet_count": 42, "byte_count": 4200}
    if v13:
        tail = P.serialized_instructions([parser.OFPInstructionActions(ofp.OFPIT_APPLY_ACTIONS, [parser.OFPActionOutput(2, 0)])])
    else:
        tail = P.serialized_actions([parser.OFPActionOutput(2, 0), parser.OFPActionSetNwTos(8)])
    entries = P.flow_stats(ofp, f, rich_match(ofp, parser), tail) + P.flow_stats(ofp, dict(f, table_id=1, priority=0), parser.OFPMatch(), b"")
    packed("stats_reply_flow", "stats_reply_flow", P.stats_reply(ofp, 0x89, k("FLOW"), 1, entries))
    packed("stats_reply_aggregate", "stats_reply_aggregate", P.stats_reply(ofp, 0x8a, k("AGGREGATE"), 0, P.aggregate(ofp, 1000, 64000, 3)))
    t = {"table_id": 0, "name": b"classifier", "wildcards": 0x3fffff, "max_entries": 1000000, "active_count": 3,
         "lookup_count": 100, "matched_count": 97}
    packed("stats_reply_table", "stats_reply_table", P.stats_reply(ofp, 0x8b, k("TABLE"), 0, P.table_stats(ofp, t) + P.table_stats(ofp, dict(t, table_id=1, active_count=0))))
    counters = [i * 1000 + 7 for i in range(12)]
    ports = P.port_stats(ofp, 1, counters, (30, 5)) + P.port_stats(ofp, 2, counters[::-1], (31, 6))
    packed("stats_reply_port", "stats_reply_port", P.stats_reply(ofp, 0x8c, k("PORT_STATS" if v13 else "PORT"), 0, ports))
    q = P.queue_stats(ofp, 1, 0, 5000, 50, 1, (9, 8))
    packed("stats_reply_queue", "stats_reply_queue", P.stats_reply(ofp, 0x8d, k("QUEUE"), 0, q))
    if v13:
        pd = P.port(ofp, port_fields(ofp, 1, BMAC1, b"s1-eth1")) + P.port(ofp, port_fields(ofp, 2, BMAC2, b"s1-eth2"))
        packed("stats_reply_port_desc", "stats_reply_port_desc", P.stats_reply(ofp, 0x8e, k("PORT_DESC"), 0, pd))
