"""Celery tasks of accounts: thin calls into accounts/guests.py."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="accounts.tasks.delete_stale_guests", ignore_result=True)
def delete_stale_guests() -> int:
    """Delete guests with no match for GUEST_STALE_DAYS days (beat: hourly, default queue)."""
    from accounts.guests import guests_delete_stale

    return guests_delete_stale()
