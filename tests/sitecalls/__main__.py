"""``python -m tests.sitecalls NAME ['{"json": "kwargs"}']``: one site call (tests/sitecalls/__init__.py)
in this environment's database; prints ``JSON:`` and what it returned, on one line."""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    kwargs = json.loads(argv[1]) if len(argv) == 2 else {}
    if not isinstance(kwargs, dict):
        print(f"the keyword arguments must be a JSON object, not {argv[1]!r}", file=sys.stderr)
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kropki_site.settings")
    import django

    django.setup()
    from tests.sitecalls import function

    result = function(argv[0])(**kwargs)
    print("JSON:" + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
