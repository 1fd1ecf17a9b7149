"""Namespace labs and process fixtures the integration tests build on (never shipped)."""
