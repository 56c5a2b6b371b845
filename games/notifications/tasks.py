"""Notifications' Celery tasks, sent by beat (kropki_site/settings.py): the delivery that turns
the outbox's notices into rows, and the sweep that sends what waits (e-mails, then Web Push)."""

from __future__ import annotations

from celery import shared_task

from games import tasknames

from . import push, services


@shared_task(name=tasknames.NOTIFY_DELIVER, ignore_result=True)  # type: ignore[untyped-decorator]
def notifications_deliver() -> int:
    return services.deliver_paced()


@shared_task(name=tasknames.NOTIFY_MAIL, ignore_result=True)  # type: ignore[untyped-decorator]
def notifications_mail() -> dict[str, int]:
    return {**services.mail_pending(), **{f"push_{k}": v for k, v in push.push_pending().items()}}
