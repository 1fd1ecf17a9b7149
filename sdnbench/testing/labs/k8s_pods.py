"""Kubernetes pods simulated as processes (issue 32; docs/scale-out.md): the Indexed Job that
``sdnbench-engine --agents k8s...`` prints, run here pod by pod with exactly its container's
command and environment, plus what the cluster would give:

- ``JOB_COMPLETION_INDEX`` (the Job controller sets it per pod);
- the ConfigMap's ``run.json`` at a temporary path instead of the mounted ``/etc/sdnbench``;
- the Service's DNS name resolved by ``SDNBENCH_RESOLVE=NAME=IP`` (the engine's override, no
  /etc/hosts): IP is a loopback address or the address of a namespace this test made;
- pod 0's ``--serve=0.0.0.0:PORT`` bound to that same address only (never every interface).

``Pods(args, tmp)`` prints the manifest; ``start(i, ip, ns=None, env=None)`` runs pod i (in network
namespace ``ns`` if given) as a tracked process group; ``stop_all()`` stops every pod by PID.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from sdnbench import paths


class Pods:
    __test__ = False

    def __init__(self, args: list, tmp: Path) -> None:
        self.engine = str(paths.engine_binary("sdnbench-engine"))
        out = subprocess.run([self.engine, *args], capture_output=True, text=True, timeout=30, check=True).stdout
        self.manifest = json.loads(out)
        items = {i["kind"]: i for i in self.manifest["items"]}
        self.job = items["Job"]
        self.name = self.job["metadata"]["name"]
        self.count = self.job["spec"]["completions"]
        self.container = self.job["spec"]["template"]["spec"]["containers"][0]
        self.tmp = tmp
        self.config = tmp / "run.json"
        self.config.write_text(items["ConfigMap"]["data"]["run.json"])
        self.procs: list = []

    def _flag(self, name: str):
        return next((c.split("=", 1)[1] for c in self.container["command"] if c.startswith(name + "=")), None)

    @property
    def coordinator_host(self):
        c = self._flag("--coordinator")
        return c.rsplit(":", 1)[0] if c else None

    def argv(self, ip: str) -> list:
        """The container's command, the binary and config made local, pod 0 bound to ``ip``."""
        cmd = list(self.container["command"])
        assert cmd[0] == "sdnbench-engine" and cmd[2:4] == ["--config", "/etc/sdnbench/run.json"], cmd
        cmd[0], cmd[3] = self.engine, str(self.config)
        return [f"--serve={ip}:{c.rsplit(':', 1)[1]}" if c.startswith("--serve=0.0.0.0:") else c for c in cmd]

    def start(self, i: int, ip: str, ns=None, env=None):
        e = {**os.environ, **{v["name"]: v["value"] for v in self.container["env"]},
             "JOB_COMPLETION_INDEX": str(i), **(env or {})}
        if self.coordinator_host:
            e["SDNBENCH_RESOLVE"] = f"{self.coordinator_host}={ip}"
        argv = (["ip", "netns", "exec", ns] if ns else []) + self.argv(ip)
        out = open(self.tmp / f"pod{i}.out", "wb")
        err = self.tmp / f"pod{i}.err"
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=open(err, "wb"), env=e,
                             start_new_session=True)
        out.close()
        self.procs.append(p)
        return p

    def output(self, i: int) -> str:
        return (self.tmp / f"pod{i}.out").read_text()

    def errors(self) -> str:
        return "\n".join(f"pod{i}: {(self.tmp / f'pod{i}.err').read_text()}" for i in range(self.count)
                         if (self.tmp / f"pod{i}.err").exists())

    def wait_all(self, timeout: float = 60) -> list:
        return [p.wait(timeout=timeout) for p in self.procs]

    def stop_all(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, 9)
                except ProcessLookupError:
                    pass
                p.wait(timeout=10)
        self.procs = []


def bytes_sent_to(port: int, ns=None) -> list:
    """Bytes each established TCP connection to ``port`` has sent (``ss -ti``), in namespace ``ns``."""
    argv = (["ip", "netns", "exec", ns] if ns else []) + ["ss", "-Htin", "state", "established", f"dport = :{port}"]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=10).stdout
    return [int(w.split(":", 1)[1]) for w in out.split() if w.startswith("bytes_sent:")]

