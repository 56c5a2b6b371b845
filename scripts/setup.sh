# Shared set-up for scripts/run and scripts/test (sourced, not executed).
# Creates .venv with Python 3.12 if missing, installs requirements.lock,
# compiles translations and collects static files.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

find_python() {
    if [ -x "$HOME/.pyenv/versions/3.12.1/bin/python" ]; then
        echo "$HOME/.pyenv/versions/3.12.1/bin/python"
    elif command -v python3.12 >/dev/null 2>&1; then
        command -v python3.12
    else
        echo "Python 3.12 not found (need ~/.pyenv/versions/3.12.1 or python3.12 on PATH)" >&2
        return 1
    fi
}

if [ ! -x .venv/bin/python ]; then
    echo "==> first run: creating .venv and installing the Python packages of requirements.lock"
    echo "    (about 100 packages: under a minute with uv, minutes with pip; later runs skip this)"
    "$(find_python)" -m venv .venv
fi
PY="$ROOT/.venv/bin/python"

# Install only when requirements.lock changed since the last install.
STAMP=.venv/.kropki-lock.sha256
want="$(sha256sum requirements.lock pyproject.toml | sha256sum | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$want" ]; then
    echo "==> installing requirements.lock (seconds with uv; a few minutes when packages are new)"
    # uv (pinned in the lock) installs the lock in about 7 s where pip spends about 25 s resolving
    # and unpacking; pip installs it when uv cannot be had. Compiled to bytecode as pip does: where
    # PYTHONDONTWRITEBYTECODE is set (this machine sets it) a process never writes a .pyc, and
    # without them every process would compile Django and the rest from source at each start.
    if ! { "$PY" -m pip install --quiet --disable-pip-version-check "$(grep -i '^uv==' requirements.lock)" \
        && .venv/bin/uv pip install --quiet --compile-bytecode --python "$PY" -r requirements.lock; }; then
        echo "!! uv could not install the lock; pip installs it" >&2
        "$PY" -m pip install --quiet --disable-pip-version-check -r requirements.lock
    fi
    echo "$want" > "$STAMP"
fi

# Build a compiled part (C through cffi) only when its source or build script
# changed or the module is missing: build_ext WHAT SOURCE BUILD_SCRIPT MODULE_GLOB
# STAMP FALLBACK. A failed build is not fatal: the Python code it speeds up plays.
build_ext() {
    local what="$1" source="$2" script="$3" glob="$4" stamp="$5" fallback="$6" want
    want="$(sha256sum "$source" "$script" | sha256sum | cut -d' ' -f1)"
    # shellcheck disable=SC2086 # the glob is meant to expand
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || ! ls $glob >/dev/null 2>&1; then
        echo "==> building $what ($source)"
        if "$PY" "$script"; then
            echo "$want" > "$stamp"
        else
            echo "!! could not build $source: $fallback" >&2
        fi
    fi
}

# The Kropki computer's search (games/kropki/fast.c): without it the bot logs a
# warning and plays the old Python search, and
# tests/games/bots/test_kropki_fast_agrees.py fails.
build_ext "the Kropki computer's compiled search" games/kropki/fast.c games/kropki/fast_build.py \
    "games/kropki/fast_ext.*.so" .venv/.kropki-fast.sha256 \
    "Kropki's computer falls back to the slow Python search"
# The exact Cztery w rzędzie solver (games/connect4/solver.c): without it trudny
# logs a warning and plays its Python search, and
# tests/games/bots/test_connect4_solver.py fails.
build_ext "the Cztery w rzędzie solver" games/connect4/solver.c games/connect4/solver_build.py \
    "games/connect4/solver_ext.*.so" .venv/.connect4-solver.sha256 \
    "Cztery w rzędzie trudny falls back to the Python search"

# The project's own bytecode, for the same reason (under a second; only changed files are written).
"$PY" -m compileall -q -j 0 manage.py accounts games kropki_site ratings tests >/dev/null

export DJANGO_SETTINGS_MODULE=kropki_site.settings
echo "==> compiling translations"
"$PY" manage.py compilemessages --ignore=.venv --ignore=staticfiles --verbosity 0
echo "==> collecting static files"
"$PY" manage.py collectstatic --noinput --verbosity 0
