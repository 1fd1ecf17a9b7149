"""The scale-kernel check's logic on fixed values, and --apply on a scratch /proc/sys tree."""

from pathlib import Path

from sdnbench import doctor, scale_limits as sl

# this machine's values before `make setup` (Debian 12 defaults on 24 GiB)
DEFAULTS = {"fs.file-max": [2_466_177], "net.core.somaxconn": [4096], "net.ipv4.tcp_max_syn_backlog": [2048],
            "net.ipv4.tcp_mem": [287_901, 383_868, 575_802], "net.netfilter.nf_conntrack_max": [262_144],
            "net.netfilter.nf_conntrack_count": [0], "net.ipv4.tcp_ehash_entries": [262_144]}


def by_key(rows):
    return {k: (st, text, fix) for st, k, text, fix in rows}


def test_defaults_at_one_million_name_the_syn_backlog_with_its_fix():
    r = by_key(sl.evaluate(DEFAULTS, 1_000_000))
    assert r["net.ipv4.tcp_max_syn_backlog"][0] == "warn"
    assert r["net.ipv4.tcp_max_syn_backlog"][2].startswith("sysctl -w net.ipv4.tcp_max_syn_backlog=8192")
    # 2,000,000 sockets + 65,536 fit in 2,466,177 files; 250,000 pages < 383,868 before pressure
    assert r["fs.file-max"][0] == r["net.ipv4.tcp_mem"][0] == "ok"
    # conntrack hooked in nowhere: its table size does not matter
    assert r["net.netfilter.nf_conntrack_max"][0] == "ok" and "tracks nothing" in r["net.netfilter.nf_conntrack_max"][1]
    assert "net.ipv4.tcp_ehash_entries" not in r            # 7.6 sockets per bucket: under 8


def test_conntrack_in_use_and_too_small_is_a_warning():
    v = {**DEFAULTS, "net.netfilter.nf_conntrack_count": [12]}
    st, text, fix = by_key(sl.evaluate(v, 1_000_000))["net.netfilter.nf_conntrack_max"]
    assert st == "warn" and "262144 < 1100000" in text and fix.startswith("sysctl -w net.netfilter.nf_conntrack_max=2097152")


def test_four_million_sessions_need_more_of_everything():
    r = by_key(sl.evaluate(DEFAULTS, 4_000_000, mem_available_kib=22 * 2**20))
    assert r["fs.file-max"][0] == "warn" and "8065536" in r["fs.file-max"][2]
    assert r["net.ipv4.tcp_mem"][2] == "sysctl -w net.ipv4.tcp_mem='287901 1000000 2000000'"
    assert r["net.ipv4.tcp_ehash_entries"][2] == "boot with thash_entries=8388608"
    assert r["memory"][0] == "warn"


def test_apply_only_raises_and_never_touches_tcp_mem(tmp_path: Path):
    values = {**DEFAULTS, "fs.file-max": [9_000_000]}
    for k, v in values.items():
        f = tmp_path / k.replace(".", "/")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(" ".join(map(str, v)) + "\n")
    done = sl.apply(1_000_000, root=tmp_path)
    assert done == ["net.ipv4.tcp_max_syn_backlog: 2048 -> 8192",
                    "net.netfilter.nf_conntrack_max: 262144 -> 2097152"]
    after = sl.read(root=tmp_path)
    assert after["fs.file-max"] == [9_000_000]               # higher than wanted: left alone
    assert after["net.ipv4.tcp_mem"] == DEFAULTS["net.ipv4.tcp_mem"]
    assert sl.apply(1_000_000, root=tmp_path) == []          # idempotent


def test_doctor_check_is_a_warning_naming_every_fix(monkeypatch):
    monkeypatch.setattr(sl, "read", lambda: {**DEFAULTS, "net.netfilter.nf_conntrack_count": [5]})
    monkeypatch.setattr(sl, "mem_available_kib", lambda: 22 * 2**20)
    c = doctor.check_scale_kernel()
    assert c.status == doctor.WARN
    assert "net.ipv4.tcp_max_syn_backlog" in c.detail and "nf_conntrack_max" in c.detail
    assert "sysctl -w net.ipv4.tcp_max_syn_backlog=8192" in c.fix and "nf_conntrack_max=2097152" in c.fix
    monkeypatch.setattr(sl, "read", lambda: {**DEFAULTS, "net.ipv4.tcp_max_syn_backlog": [8192]})
    assert doctor.check_scale_kernel().status == doctor.OK
