"""The tool's log, as recorded from real runs (``testdata/``), read into outcomes."""

from pathlib import Path

from .logparse import ERROR, OK, LogParser, parse

DATA = Path(__file__).with_name("testdata")


def _lines(name: str) -> list:
    return (DATA / name).read_text().splitlines(keepends=True)


def test_an_ovs_run_gives_every_test_its_file_and_result_and_matches_the_tools_counts():
    p = parse(_lines("ovs13_output_eth_dst.log"))
    assert p.ended and p.counts == (11, 1) and p.check_counts() is None
    assert [o.file for o in p.outcomes] == ["action: 00_OUTPUT"] * 3 + ["match: 03_ETH_DST"] * 9
    [err] = [o for o in p.outcomes if o.result == ERROR]
    assert err.test == "ethernet(dst='22:22:22:22:22:22')/arp-->'eth_dst=22:22:22:22:22:22,actions=output:CONTROLLER'"
    assert err.reason == "Receiving timeout: no packet-in."
    assert p.outcomes[0].test == "ethernet/ipv4/tcp-->'actions=output:2'" and p.outcomes[0].result == OK
    assert [d for d, _ in p.joins] == ["0000000000000002", "0000000000000001"]


def test_the_report_section_is_not_read_as_more_tests():
    p = parse(_lines("emulated13_copy_ttl_out.log"))
    assert len(p.outcomes) == 5 and p.counts == (3, 2) and p.check_counts() is None
    assert [o.reason for o in p.outcomes if o.result == ERROR] == ["Received incorrect packet: mpls(ttl=64)"] * 2


def test_known_file_descriptions_are_the_only_file_lines_when_given():
    files = frozenset({"action: 00_OUTPUT", "action: 11_COPY_TTL_OUT"})
    p = parse(_lines("emulated13_copy_ttl_out.log"), files)
    assert {o.file for o in p.outcomes} == files


def test_throughput_dots_and_carriage_returns_do_not_hide_a_result():
    p = parse(_lines("ovs13_group_throughput_excerpt.log"))
    assert [o.result for o in p.outcomes] == [ERROR] * 3
    assert all(o.file == "group: 00_ALL" and o.reason.startswith("Received unexpected throughput: ")
               for o in p.outcomes)


def test_outcomes_arrive_as_they_complete_an_error_when_its_reason_comes():
    p = LogParser()
    assert p.feed("action: 00_OUTPUT\n") == []
    assert [o.result for o in p.feed("    a-->'x'   OK\n")] == [OK]
    assert p.feed("    b-->'y'   ERROR\n") == []
    [o] = p.feed("        Failed to add flows: OFPErrorMsg[type=0x01, code=0x05]\n")
    assert (o.test, o.reason) == ("b-->'y'", "Failed to add flows: OFPErrorMsg[type=0x01, code=0x05]")
    p.feed("    c-->'z'   ERROR\n")
    assert [x.test for x in p.close()] == ["c-->'z'"]


def test_a_count_the_parser_missed_is_reported():
    p = parse(["action: 00_OUTPUT", "    a   OK", "---  Test end  ---", "OK(2) / ERROR(0)"])
    assert p.check_counts() == "parsed OK 1 / ERROR 0, the tool counted OK 2 / ERROR 0"
    assert parse(["---  Test end  ---"]).check_counts() == "the tool ended without its OK/ERROR counts"


def test_where_the_tool_was_when_a_switch_died():
    lines = _lines("ovs13_output_eth_dst.log")
    cut = next(i for i, line in enumerate(lines) if line.startswith("match: 03_ETH_DST")) + 3
    p = LogParser()
    assert p.where() == "before the first test"
    for line in lines[:cut]:
        p.feed(line)
    p.close()
    done = [o for o in p.outcomes if o.file == "match: 03_ETH_DST"]
    assert p.where() == (f"in match: 03_ETH_DST (its test {len(done) + 1}; the last finished: "
                         f"{p.outcomes[-1].file} / {p.outcomes[-1].test})")


def test_progress_dots_before_a_result_line_do_not_hide_it():
    p = parse(["meter: 01_DROP_01_PKTPS_02_10000\n",
               "....\r\n",
               "...    20000pktps(ethernet/ipv6/tcp)-->'in_port=1,actions=meter:10000pktps(drop),output:2'   ERROR\n",
               "        Received unexpected throughput: {'in_port': 2} 3627.35pktps\n",
               ".\r    20000pktps(ethernet/arp)-->'x'   OK\n"], files=frozenset({"meter: 01_DROP_01_PKTPS_02_10000"}))
    assert [(o.result, o.reason) for o in p.outcomes] == [
        ("ERROR", "Received unexpected throughput: {'in_port': 2} 3627.35pktps"), ("OK", "")]
