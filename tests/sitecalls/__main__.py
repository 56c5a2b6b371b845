"""``python -m tests.sitecalls NAME ['{"json": "kwargs"}']``: one site call (tests/sitecalls/__init__.py)
in this environment's database; prints ``JSON:`` and what it returned, on one line.

``python -m tests.sitecalls --serve``: many calls in one process (tests/live.py ``site_call``:
Django is set up once, not once a call, about 1.3 s of a core each). Each line read is
``{"name": …, "kwargs": {…}}``; each answer one line, ``JSON:`` and what the call returned, or
``FAIL:`` and the error as a JSON string. The database connections are closed after every call, as
a process of its own would leave them (a database dropped or restarted meanwhile is met afresh)."""

from __future__ import annotations

import json
import os
import sys
import traceback


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kropki_site.settings")
    import django

    django.setup()


def serve() -> int:
    _setup()
    from django.db import connections

    from tests.sitecalls import function

    answers = sys.stdout
    sys.stdout = sys.stderr  # what a call prints is not an answer
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            asked = json.loads(line)
            answer = "JSON:" + json.dumps(function(asked["name"])(**asked.get("kwargs", {})))
        except Exception:
            answer = "FAIL:" + json.dumps(traceback.format_exc())
        finally:
            connections.close_all()
        answers.write(answer + "\n")
        answers.flush()
    return 0


def main(argv: list[str]) -> int:
    if argv == ["--serve"]:
        return serve()
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    kwargs = json.loads(argv[1]) if len(argv) == 2 else {}
    if not isinstance(kwargs, dict):
        print(f"the keyword arguments must be a JSON object, not {argv[1]!r}", file=sys.stderr)
        return 2
    _setup()
    from tests.sitecalls import function

    result = function(argv[0])(**kwargs)
    print("JSON:" + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
