"""Scripted peers: controllers, a switch and northbound servers with known behaviour, for the
known-answer tests (never shipped)."""
