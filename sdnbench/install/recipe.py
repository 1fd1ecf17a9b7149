"""What sdnbench knows about one external system it can install: pure data.

A recipe names the public repository and the commit tested here (the pin), the files that tell
its tree from any other (``markers``), the entry points a usable tree has (``entries``: present
once the tree is built by its own build, as its README says), what is copied into the install,
and the variable that ``cmd:`` controller specs use to name it (``POX_DIR``). sdnbench does not
build these systems: it checks a tree the user has (``--from DIR``), copies what runs, and records
it; the build commands are upstream's, in each tree's README.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Recipe:
    name: str                    # the name on the command line: pox, cbench, cpqd, nox, beacon
    title: str                   # POX, cbench (oflops), ...
    url: str                     # the public git repository
    pin: str                     # the commit tested here (40 hex digits)
    pin_note: str                # what the pin is: branch and date
    markers: tuple               # files (relative) that only this system's tree has
    entries: dict                # entry point -> path in the tree, present once built
    copy: tuple = (".",)         # paths in the tree copied into the install ("." = all but .git)
    on_path: tuple = ()          # entry points put on sdnbench's PATH (their file names)
    variable: tuple = ()         # (NAME, path in the install): what ${NAME} means in cmd: specs
    needs_build: bool = False    # the entry points exist only after upstream's build
    build_hint: str = ""         # one line: what upstream's build needs (from its README)
    libs_checked: tuple = ()     # entry points whose shared libraries must all resolve
    smoke: tuple = ()            # (entry point, args...): a run that must work before installing
    smoke_error: str = ""        # output of that run that means it cannot work (it may still exit 0)
    smoke_fix: str = ""          # one line: what makes it work
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.pin) != 40 or any(c not in "0123456789abcdef" for c in self.pin):
            raise ValueError(f"recipe {self.name}: pin must be a 40-hex commit, not {self.pin!r}")
        unknown = [e for e in self.on_path + self.libs_checked + self.smoke[:1] if e not in self.entries]
        if unknown:
            raise ValueError(f"recipe {self.name}: {unknown[0]!r} is not one of its entries")
