"""Pure: an OpenFlow 1.3 TABLE_FEATURES reply part read from the wire (os-ken's parse of one
takes minutes for Open vSwitch's 254 tables on a loaded machine, and its JSON runs to tens of
MB), one comparable item per table.

An item holds what a controller sizes its pipeline by: max_entries, config, metadata match and
write masks, and each property as its type and its sorted ids (instructions, next tables,
actions, match fields; an experimenter property as its bytes). Left out: the table id (tables
with the same features collapse into one item; the table count is FEATURES_REPLY's
``n_tables``, compared), the table name (a description string, as ``mfr_desc`` and port names),
how tables are split over the parts of the reply and the order of ids within a property
(OpenFlow 1.3.5 §7.3.5.18 gives neither an order). Next tables are written relative to the
table (``next-253``), so that a pipeline's tables with the same features collapse."""

from __future__ import annotations

import struct

MULTIPART_REPLY, OFPMP_TABLE_FEATURES = 19, 12
# property type -> bytes per id (ofp_instruction / ofp_action header: 4; table id: 1; OXM header: 4)
ID_SIZE = {0: 4, 1: 4, 2: 1, 3: 1, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4, 10: 4, 12: 4, 13: 4, 14: 4, 15: 4}
PROP_NAMES = {0: "instructions", 1: "instructions_miss", 2: "next_tables", 3: "next_tables_miss",
              4: "write_actions", 5: "write_actions_miss", 6: "apply_actions", 7: "apply_actions_miss",
              8: "match", 10: "wildcards", 12: "write_setfield", 13: "write_setfield_miss",
              14: "apply_setfield", 15: "apply_setfield_miss", 0xFFFE: "experimenter", 0xFFFF: "experimenter_miss"}


def is_table_features_reply(raw: bytes) -> bool:
    return len(raw) >= 16 and raw[0] == 4 and raw[1] == MULTIPART_REPLY and struct.unpack("!H", raw[8:10])[0] == OFPMP_TABLE_FEATURES


def _tables(tid: int, ids: list) -> str:
    """Table ids as ranges, the one right after the table itself written ``next`` (each table of
    a pipeline names the tables after it: Open vSwitch's table n lists n+1..253)."""
    out, run = [], []
    for t in sorted(set(ids)) + [None]:
        if run and t == run[-1] + 1:
            run.append(t)
            continue
        if run:
            lo = "next" if run[0] == tid + 1 else str(run[0])
            out.append(lo if len(run) == 1 else f"{lo}-{run[-1]}")
        run = [t] if t is not None else []
    return ",".join(out)


def _prop(tid: int, ptype: int, body: bytes) -> str:
    size = ID_SIZE.get(ptype)
    name = PROP_NAMES.get(ptype, f"type{ptype}")
    if ptype in (2, 3):
        return f"{name}=[{_tables(tid, list(body))}]"
    if size is None:
        return f"{name}={body.hex()}"
    ids = sorted(body[i:i + size].hex() for i in range(0, len(body) - len(body) % size, size))
    return f"{name}=[{','.join(ids)}]"


def items(raw: bytes) -> list:
    """One ``TABLE_FEATURES …`` item per table of a reply part (bad lengths: one ``malformed``)."""
    out, i = [], 16
    while i + 64 <= len(raw):
        length, tid = struct.unpack("!HB", raw[i:i + 3])
        if length < 64 or i + length > len(raw):
            return out + [f"TABLE_FEATURES malformed at byte {i}"]
        meta_match, meta_write, config, max_entries = struct.unpack("!QQII", raw[i + 40:i + 64])
        props, j = [], i + 64
        while j + 4 <= i + length:
            ptype, plen = struct.unpack("!HH", raw[j:j + 4])
            if plen < 4 or j + plen > i + length:
                return out + [f"TABLE_FEATURES malformed property at byte {j}"]
            props.append(_prop(tid, ptype, raw[j + 4:j + plen]))
            j += (plen + 7) // 8 * 8
        out.append(f"TABLE_FEATURES max_entries={max_entries} config={config} metadata_match={meta_match:#x} "
                   f"metadata_write={meta_write:#x} " + " ".join(sorted(props)))
        i += length
    return out or ["TABLE_FEATURES (empty part)"]
