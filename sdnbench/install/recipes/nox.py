"""NOX, the C++ controller of the controller study (seeds/002 ran NOX-MT 0.9.2, the multi-threaded
NOX). Its public repository (noxrepo/nox, branch verity) is the NOX 0.9 line; ``nox_core -i
ptcp:PORT switch`` runs its learning switch from the build's ``src`` directory: the study rows'
spec is ``cwd=${NOX_DIR}/build/src``, so NOX_DIR names the install (``build/src`` kept inside).
Not built here against Boost 1.74 (docs/install.md says where it failed)."""

from ..recipe import Recipe

RECIPE = Recipe(
    name="nox",
    title="NOX (NOX-MT line)",
    url="https://github.com/noxrepo/nox",
    pin="af9885e19a3cc0452093b46f8899b9d02e226bb8",
    pin_note="branch verity, 2014-02-14",
    markers=("src/nox_main.cc", "src/coreapps/switch/switch.cc", "configure.ac.in"),
    entries={"nox_core": "build/src/nox_core"},
    copy=("build/src",),
    variable=("NOX_DIR", "."),
    needs_build=True,
    build_hint="autotools, Boost 1.42-1.65 (asio, filesystem, serialization, system, thread), TBB, "
               "libltdl; its INSTALL builds in build/",
    libs_checked=(),
)
