"""The Celery app: settings come from Django's (CELERY_* names), tasks from each app's tasks.py."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kropki_site.settings")

app = Celery("kropki_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _add_heartbeat() -> None:
    from kropki_site.lib.heartbeat import WorkerHeartbeat  # local: needs Django's settings, configured above

    app.steps["worker"].add(WorkerHeartbeat)


_add_heartbeat()
