"""Build the exact Cztery w rzędzie solver.

    .venv/bin/python games/connect4/solver_build.py

Compiles ``solver.c`` with cffi (API mode) into the extension module
``games.connect4.solver_ext`` (``games/connect4/solver_ext.*.so``, ignored
by git). ``scripts/setup.sh`` runs this whenever the C source or this file
changed; nothing is downloaded. ``games/connect4/solver.py`` imports the
module; without it ``games.connect4.solver.available()`` is false and the
trudny bot logs a warning and plays its Python search.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
MODULE = "games.connect4.solver_ext"

CDEF = """
int c4_solve(unsigned long long cur, unsigned long long mask, int moves, double budget_s, unsigned long long max_nodes);
int c4_move_values(unsigned long long cur, unsigned long long mask, int moves, double budget_s, unsigned long long max_nodes, int *out);
int c4_at_least(unsigned long long cur, unsigned long long mask, int moves, int v, double budget_s, unsigned long long max_nodes);
unsigned long long c4_nodes(void);
void c4_reset(void);
"""


def make_ffi() -> FFI:
    ffibuilder = FFI()
    ffibuilder.cdef(CDEF)
    ffibuilder.set_source(MODULE, (HERE / "solver.c").read_text(), extra_compile_args=["-O3", "-std=gnu99"])
    return ffibuilder


def build() -> Path:
    """Compile in a temporary directory and copy the .so next to this file."""
    with tempfile.TemporaryDirectory(prefix="connect4-solver-") as tmp:
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
