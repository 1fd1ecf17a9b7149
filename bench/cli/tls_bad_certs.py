"""Every bad-certificate case of docs/tls.md through the installed command line (``sdnbench net
run`` with Open vSwitch and os-ken over TLS, the path where a switch really connects), printed
as the docs' table: case, exit code, the line. The files are made with sdnbench's library at
known dates; the controller's refusals are the real controllers' (os-ken, ovs-testcontroller).
Exit 1 if a case does not end with its exit code and one line naming its file.

    .venv/bin/python bench/cli/tls_bad_certs.py        # the markdown table on stdout
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization

from sdnbench.controllers import ofhello
from sdnbench.proc import spawn, wait_until
from sdnbench.tls import certs

SDNBENCH = [sys.executable, "-m", "sdnbench"]
RUN = ["net", "run", "--topo", "single,2", "--ping-sizes", "64", "--ping-count", "1"]
MANAGED = "osken:learning;tls"


@dataclass
class Case:
    name: str
    controller: str
    flags: list
    exit: int
    says: str            # the line starts with, or contains, this


def make_cases(d: Path, wrong_name_port: int) -> list:
    own = certs.ensure()
    other = certs.ensure(d / "other")
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    ca = certs.Issued(certs.x509.load_pem_x509_certificate(own.switch.ca.read_bytes()),
                      serialization.load_pem_private_key((own.dir / certs.NAMES["ca_key"]).read_bytes(), None))
    paths = {}
    for name, start, end in (("expired", now - dt.timedelta(days=60), now - dt.timedelta(days=30)),
                             ("future", now + dt.timedelta(days=30), now + dt.timedelta(days=60))):
        made = certs.issue(ca, certs.SWITCH_CN, start, end)
        paths[name] = (d / f"{name}-cert.pem", d / f"{name}-key.pem")
        paths[name][0].write_bytes(made.cert_pem())
        paths[name][1].write_bytes(made.key_pem())
    der = d / "switch-cert.der"
    der.write_bytes(certs.x509.load_pem_x509_certificate(own.switch.cert.read_bytes())
                    .public_bytes(serialization.Encoding.DER))
    missing = d / "no-such-key.pem"
    return [
        Case("expired switch certificate", MANAGED, ["--tls-cert", paths["expired"][0], "--tls-key", paths["expired"][1]],
             1, f"{paths['expired'][0]}: the switch's certificate expired on"),
        Case("switch certificate not valid yet", MANAGED,
             ["--tls-cert", paths["future"][0], "--tls-key", paths["future"][1]], 1,
             f"{paths['future'][0]}: the switch's certificate is not valid yet"),
        Case("wrong CA (--tls-ca did not sign the controller's certificate)", MANAGED,
             ["--tls-ca", other.switch.ca], 1, f"{other.switch.ca}: not the CA that signed the controller's"),
        Case("key does not match the certificate", MANAGED, ["--tls-key", own.controller.key], 1,
             f"{own.controller.key}: this key does not match the certificate"),
        Case("unreadable file", MANAGED, ["--tls-key", missing], 1, f"{missing}: cannot read the switch's private key"),
        Case("not PEM (a DER certificate)", MANAGED, ["--tls-cert", der], 1, f"{der}: not a PEM certificate"),
        Case("TLS files for a plain TCP controller", "osken:learning", ["--tls-ca", own.switch.ca], 1,
             "--controller: osken:learning is not on TLS, but TLS files are given"),
        Case("the controller refuses the switch's certificate (another CA signed it)", MANAGED,
             ["--tls-cert", other.switch.cert, "--tls-key", other.switch.key], 2,
             "refused the TLS session (alert unknown ca)"),
        Case("wrong name (the controller's certificate does not name its address)",
             f"tls:127.0.0.2:{wrong_name_port}", [], 2, "does not name 127.0.0.2"),
    ]


def run(case: Case) -> tuple:
    argv = SDNBENCH + RUN + ["--controller", case.controller] + [str(a) for a in case.flags]
    cp = subprocess.run(argv, capture_output=True, text=True, timeout=180)
    lines = [ln for ln in cp.stderr.splitlines() if ln.strip() and not ln.startswith("single,2 with")]
    return cp.returncode, lines, cp.stdout


def problems(case: Case, code: int, lines: list, out: str) -> list:
    bad = []
    if code != case.exit:
        bad.append(f"exit {code}, want {case.exit}")
    if len(lines) != 1 or case.says not in lines[0]:
        bad.append(f"want one line with {case.says!r}, got {lines!r}")
    if "Traceback" in out or any("Traceback" in ln for ln in lines):
        bad.append("a traceback")
    return bad


def external_wrong_name(d: Path):
    """ovs-testcontroller on 127.0.0.2 with sdnbench's controller certificate (its names:
    127.0.0.1, ::1, localhost): started here, stopped by the caller (``.stop``)."""
    own = certs.ensure().controller
    port = ofhello.free_port("127.0.0.2")
    t = spawn("ovs-testcontroller", ["ovs-testcontroller", "-p", str(own.key), "-c", str(own.cert), "-C", str(own.ca),
                                     f"--unixctl={d / 'tc.ctl'}", f"pssl:{port}:127.0.0.2"], log_path=d / "tc.log")
    wait_until(lambda: ofhello.accepts("127.0.0.2", port), 10, "ovs-testcontroller on 127.0.0.2")
    return t, port


def main() -> int:
    failed = 0
    with tempfile.TemporaryDirectory(prefix="sdnbench-tls-bad-") as tmp:
        d = Path(tmp)
        tc, port = external_wrong_name(d)
        try:
            print("| case | `--controller` | exit | the line (`sdnbench: error: ...`) |\n|---|---|---|---|")
            for case in make_cases(d, port):
                code, lines, out = run(case)
                bad = problems(case, code, lines, out)
                failed += bool(bad)
                shown = " / ".join(lines).replace(tmp, "$TMP").replace("|", "\\|")
                print(f"| {case.name} | `{case.controller}` | {code} | {shown} |" + (f" **{bad}**" if bad else ""))
        finally:
            tc.stop(2.0)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
