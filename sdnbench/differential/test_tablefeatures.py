"""A TABLE_FEATURES reply read from the wire: the last part of Open vSwitch 3.1's reply (a netdev
bridge at OpenFlow 1.3, ``testdata/ovs_table_features_last_part.hex``, captured over its
management socket)."""

import struct
from pathlib import Path

from . import tablefeatures as tf
from .normalise import received_key
from .parse import WIRE

PART = bytes.fromhex((Path(__file__).parent / "testdata" / "ovs_table_features_last_part.hex").read_text())


def _tables(raw: bytes) -> list:
    out, i = [], 16
    while i < len(raw):
        out.append((i, raw[i + 2]))
        i += struct.unpack("!H", raw[i:i + 2])[0]
    return out


def test_open_vswitch_tables_collapse_to_what_differs_between_them():
    assert tf.is_table_features_reply(PART)
    tables = _tables(PART)
    assert tables[-1][1] == 253
    items = tf.items(PART)
    assert len(items) == len(tables) and len(set(items)) == 3, "n..251 alike; 252 (next: 253); 253 (no next)"
    assert all(x.startswith("TABLE_FEATURES max_entries=1000000 config=0 ") for x in items)
    assert "next_tables=[next-253]" in items[0] and "next_tables=[]" in items[-1]
    assert received_key(WIRE, PART) == items


def test_max_entries_and_an_id_compare_but_the_name_does_not():
    off, _ = _tables(PART)[0]
    renamed = bytearray(PART)
    renamed[off + 8:off + 40] = b"table-x".ljust(32, b"\0")
    assert tf.items(bytes(renamed)) == tf.items(PART)
    smaller = bytearray(PART)
    smaller[off + 60:off + 64] = struct.pack("!I", 0xFFFFFFFF)
    assert tf.items(bytes(smaller))[0] != tf.items(PART)[0] and "max_entries=4294967295" in tf.items(bytes(smaller))[0]
    assert tf.items(PART[:16] + PART[off:off + 70]) == ["TABLE_FEATURES malformed at byte 16"]
