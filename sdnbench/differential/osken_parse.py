"""Run by the os-ken environment's Python (not sdnbench's): OpenFlow messages in (JSON list of
[version, hex] on stdin), os-ken's parse of each out (JSON list of ``to_jsondict()`` objects, or
{"unparsed": reason}). Kept free of sdnbench imports: it runs where sdnbench is not installed.

With ``--serve`` it reads one such list a line and answers each with one line, until its stdin
closes (one process, os-ken imported once, for every run of a ``sdnbench conformance``)."""

import binascii
import json
import sys


def parse(items: list, dps: dict) -> list:
    from os_ken.ofproto import ofproto_parser, ofproto_protocol

    out = []
    for version, hexdata in items:
        buf = binascii.unhexlify(hexdata)
        dp = dps.get(version)
        if dp is None:
            dp = dps[version] = ofproto_protocol.ProtocolDesc(version)
        try:
            v, t, n, xid = ofproto_parser.header(buf)
            msg = ofproto_parser.msg(dp, v, t, n, xid, buf)
            out.append(msg.to_jsondict() if msg is not None else {"unparsed": f"type {t}"})
        except Exception as e:               # a message os-ken cannot read is itself a finding
            out.append({"unparsed": f"{type(e).__name__}: {e}"[:200]})
    return out


def main() -> None:
    dps: dict = {}
    if sys.argv[1:] == ["--serve"]:
        for line in sys.stdin:
            sys.stdout.write(json.dumps(parse(json.loads(line), dps)) + "\n")
            sys.stdout.flush()
        return
    json.dump(parse(json.load(sys.stdin), dps), sys.stdout)


if __name__ == "__main__":
    main()
