"""An engine of docs/bots.md that thinks SECONDS before each ``genmove`` answer: bench/kropki_engine.py
--level losowy behind a pause (tests/live_play/test_api_live.py: a daphne restart while the bot thinks).

    slow_engine.py SECONDS
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "bench" / "kropki_engine.py"


def main() -> None:
    pause = float(sys.argv[1])
    engine = subprocess.Popen(
        [sys.executable, str(ENGINE), "--level", "losowy"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert engine.stdin is not None and engine.stdout is not None
    for line in sys.stdin:
        if line.startswith("genmove"):
            time.sleep(pause)
        engine.stdin.write(line)
        engine.stdin.flush()
        answer = engine.stdout.readline()
        sys.stdout.write(answer)
        sys.stdout.flush()
        if not answer or line.strip() == "quit":
            break
    engine.wait(timeout=5)


if __name__ == "__main__":
    main()
