"""OpenFlow over TLS: the certificate files (``files``), making them (``certs``), checking them
before a run (``check``).
docs/tls.md is the user's guide."""
