"""Notifications' Celery task: the sweep that sends what waits (e-mails, then Web Push), sent by
beat (kropki_site/settings.py)."""

from __future__ import annotations

from celery import shared_task

from games import tasknames

from . import push, services


@shared_task(name=tasknames.NOTIFY_MAIL, ignore_result=True)  # type: ignore[untyped-decorator]
def notifications_mail() -> dict[str, int]:
    return {**services.mail_pending(), **{f"push_{k}": v for k, v in push.push_pending().items()}}
