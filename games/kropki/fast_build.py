"""Build the compiled hot path of the Kropki computer player.

    .venv/bin/python games/kropki/fast_build.py

Compiles ``fast.c`` with cffi (API mode) into the extension module
``games.kropki.fast_ext`` (``games/kropki/fast_ext.*.so``, ignored
by git). ``scripts/setup.sh`` runs this whenever the C source or this file
changed; nothing is downloaded. ``games/kropki/bot.py`` imports the module
and falls back, with a logged warning, to the pure-Python search when it is
missing.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
MODULE = "games.kropki.fast_ext"

CDEF = """
int kf_board_size(int w, int h);
int kf_place(int w, int h, unsigned char *points, int *counters, int pos, int player);
int kf_search(int w, int h, const unsigned char *points, const int *counters, int player, double budget_s,
              int max_playouts, unsigned long long seed, const double *params, double *stats);
int kf_review(int w, int h, const unsigned char *points, const int *counters, int player, double budget_s,
              int max_playouts, unsigned long long seed, const double *params, double *stats, int played,
              int played_min, double *review_out);
int kf_playout_speed(int w, int h, const unsigned char *points, const int *counters, int player, double budget_s,
                     unsigned long long seed);
int kf_settled(int w, int h, const unsigned char *points, const int *counters, int player, int tries,
               unsigned long long seed);
int kf_ladder(int w, int h, const unsigned char *points, const int *counters, int attacker, int t);
"""


def make_ffi() -> FFI:
    ffibuilder = FFI()
    ffibuilder.cdef(CDEF)
    ffibuilder.set_source(
        MODULE,
        (HERE / "fast.c").read_text(),
        extra_compile_args=["-O3", "-std=gnu99"],
        libraries=["m"],
    )
    return ffibuilder


def build() -> Path:
    """Compile in a temporary directory and copy the .so next to this file."""
    with tempfile.TemporaryDirectory(prefix="kropki-fast-") as tmp:
        built = Path(make_ffi().compile(tmpdir=tmp, verbose=False))
        target = HERE / built.name
        # a new file renamed over the old one: a process that has the old
        # module loaded keeps its copy
        partial = target.with_name(target.name + ".partial")
        shutil.copy2(built, partial)
        os.replace(partial, target)
    return target


if __name__ == "__main__":
    print(f"built {build().relative_to(HERE.parent.parent)}", file=sys.stderr)
