"""Checking a suite's parameters before anything starts: small rules and one error type.

A suite describes its parameters once (``sdnbench/<suite>/params.py``): a rule per key and the
flag that sets it. The command line, ``run --dry-run`` and campaign cells call the same check,
so one bad value gets the same one line everywhere: by flag on the command line
(``--poll-s: must be a number above 0, got 0.0``), by key in a scenario (its file:line added by
the scenario reader).

A rule takes the value and returns ``None`` (fine) or a message without the key's name.

The table is a frozen dataclass (``Params.table``): each field one parameter, with its type, its
default and its rule (``param``). ``build`` checks a set of parameters and returns that typed
object, which is what a suite's trials take: the command line and a campaign cell build the same
one, from the same table. A field with help text is also its command's flag (``add_flags``): its
name, type, default and help come from the table, so a new parameter is written once.
"""

from __future__ import annotations

from dataclasses import MISSING, field, fields
from typing import Any, Callable, Optional, Union, get_args, get_origin, get_type_hints
from urllib.parse import urlsplit

from .errors import UserError

Rule = Callable[[Any], Optional[str]]


class ParamError(UserError):
    """Every problem of one set of parameters: ``problems`` is ``[(key, message)]``."""

    def __init__(self, problems: list, flag: Optional[Callable[[str], str]] = None):
        self.problems = problems
        name = flag or (lambda k: k)
        # a message from a shared parser may already start with the flag: not twice
        lines = (m if m.startswith(name(k) + " ") else f"{name(k)}: {m}" for k, m in problems)
        super().__init__("; ".join(dict.fromkeys(lines)))


def flag_of(flags: dict) -> Callable[[str], str]:
    """``key -> flag``: the exceptions in ``flags``, else ``--key-with-dashes``."""
    return lambda k: flags.get(k, "--" + k.replace("_", "-"))


def apply(rules: dict, params: dict) -> list:
    """``[(key, message)]`` for the keys of ``params`` that have a rule and break it (``None``
    values are unset and skipped)."""
    out = []
    for k, v in params.items():
        rule = rules.get(k)
        if rule is None or v is None:
            continue
        msg = rule(v)
        if msg:
            out.append((k, msg))
    return out


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


def number(lo: float, what: str = "", above: bool = False, hi: Optional[float] = None) -> Rule:
    """A number >= lo (> lo with ``above``), at most ``hi``; ``what`` is its unit."""
    unit = f" {what}" if what else ""

    def rule(v: Any) -> Optional[str]:
        bad = not _is_num(v) or (v <= lo if above else v < lo) or (hi is not None and v > hi)
        if not bad:
            return None
        low = f"above {lo:g}" if above else f"{lo:g} or more"
        return f"must be a number{unit} {low}" + (f" and at most {hi:g}" if hi is not None else "") + f", got {v!r}"
    return rule


def whole(lo: int, hi: Optional[int] = None, what: str = "") -> Rule:
    """A whole number from ``lo`` (to ``hi``)."""
    unit = f" ({what})" if what else ""

    def rule(v: Any) -> Optional[str]:
        if isinstance(v, int) and not isinstance(v, bool) and v >= lo and (hi is None or v <= hi):
            return None
        top = f" to {hi}" if hi is not None else " or more"
        return f"must be a whole number{unit}, {lo}{top}, got {v!r}"
    return rule


class _Choice:
    """A rule: one of ``options`` (its flag offers them as choices)."""

    def __init__(self, options):
        self.options = tuple(options)

    def __call__(self, v: Any) -> Optional[str]:
        return None if v in self.options else f"must be one of {', '.join(map(str, self.options))}, got {v!r}"


def choice(options) -> Rule:
    return _Choice(options)


def url(v: Any) -> Optional[str]:
    """An HTTP base URL with its scheme and host."""
    parts = urlsplit(v) if isinstance(v, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        return f"want a URL such as http://127.0.0.1:8080, got {v!r}"
    try:
        _ = parts.port                    # urlsplit parses the port lazily: a bad one raises here
    except ValueError:
        return f"want a URL such as http://127.0.0.1:8080, got {v!r} (bad port)"
    return None


def raises(fn: Callable[[Any], Any]) -> Rule:
    """A rule from a parser that raises ``UserError`` (its message is the problem)."""
    def rule(v: Any) -> Optional[str]:
        try:
            fn(v)
        except UserError as e:
            return str(e)
        return None
    return rule


META = ("name", "rep", "repetition")      # campaign keys every suite accepts


def param(default: Any, rule: Optional[Rule] = None, flag: Optional[str] = None, cli_only: bool = False,
          help: Optional[str] = None) -> Any:
    """One field of a suite's parameter table: its default, its rule, its flag when it is not
    ``--key-with-dashes``; ``cli_only`` for a key the command line has and a campaign cell does
    not (``--reps``: a campaign has its own repetitions); ``help``, its flag's help: with it the
    flag is generated (``add_flags``), without it the command writes the flag itself (the
    controller, ``--of`` and ``--mode``, which commands share or word differently)."""
    return field(default=default, metadata={"rule": rule, "flag": flag, "cli_only": cli_only, "help": help})


def _flag_type(hint: Any) -> Optional[type]:
    """``int`` or ``float`` for a flag of that field type (``Optional[X]``: X's); None for text."""
    if get_origin(hint) is Union:
        hint = next(a for a in get_args(hint) if a is not type(None))
    return hint if hint in (int, float) else None


def add_flags(parser: Any, typed: type, defaults: Optional[dict] = None, only: Optional[tuple] = None,
              skip: tuple = ()) -> None:
    """A flag for each field of the table ``typed`` that has help text (``only`` those, none of
    ``skip``), in the table's order: its flag, dest, type, choices (a ``choice`` rule's), default
    (``defaults`` over the table's) and help."""
    hints = get_type_hints(typed)
    for f in fields(typed):
        if f.metadata.get("help") is None or f.name in skip or (only is not None and f.name not in only):
            continue
        kw: dict = {"dest": f.name, "default": (defaults or {}).get(f.name, f.default), "help": f.metadata["help"]}
        rule, kind = f.metadata.get("rule"), _flag_type(hints[f.name])
        if isinstance(rule, _Choice):
            kw["choices"] = list(rule.options)
        elif kind is not None:
            kw["type"] = kind
        parser.add_argument(f.metadata.get("flag") or "--" + f.name.replace("_", "-"), **kw)


def columns(typed: type) -> tuple:
    """A parameter table (a dataclass of ``param`` fields) as (defaults, command-line-only
    defaults, rules, flags that are not ``--key-with-dashes``)."""
    fs = [f for f in fields(typed) if f.default is not MISSING]
    return ({f.name: f.default for f in fs if not f.metadata.get("cli_only")},
            {f.name: f.default for f in fs if f.metadata.get("cli_only")},
            {f.name: f.metadata["rule"] for f in fs if f.metadata.get("rule")},
            {f.name: f.metadata["flag"] for f in fs if f.metadata.get("flag")})


class Params:
    """One suite's parameters, described once: defaults, a rule per key, the flag of each key,
    the checks that need several keys (``together``), and keys only the command line has.
    ``check`` serves the command line and the cell runner, ``validate_param`` and
    ``check_cell`` a campaign's ``run --dry-run``."""

    def __init__(self, suite: str, defaults: dict, rules: dict, flag: Callable[[str], str],
                 together: Callable[[dict], list], cli_only: Optional[dict] = None):
        self.suite, self.defaults, self.rules, self.flag = suite, defaults, rules, flag
        self.together, self.cli_only = together, cli_only or {}
        self.typed: Optional[type] = None

    @classmethod
    def table(cls, suite: str, typed: type, together: Callable[[dict], list]) -> "Params":
        """The parameters of a frozen dataclass whose fields are ``param``: defaults, rules and
        flags read from it, and ``build`` returning it."""
        defaults, cli_only, rules, flags = columns(typed)
        p = cls(suite, defaults, rules, flag_of(flags), together, cli_only)
        p.typed = typed
        return p

    def default(self, key: str) -> Any:
        return {**self.defaults, **self.cli_only}[key]

    def cell(self, typed: Any) -> dict:
        """The campaign cell of typed parameters: the keys a cell takes whose value is not the
        table's default (the cell's runner fills the defaults in again; ``None``: unset)."""
        return {k: v for k, v in vars(typed).items() if k in self.defaults and v != self.defaults[k]}

    def build(self, params: dict, cli: bool = True) -> Any:
        """The typed parameters (``table``'s dataclass): checked as ``check`` does, defaults
        filled in; campaign keys (``name``, ``rep``) are not parameters and are left out."""
        assert self.typed is not None, f"{self.suite}: build needs a table"
        p = self.check(params, cli)
        return self.typed(**{k: v for k, v in p.items() if k not in META})

    def problems(self, params: dict) -> list:
        """Every problem of one set of parameters (defaults filled in), ``[(key, message)]``;
        the keys' combination is judged only when each key is fine on its own."""
        p = {**self.defaults, **params}
        out = [(k, f"unknown {self.suite} parameter; known: " + ", ".join(sorted(self.defaults)))
               for k in params if k not in self.defaults and k not in self.cli_only and k not in META]
        out += apply(self.rules, p)
        return out or self.together(p)

    def check(self, params: dict, cli: bool = True) -> dict:
        """The parameters with defaults filled in, or ``ParamError`` naming every problem by
        flag (``cli``) or by key."""
        found = self.problems(params)
        if found:
            raise ParamError(found, self.flag if cli else None)
        return {**self.defaults, **params}

    def validate_param(self, name: str, value: Any) -> Optional[str]:
        """One scenario key on its own."""
        if name in META:
            return None
        if name not in self.defaults:
            return f"unknown {self.suite} parameter {name!r}; known: {', '.join(sorted(self.defaults))}"
        found = apply(self.rules, {name: value})
        return found[0][1] if found else None

    def check_cell(self, params: dict) -> list:
        """One campaign cell's combination of keys (each key is reported on its own first)."""
        p = {**self.defaults, **{k: v for k, v in params.items() if k in self.defaults}}
        return [] if apply(self.rules, p) else self.together(p)


def once_each(flag: str, items: list) -> list:
    """``items`` when none is listed twice, else a ``UserError`` naming the first repeated one: a
    case, a count or a controller runs once (twice would measure it again under the same name)."""
    seen: list = []
    for x in items:
        if x in seen:
            raise UserError(f"{flag}: {x} is listed twice; give each once")
        seen.append(x)
    return items
