"""Every Celery task reached by its name is a registered task.

A task is reached by name from three places a typo would not fail at import: the
routes and beat's schedule (kropki_site/settings.py) and the services that send a
task without importing it (``publisher.send_now(tasknames.BOT_MOVE, ...)`` in
games/play/botqueue.py). The names are the constants of games/tasknames.py; here:
each constant is a task the worker registers, every routed, scheduled and sent
name is one of them, and no module of the site spells a task's name out itself.

"Registered" is what ``celery -A kropki_site worker`` knows: the app's tasks after
its own discovery of each installed app's tasks.py. No database, no broker.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import tasknames
from kropki_site.celery import app

ROOT = Path(__file__).resolve().parent.parent
SITE = ("games", "accounts", "ratings", "kropki_site")
# Passes the name it is handed on to send_task: the one sender that takes no constant.
PLUMBING = Path("games/play/publisher.py")


@pytest.fixture(scope="module")
def registered() -> set[str]:
    app.autodiscover_tasks(force=True)  # what a worker's start does: each installed app's tasks.py
    return set(app.tasks)


def constants() -> dict[str, str]:
    return {name: value for name, value in vars(tasknames).items() if name.isupper() and isinstance(value, str)}


def test_every_constant_is_a_registered_task(registered):
    missing = {name: value for name, value in constants().items() if value not in registered}
    assert not missing, f"games/tasknames.py names tasks no worker has: {missing}"


def test_all_lists_every_constant_once():
    assert len(set(tasknames.ALL)) == len(tasknames.ALL)
    assert set(tasknames.ALL) == set(constants().values())


def test_every_task_of_the_site_has_its_constant(registered):
    ours = {name for name in registered if name.split(".")[0] in SITE}
    assert ours == set(tasknames.ALL), "a task of the site without its name in games/tasknames.py, or the reverse"


def test_every_routed_and_scheduled_name_is_a_registered_task(registered):
    routed = set(app.conf.task_routes)
    scheduled = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert routed and scheduled
    assert routed <= registered, f"routes for tasks no worker has: {routed - registered}"
    assert scheduled <= registered, f"beat sends tasks no worker has: {scheduled - registered}"
    assert routed | scheduled <= set(tasknames.ALL)


# --- the senders, read from the source -------------------------------------------------------


def site_modules() -> Iterator[tuple[Path, ast.Module]]:
    for package in SITE:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT), ast.parse(path.read_text(), filename=str(path))


def sends_by_name(call: ast.Call) -> bool:
    """``x.send_task(name, ...)``, ``publisher.send_now(name, ...)``, ``publisher.publish(name, ...)``,
    ``signature(name, ...)``: the calls that reach a task by its name."""
    func = call.func
    if isinstance(func, ast.Attribute):
        if func.attr in ("send_task", "signature"):
            return True
        return (
            isinstance(func.value, ast.Name) and func.value.id == "publisher" and func.attr in ("send_now", "publish")
        )
    return isinstance(func, ast.Name) and func.id == "signature"


def is_constant(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "tasknames"
        and node.attr in constants()
    )


def test_every_name_sent_is_a_constant():
    senders, wrong = [], []
    for path, tree in site_modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and sends_by_name(node) and path != PLUMBING:
                senders.append(f"{path}:{node.lineno}")
                name = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "name"), None)
                if name is None or not is_constant(name):
                    wrong.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    assert senders, "no sender found: has the way tasks are sent changed?"
    assert not wrong, "tasks sent by a name that is not a games/tasknames.py constant:\n" + "\n".join(wrong)


def test_no_module_spells_a_task_name_out(registered):
    names = {name for name in registered if name.split(".")[0] in SITE}
    spelled = [
        f"{path}:{node.lineno}: {node.value!r}"
        for path, tree in site_modules()
        if path != Path("games/tasknames.py")
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in names
    ]
    assert not spelled, "use the games/tasknames.py constant instead:\n" + "\n".join(spelled)
