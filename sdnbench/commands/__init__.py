"""Subcommands: each module here with a ``register(subparsers)`` function is one subcommand.

Commands are thin: they parse, call into the library modules, and print. Printing helpers live
in ``sdnbench.output``.
"""
