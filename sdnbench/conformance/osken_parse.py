"""Run by the os-ken environment's Python (not sdnbench's): OpenFlow messages in (JSON list of
[version, hex] on stdin), os-ken's parse of each out (JSON list of ``to_jsondict()`` objects, or
{"unparsed": reason}). Kept free of sdnbench imports: it runs where sdnbench is not installed."""

import binascii
import json
import sys


def main() -> None:
    from os_ken.ofproto import ofproto_parser, ofproto_protocol

    items = json.load(sys.stdin)
    out = []
    dps = {}
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
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
