"""RFC 8456 test families that need the emulated network: one module per family."""
