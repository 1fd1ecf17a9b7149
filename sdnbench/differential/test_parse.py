"""os-ken's parser as one process for the whole command (``parse._PARSER``): batches answered in
order by the same process, started again after it was closed or died."""

from . import parse

HELLO13 = bytes.fromhex("0400000800000001")
HELLO10 = bytes.fromhex("0100000800000002")


def test_one_parser_process_answers_every_batch_and_comes_back_after_it_ends():
    assert parse.parse_raw([HELLO13, HELLO10]) == [{"OFPHello": {"elements": []}}, {"OFPHello": {}}]
    pid = parse._PARSER.p.pid
    assert parse.parse_raw([b"\x04\x63\x00\x08\x00\x00\x00\x03"])[0]["unparsed"], "a type os-ken does not know"
    assert parse._PARSER.p.pid == pid
    parse._PARSER.p.kill()
    parse._PARSER.p.wait()
    assert parse.parse_raw([HELLO13]) == [{"OFPHello": {"elements": []}}]
    assert parse._PARSER.p.pid != pid
    parse._PARSER.close()
    assert parse._PARSER.p is None
