"""Notifications' Celery task: the e-mail sweep, sent by beat (kropki_site/settings.py)."""

from __future__ import annotations

from celery import shared_task

from games import tasknames

from . import services


@shared_task(name=tasknames.NOTIFY_MAIL, ignore_result=True)  # type: ignore[untyped-decorator]
def notifications_mail() -> dict[str, int]:
    return dict(services.mail_pending())
