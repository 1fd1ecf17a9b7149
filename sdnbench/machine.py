"""What machine a result came from: recorded with every run (asv stores results per machine)."""

from __future__ import annotations

import os
import platform
import socket
from functools import lru_cache


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _mem_total_bytes() -> int:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@lru_cache(maxsize=1)
def machine_info() -> dict:
    uname = platform.uname()
    return {
        "hostname": socket.gethostname(),
        "cpu_model": _cpu_model(),
        "cores": os.cpu_count() or 0,
        "memory_bytes": _mem_total_bytes(),
        "kernel": uname.release,
        "os": _os_release(),
        "arch": uname.machine,
        "python": platform.python_version(),
    }


def _os_release() -> str:
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.system()
