"""The three PEM files of one side of an OpenFlow TLS session (TLS-CONTRACT.md section 1)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TlsFiles:
    ca: Path        # the CA that signed the PEER's certificate
    cert: Path      # my own certificate
    key: Path       # my own private key

    def as_engine(self) -> dict:
        """The engine's ``tls`` config field (crates/engine/src/config/): switch-side files."""
        return {"ca": str(self.ca), "cert": str(self.cert), "key": str(self.key)}

    def paths(self) -> dict:
        return {"ca": self.ca, "cert": self.cert, "key": self.key}
