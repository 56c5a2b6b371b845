"""Every write of notifications: a notice becomes rows (``notify``, the listener of
``games.hooks.notice``), the list read, a player's choices, a one-click unsubscribe, the e-mail
sweep, and an account's rows gone with it."""

from __future__ import annotations

import email.policy
import logging
import smtplib
import time
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from games.hooks import Notice
from games.live import online, transport
from kropki_site.lib.refusals import Refusal

from . import kinds, selectors
from .models import Notification, NotificationPrefs, PendingNotice, PushSubscription

log = logging.getLogger(__name__)

_UNSUBSCRIBE_SALT = "kropki.unsubscribe"


def notify(user_ids: list[int], kind: str, data: dict[str, Any], key: str = "") -> int:
    """One notice (``notify_many`` of one). How many players it is to reach."""
    return notify_many([Notice(list(user_ids), kind, data, key)])


def notify_many(notices: list[Notice]) -> int:
    """The listener of ``games.hooks.notice`` and ``notices``: the notices into the outbox
    (``PendingNotice``), one insert in the caller's transaction, so they commit with the event
    and cost it nothing more however many players they name; beat's delivery
    (``deliver_paced``, within NOTIFY_DELIVER_SECONDS) makes each player's rows. How many
    players they are to reach (each once a notice)."""
    for notice in notices:
        if notice.kind not in kinds.KINDS:
            raise ValueError(f"unknown notification kind {notice.kind!r}")
    pending = [
        PendingNotice(user_ids=list(dict.fromkeys(n.user_ids)), kind=n.kind, data=n.data, key=n.key)
        for n in notices
        if n.user_ids
    ]
    PendingNotice.objects.bulk_create(pending)
    return sum(len(p.user_ids) for p in pending)


def deliver_paced() -> int:
    """Beat's run (``notifications_deliver``, every NOTIFY_DELIVER_SECONDS): up to
    NOTIFY_DELIVER_STEPS deliveries (``deliver_pending``), spaced evenly over the run, until the
    outbox is empty: a backlog goes out at NOTIFY_DELIVER_STEPS x NOTIFY_DELIVER_BATCH players a
    run, in small steps (one big insert a second delayed the moves that met it). How many
    players were taken."""
    steps = max(1, settings.NOTIFY_DELIVER_STEPS)
    gap = settings.NOTIFY_DELIVER_SECONDS / steps
    done = 0
    for step in range(steps):
        began = time.monotonic()
        taken = deliver_pending()
        done += taken
        if not taken:
            break
        if step < steps - 1:
            time.sleep(max(0.0, began + gap - time.monotonic()))
    return done


def deliver_pending(*, batch: int | None = None) -> int:
    """One step of beat's delivery (``deliver_paced``, the notify worker): the oldest notices of
    the outbox, up to ``batch`` players (NOTIFY_DELIVER_BATCH; a notice to more is split, its
    rest left for the next step), become their players' rows (``_deliver``) and leave the
    outbox, in one transaction. Locked with ``skip_locked``: two steps never take the same
    notice. A burst of notices therefore reaches the rows at a steady pace, never all at once
    beside the moves. Notices of a kind gone since they were told (a new release) are dropped on
    the way; a read of nothing else reads on, so that they never end beat's run early. How many
    players were taken (0: the outbox is empty)."""
    batch = batch or settings.NOTIFY_DELIVER_BATCH
    while True:
        with transaction.atomic():
            taken: list[Notice] = []
            done: list[int] = []
            room = batch
            for row in PendingNotice.objects.select_for_update(skip_locked=True).order_by("id")[:batch]:
                if row.kind not in kinds.KINDS:
                    log.warning("notice %s of an unknown kind %r dropped", row.pk, row.kind)
                    done.append(row.pk)
                    continue
                ids = row.user_ids[:room]
                taken.append(Notice(ids, row.kind, row.data, row.key))
                room -= len(ids)
                if len(ids) < len(row.user_ids):  # the rest of a big notice: the next step's
                    row.user_ids = row.user_ids[len(ids) :]
                    row.save(update_fields=["user_ids"])
                else:
                    done.append(row.pk)
                if room <= 0:
                    break
            PendingNotice.objects.filter(pk__in=done).delete()
            if taken:
                _deliver(taken)
        if taken or not done:  # told some, or the outbox is empty
            return batch - room


def _deliver(notices: list[Notice]) -> None:
    """Tell each notice's players of its kind: a row in the list of each who wants it there, and
    an e-mail to each who wants it by mail, has a verified address, is not on the site now and
    had no mail of this kind (of this game, for a game's kind) in NOTIFY_MAIL_GAP_HOURS, nor one
    earlier in these notices. A ``key`` reaches a player once. The frames (the header's unread
    count) go after commit. The same few statements for one notice or a delivery's hundreds."""
    # Each player, their choices and whether a browser of theirs subscribed: one read
    players = {
        player["pk"]: player
        for player in User.objects.filter(
            pk__in={pk for n in notices for pk in n.user_ids}, is_active=True, is_deleted=False, is_guest=False
        )
        .annotate(
            subscribed=Exists(PushSubscription.objects.filter(user_id=OuterRef("pk"))),
            on_site=F("notification_prefs__site"),
            by_mail=F("notification_prefs__mail"),
            by_push=F("notification_prefs__push"),
        )
        .values("pk", "email_verified", "language", "subscribed", "on_site", "by_mail", "by_push")
    }
    if not players:
        return
    now = timezone.now()
    # (notice, player) of each notice's own players, each once
    pairs = [(i, pk) for i, n in enumerate(notices) for pk in dict.fromkeys(n.user_ids) if pk in players]
    mailable = {
        (i, pk)
        for i, pk in pairs
        if players[pk]["email_verified"] and kinds.wants(notices[i].kind, "mail", players[pk]["by_mail"])
    }
    # Web Push: to a player's browsers that subscribed
    pushable = {
        (i, pk)
        for i, pk in pairs
        if players[pk]["subscribed"] and kinds.wants(notices[i].kind, "push", players[pk]["by_push"])
    }
    # neither while the player is on the site (their pages hear it): one presence read for all
    here = online.online_among({pk for _, pk in mailable | pushable})
    mailable = {(i, pk) for i, pk in mailable if pk not in here}
    pushable = {(i, pk) for i, pk in pushable if pk not in here}
    if mailable:
        mailable = _mail_gap(notices, mailable, now)
    rows = []
    told: list[tuple[int, str, dict[str, Any]]] = []
    for i, pk in pairs:
        notice, player = notices[i], players[pk]
        shown = kinds.wants(notice.kind, "site", player["on_site"])
        mail = (i, pk) in mailable
        push = (i, pk) in pushable
        if shown or mail or push:
            rows.append(
                Notification(
                    user_id=pk,
                    kind=notice.kind,
                    data=notice.data,
                    key=notice.key,
                    created_at=now,
                    shown=shown,
                    read_at=None if shown else now,
                    mail=Notification.Mail.PENDING if mail else Notification.Mail.NONE,
                    push=Notification.Mail.PENDING if push else Notification.Mail.NONE,
                )
            )
            if shown:
                told.append((pk, notice.kind, notice.data))
    if not rows:
        return
    # No batch_size: Django wraps several batches in one transaction, which on SQLite holds the
    # writer lock through all of them and their making (10,000 rows in batches of 500: a move's
    # write waited up to 1.5-1.9 s, not 0.3 s; docs/performance.md).
    Notification.objects.bulk_create(rows, ignore_conflicts=any(n.key for n in notices))
    languages = {pk: player["language"] for pk, player in players.items()}
    if told:
        transaction.on_commit(lambda: _push(told, languages))


def _mail_gap(notices: list[Notice], mailable: set[tuple[int, int]], now: datetime) -> set[tuple[int, int]]:
    """Of ``mailable`` (notice, player), those whose player had no mail of the notice's kind (of
    its game, for a game's kind) in NOTIFY_MAIL_GAP_HOURS, nor from an earlier of ``notices``:
    one read for all."""
    if settings.NOTIFY_MAIL_GAP_HOURS <= 0:  # no gap: every one is mailed
        return mailable

    def mark(pk: int, kind: str, match: Any) -> tuple[int, str, Any]:  # a game's kind: per game
        return (pk, kind, match if kinds.KINDS[kind].per_match else None)

    recent = Notification.objects.filter(
        user_id__in={pk for _, pk in mailable},
        kind__in={notices[i].kind for i, _ in mailable},
        mail__in=[Notification.Mail.PENDING, Notification.Mail.SENDING, Notification.Mail.SENT],
        created_at__gte=now - timedelta(hours=settings.NOTIFY_MAIL_GAP_HOURS),
    ).values_list("user_id", "kind", "data__match")
    lately = {mark(*row) for row in recent}
    kept = set()
    for i, pk in sorted(mailable):  # in the notices' order: the first of a kind is mailed
        seen = mark(pk, notices[i].kind, notices[i].data.get("match"))
        if seen not in lately:
            lately.add(seen)
            kept.add((i, pk))
    return kept


def _push(told: list[tuple[int, str, dict[str, Any]]], languages: dict[int, str]) -> None:
    """The header's count and the new line, to each player's open pages (site socket): only to
    those on the site, read after the commit. A page that opens meanwhile is marked online before
    it reads its welcome count (site_consumer.connect), so it is either counted here or its
    welcome sees the new row; a player elsewhere costs no count (most notices are to players
    away: that is why they are told)."""
    here = online.online_among({pk for pk, _, _ in told})
    told = [line for line in told if line[0] in here]
    if not told:
        return
    unread = selectors.unread_counts(list({pk for pk, _, _ in told}))
    frames = []
    for pk, kind, data in told:
        with translation.override(languages.get(pk) or settings.LANGUAGE_CODE):
            text, url = kinds.words(kind, data)
        frame = {"type": "notification", "kind": kind, "unread": unread.get(pk, 0), "text": text, "url": url}
        frames.append((pk, frame))
    transport.send_to_site_users(frames)


def read_all(*, user_id: int) -> int:
    """The player saw their list: every line is read; their other pages hear the count of 0."""
    done = Notification.objects.filter(user_id=user_id, shown=True, read_at__isnull=True).update(read_at=timezone.now())
    if done:
        transaction.on_commit(lambda: transport.send_to_site_user(user_id, {"type": "notification", "unread": 0}))
    return done


def prefs_save(
    *, user_id: int, site: dict[str, bool], mail: dict[str, bool], push: dict[str, bool] | None = None
) -> NotificationPrefs:
    """A player's choices: kind -> on/off for the list, for e-mail and for Web Push (a kind
    never mailed or pushed stays off)."""
    clean_site = {k: bool(site.get(k)) for k in kinds.KINDS}
    clean_mail = {k: bool(mail.get(k)) for k, kind in kinds.KINDS.items() if kind.mail is not None}
    clean_push = {k: bool((push or {}).get(k)) for k, kind in kinds.KINDS.items() if kind.mail is not None}
    prefs, _made = NotificationPrefs.objects.update_or_create(
        user_id=user_id, defaults={"site": clean_site, "mail": clean_mail, "push": clean_push}
    )
    return prefs


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=_UNSUBSCRIBE_SALT)


def unsubscribe(token: str) -> tuple[User, str]:
    """One click from an e-mail (RFC 8058): that kind no longer comes by e-mail to that player.
    Refusal ``unsubscribe_bad_link`` for a forged token."""
    try:
        data = signing.loads(token, salt=_UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        raise Refusal("unsubscribe_bad_link") from None
    user = User.objects.filter(pk=data.get("u"), is_deleted=False).first()
    kind = data.get("k")
    if user is None or kind not in kinds.KINDS:
        raise Refusal("unsubscribe_bad_link")
    with transaction.atomic():
        prefs, _made = NotificationPrefs.objects.select_for_update().get_or_create(user=user)
        prefs.mail = {**prefs.mail, kind: False}
        prefs.save(update_fields=["mail"])
    return user, kind


def mail_pending(*, batch: int | None = None) -> Counter[str]:
    """Send the e-mails waiting (the beat's sweep), oldest first, over one SMTP connection. The
    batch is taken in one write and settled in one more (``Notification.take``, ``settle``),
    never a write a mail: thousands of mails stay out of the moves' way on the database. Each
    row is taken by one sweep only; rows a dead sweep left taken go again after
    NOTIFY_CLAIM_SECONDS (at least once: never lost, perhaps sent twice). An address refused for
    good (5xx; smtplib's errors are OSErrors too, so it is told apart first) is marked failed and
    the batch goes on; a server down (an OSError, raised when it does not answer at all) or the
    claim's half-time spent leaves the rest pending for the next sweep. Counts of sent, failed
    and skipped."""
    done: Counter[str] = Counter()
    stale = timedelta(seconds=settings.NOTIFY_CLAIM_SECONDS)
    taken = Notification.take("mail", batch or settings.NOTIFY_MAIL_BATCH, stale=stale)
    if not taken:
        return done
    deadline = time.monotonic() + stale.total_seconds() / 2
    outcome: dict[str, list[int]] = {state: [] for state in Notification.Mail}
    try:
        with get_connection() as connection:  # opens it (a server down raises here) and closes it
            for row in taken:
                user = row.user
                if user.is_deleted or not user.email_verified or not user.email:
                    outcome[Notification.Mail.NONE].append(row.pk)
                    done["skipped"] += 1
                    continue
                if time.monotonic() >= deadline:  # the claim runs out: the rest for the next sweep
                    break
                try:
                    connection.send_messages([_message(row, user)])
                except smtplib.SMTPRecipientsRefused as refused:
                    if any(code < 500 for code, _text in refused.recipients.values()):
                        log.warning("notification mail %s: the address is refused for now", row.pk)
                        break  # a temporary refusal (4xx: greylisting, a full mailbox): the next sweep
                    outcome[Notification.Mail.FAILED].append(row.pk)  # for good (5xx): not retried
                    log.warning("notification mail %s: the address is refused", row.pk)
                    done["failed"] += 1
                    continue
                except OSError:  # the server is down: the rest back to the queue, for the next sweep
                    log.warning("notification mail %s: the SMTP server did not answer", row.pk)
                    break
                except Exception:
                    outcome[Notification.Mail.FAILED].append(row.pk)
                    log.exception("notification mail %s refused", row.pk)
                    done["failed"] += 1
                    continue
                outcome[Notification.Mail.SENT].append(row.pk)
                done["sent"] += 1
    finally:  # what was not settled (a server down, an error) is pending again
        Notification.settle("mail", outcome, taken)
    return done


class _Message(EmailMessage):
    """An e-mail whose headers are not folded below RFC 5322's 998 characters: the unsubscribe
    URL is one word, and folded it would go out as encoded words no mail program reads as a
    link (RFC 2369, RFC 8058)."""

    def message(self, *, policy: Any = email.policy.default) -> Any:
        return super().message(policy=policy.clone(max_line_length=998))


def _message(row: Notification, user: User) -> EmailMessage:
    """The e-mail of one notification, in its player's language, with a one-click unsubscribe."""
    site = settings.SITE_URL.rstrip("/")
    unsubscribe_url = site + reverse("notifications_unsubscribe", args=[unsubscribe_token(user.pk, row.kind)])
    with translation.override(user.language):
        text, path = kinds.words(row.kind, row.data)
        subject = f"Kropki: {text}"
        body = "\n\n".join(
            [
                text,
                site + path,
                translation.gettext("You receive this because you chose it in your notification settings:")
                + "\n"
                + site
                + reverse("notification_settings"),
                translation.gettext("Stop these e-mails with one click:") + "\n" + unsubscribe_url,
            ]
        )
    return _Message(
        subject=subject,
        body=body,
        to=[user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )


def forget_account(user_id: int) -> None:
    """A deleted account's notifications and choices go with it."""
    Notification.objects.filter(user_id=user_id).delete()
    NotificationPrefs.objects.filter(user_id=user_id).delete()
    PushSubscription.objects.filter(user_id=user_id).delete()
