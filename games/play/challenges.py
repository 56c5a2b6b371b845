"""Challenges: a private link or an open challenge in the lobby, accepted by
another account (colours are drawn at random); and direct challenges to one
named player, answered live on the site socket (docs/social.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation

from accounts.blocks import blocked_either_way
from accounts.models import Block, User
from accounts.usernames import username_fold
from games import catalogue, hooks
from games.live import transport
from games.models import Challenge, Match
from kropki_site.lib.refusals import Refusal

from . import botaccounts, trust
from .creating import match_create


def require_account(user_id: int | None) -> None:
    """Challenges and ranked play need a real account, not a guest."""
    if user_id is None:
        raise Refusal("login_required")
    if User.objects.filter(pk=user_id, is_guest=True).exists():
        raise Refusal("account_required")


def _days(days: object) -> int | None:
    """A challenge's days a move: None (a live game), or one of CORRESPONDENCE_DAYS (``bad_days``)."""
    if days in (None, "", "live"):
        return None
    try:
        value = int(str(days))
    except ValueError:
        raise Refusal("bad_days") from None
    if value not in catalogue.CORRESPONDENCE_DAYS:
        raise Refusal("bad_days")
    return value


def _params(variant: object, rated: bool, options: Mapping[str, object] | None) -> dict[str, Any]:
    """The engine parameters of a challenge's game: the variant's ({}) or its ``options`` (the
    form's "<game>-<option>" fields, ``catalogue.game_params``), which are casual only."""
    if not isinstance(variant, str) or variant not in catalogue.variant_keys():
        raise Refusal("unknown_variant")
    params = catalogue.game_params(variant, options or {})
    if params and rated:
        raise Refusal("options_are_casual")
    return params


def options_text(challenge: Challenge, language: str) -> str:
    """A challenge's own settings in ``language`` ("Board: 40×40 · ..."), "" for none: the
    notice of a direct challenge says them to both players before they agree."""
    with translation.override(language):
        return " · ".join(
            f"{label}: {words}" for label, words in catalogue.options_words(challenge.variant, challenge.params)
        )


def challenge_create(
    *,
    user_id: int,
    variant: str,
    rated: bool,
    listed: bool = False,
    options: Mapping[str, str] | None = None,
    days: object = None,
) -> Challenge:
    """A private link (``listed`` false) or an open challenge in the lobby, of ``variant`` with
    ``options`` (a casual game's settings, ``_params``). A user has at most
    ``CHALLENGES_OPEN_PER_USER`` open at once and creates at most ``CHALLENGES_PER_HOUR`` an hour
    (so creating and cancelling does not fill the database either)."""
    require_account(user_id)
    botaccounts.require_not_bot(user_id)  # a bot plays by direct challenge only
    params = _params(variant, rated, options)
    corr = _days(days)
    if rated:
        trust.require_established(user_id)
        trust.require_unmarked(user_id)
    with transaction.atomic():
        # the creator's row lock orders one user's creations (the counts below stay true)
        User.objects.select_for_update().filter(pk=user_id).values_list("pk").first()
        now = timezone.now()
        mine = Challenge.objects.filter(creator_id=user_id, target__isnull=True)  # direct ones count apart
        if mine.filter(Challenge.open_q(now)).count() >= settings.CHALLENGES_OPEN_PER_USER:
            raise Refusal("too_many_challenges")
        if mine.filter(created_at__gt=now - timedelta(hours=1)).count() >= settings.CHALLENGES_PER_HOUR:
            raise Refusal("challenges_too_often")
        return Challenge.objects.create(
            creator_id=user_id, variant=variant, params=params, days=corr, rated=rated, listed=listed
        )


def challenge_accept(*, token: Any, user_id: int | None) -> Match:
    """Accept an open challenge: colours are drawn at random."""
    require_account(user_id)
    with transaction.atomic():
        try:
            challenge = Challenge.objects.select_for_update().get(token=token)
        except (Challenge.DoesNotExist, ValidationError, ValueError, TypeError):
            raise Refusal("challenge_not_open") from None
        if challenge.status != Challenge.Status.OPEN or challenge.target_id is not None:  # direct: not by link
            raise Refusal("challenge_not_open")
        if challenge.is_expired:
            raise Refusal("challenge_expired")
        if challenge.creator_id == user_id:
            raise Refusal("own_challenge")
        assert user_id is not None  # require_account
        botaccounts.require_not_bot(user_id)
        if blocked_either_way(challenge.creator_id, user_id):
            raise Refusal("blocked")
        if challenge.rated:
            trust.require_established(user_id)
            trust.require_unmarked(user_id, challenge.creator_id)  # either marked since the challenge
        players = [challenge.creator_id, user_id]
        random.shuffle(players)
        match = match_create(
            variant=challenge.variant,
            params=challenge.params,
            days=challenge.days,
            pink_id=players[0],
            blue_id=players[1],
            rated=challenge.rated,
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.match = match
        challenge.save(update_fields=["status", "match"])
        return match  # the challenger's page, polling, goes to it (templates/games/challenge.html)


def challenge_cancel(*, token: Any, user_id: int) -> None:
    with transaction.atomic():
        updated = Challenge.objects.filter(token=token, creator_id=user_id, status=Challenge.Status.OPEN).update(
            status=Challenge.Status.CANCELLED
        )
    if not updated:
        raise Refusal("challenge_not_open")


# -- direct challenges ------------------------------------------------------------------------
#
# A Challenge row with ``target`` set: pending while open and younger than DIRECT_CHALLENGE_SECONDS.
# The frames go to the site sockets of both players (transport.send_to_site_user) after commit.


def direct_ttl() -> timedelta:
    return timedelta(seconds=settings.DIRECT_CHALLENGE_SECONDS)


def direct_pending_q(now: datetime | None = None) -> Q:
    """Direct, open and not yet expired."""
    since = (now or timezone.now()) - direct_ttl()
    return Q(status=Challenge.Status.OPEN, target__isnull=False, created_at__gt=since)


def _seconds_left(challenge: Challenge, now: datetime) -> int:
    return max(0, round((challenge.created_at + direct_ttl() - now).total_seconds()))


def _tell_both(challenge: Challenge, frame: dict[str, Any]) -> None:
    creator_id, target_id = challenge.creator_id, challenge.target_id
    assert target_id is not None

    def send() -> None:
        transport.send_to_site_user(creator_id, frame)
        transport.send_to_site_user(target_id, frame)

    transaction.on_commit(send)


def challenge_direct_create(
    *,
    user_id: int,
    target_name: object,
    variant: object,
    rated: bool,
    colour: object = Challenge.Colour.RANDOM,
    options: Mapping[str, str] | None = None,
    days: object = None,
) -> Challenge:
    """Challenge the player called ``target_name`` (any letter case). Refused: to yourself, to a
    guest, when either blocked the other, to a player taking challenges only from players they
    have played, a second one to the same player while the first waits, more than
    DIRECT_CHALLENGES_PENDING_PER_USER waiting or DIRECT_CHALLENGES_PER_HOUR an hour, and more
    than DIRECT_CHALLENGES_PENDING_PER_TARGET waiting for the target or
    DIRECT_CHALLENGES_PER_TARGET_HOUR received by it in the last hour (accepted ones aside)."""
    require_account(user_id)
    params = _params(variant, rated, options)
    corr = _days(days)
    assert isinstance(variant, str)  # _params
    if not isinstance(colour, str) or colour not in Challenge.Colour.values:
        raise Refusal("bad_colour")
    if not isinstance(target_name, str) or not 0 < len(target_name) <= 150:
        raise Refusal("unknown_user")
    target = User.objects.filter(username_folded=username_fold(target_name), is_active=True).first()
    if target is None:
        raise Refusal("unknown_user")
    if target.pk == user_id:
        raise Refusal("self_challenge")
    if target.is_guest:
        raise Refusal("not_challengeable")
    if blocked_either_way(user_id, target.pk):
        raise Refusal("blocked")
    played = trust.have_played(user_id, target.pk)
    if target.challenges_from_played_only and not played:
        raise Refusal("only_played_challenge")
    if rated or not played:  # a new account challenges only players it has played, and unrated
        trust.require_established(user_id)
    if rated:
        trust.require_unmarked(user_id, target.pk)
    with transaction.atomic():
        # Both rows locked, in id order: the creator's and the target's counts below stay true.
        locked = {u.pk: u for u in User.objects.select_for_update().filter(pk__in=[user_id, target.pk]).order_by("pk")}
        creator = locked[user_id]
        now = timezone.now()
        pending = Challenge.objects.filter(direct_pending_q(now), creator_id=user_id)
        if pending.filter(target_id=target.pk).exists():
            raise Refusal("already_challenged")
        if pending.count() >= settings.DIRECT_CHALLENGES_PENDING_PER_USER:
            raise Refusal("too_many_pending")
        sent = Challenge.objects.filter(
            creator_id=user_id, target__isnull=False, created_at__gt=now - timedelta(hours=1)
        )
        if sent.count() >= settings.DIRECT_CHALLENGES_PER_HOUR:
            raise Refusal("challenges_too_often")
        # ...and per target (harassment: 8 fresh accounts put 8 live notices on one player's pages)
        if (
            Challenge.objects.filter(direct_pending_q(now), target_id=target.pk).count()
            >= settings.DIRECT_CHALLENGES_PENDING_PER_TARGET
        ):
            raise Refusal("target_busy")
        lately = Challenge.objects.filter(target_id=target.pk, created_at__gt=now - timedelta(hours=1)).exclude(
            status=Challenge.Status.ACCEPTED
        )  # the ones the target wanted do not count
        if lately.count() >= settings.DIRECT_CHALLENGES_PER_TARGET_HOUR:
            raise Refusal("target_challenged_often")
        challenge = Challenge.objects.create(
            creator_id=user_id,
            target=target,
            variant=variant,
            params=params,
            days=corr,
            rated=bool(rated),
            colour=colour,
            listed=False,
        )
        seconds = settings.DIRECT_CHALLENGE_SECONDS
        common = {
            "id": challenge.pk,
            "variant": variant,
            "rated": challenge.rated,
            "days": corr,
            "colour": colour,
            "seconds": seconds,
        }
        # the list in the header, and an e-mail if the player is away (games/notifications)
        hooks.notice(
            [target.pk],
            "challenge",
            {"name": creator.username, "variant": variant, "challenge": challenge.pk},
            key=f"challenge:{challenge.pk}",
        )
        received = {
            "type": "challenge_received",
            "from": creator.username,
            **common,
            "options": options_text(challenge, target.language),
        }
        sent_frame = {
            "type": "challenge_sent",
            "to": target.username,
            **common,
            "options": options_text(challenge, creator.language),
        }
        target_id = target.pk

        def send() -> None:
            transport.send_to_site_user(target_id, received)
            transport.send_to_site_user(user_id, sent_frame)

        transaction.on_commit(send)
        return challenge


def _colours(challenge: Challenge) -> tuple[int, int]:
    """(pink, blue) user ids: the creator's ``colour``, or drawn at random."""
    assert challenge.target_id is not None
    creator, target = challenge.creator_id, challenge.target_id
    if challenge.colour == Challenge.Colour.PINK:
        return creator, target
    if challenge.colour == Challenge.Colour.BLUE:
        return target, creator
    players = [creator, target]
    random.shuffle(players)
    return players[0], players[1]


def _locked_direct(challenge_id: object, **who: int) -> Challenge:
    """The open direct challenge ``challenge_id`` addressed to / sent by ``who``, row-locked.
    Unknown, someone else's and answered ones are all ``challenge_not_open`` (no probing)."""
    if isinstance(challenge_id, bool) or not isinstance(challenge_id, int):
        raise Refusal("bad_frame")
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id, target__isnull=False, **who).first()
    if challenge is None or challenge.status != Challenge.Status.OPEN:
        raise Refusal("challenge_not_open")
    if timezone.now() >= challenge.created_at + direct_ttl():
        raise Refusal("challenge_expired")
    return challenge


def challenge_direct_answer(*, challenge_id: object, user_id: int, accept: bool) -> Match | None:
    """The challenged player accepts (the match starts, both players are sent to it) or declines."""
    with transaction.atomic():
        challenge = _locked_direct(challenge_id, target_id=user_id)
        if not accept:
            challenge.status = Challenge.Status.DECLINED
            challenge.save(update_fields=["status"])
            _tell_both(challenge, {"type": "challenge_declined", "id": challenge.pk})
            return None
        require_account(user_id)
        if blocked_either_way(challenge.creator_id, user_id):  # a block made since the challenge
            raise Refusal("blocked")
        if challenge.rated:
            trust.require_established(user_id)
            trust.require_unmarked(user_id, challenge.creator_id)  # either marked since the challenge
        pink, blue = _colours(challenge)
        match = match_create(
            variant=challenge.variant,
            params=challenge.params,
            days=challenge.days,
            pink_id=pink,
            blue_id=blue,
            rated=challenge.rated,
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.match = match
        challenge.save(update_fields=["status", "match"])
        _tell_both(
            challenge,
            {
                "type": "challenge_accepted",
                "id": challenge.pk,
                "match_id": match.pk,
                "match_url": reverse("match", args=[match.pk]),
            },
        )
        return match


def challenge_direct_cancel(*, challenge_id: object, user_id: int) -> None:
    """The challenger takes the challenge back before it is answered."""
    with transaction.atomic():
        challenge = _locked_direct(challenge_id, creator_id=user_id)
        challenge.status = Challenge.Status.CANCELLED
        challenge.save(update_fields=["status"])
        _tell_both(challenge, {"type": "challenge_cancelled", "id": challenge.pk})


def challenge_direct_expire(*, challenge_id: int) -> bool:
    """Tell both players that the challenge expired unanswered, if it did (a timer on the
    challenger's daphne calls this when the time is up; the row stays ``open``, past its time).
    True if the frame was sent."""
    challenge = Challenge.objects.filter(pk=challenge_id, target__isnull=False).first()
    if challenge is None or challenge.status != Challenge.Status.OPEN:
        return False
    if timezone.now() < challenge.created_at + direct_ttl():
        return False
    _tell_both(challenge, {"type": "challenge_expired", "id": challenge.pk})
    return True


def challenges_cancel_on_block(*, blocker_id: int, blocked_id: int) -> int:
    """A block was just made: the open challenges between the two (direct ones either way, and
    the blocked player's link and lobby challenges cannot be accepted by the blocker anyway) are
    cancelled, and both players' pages are told (``challenge_cancelled``). How many."""
    with transaction.atomic():
        rows = list(
            Challenge.objects.select_for_update().filter(
                Q(creator_id=blocked_id, target_id=blocker_id) | Q(creator_id=blocker_id, target_id=blocked_id),
                status=Challenge.Status.OPEN,
            )
        )
        for challenge in rows:
            challenge.status = Challenge.Status.CANCELLED
            challenge.save(update_fields=["status"])
            _tell_both(challenge, {"type": "challenge_cancelled", "id": challenge.pk})
    return len(rows)


def challenges_direct_pending_for(user_id: int) -> list[dict[str, Any]]:
    """The challenges waiting for ``user_id``'s answer, as ``challenge_received`` frames (sent
    again when a site socket opens: a page loaded after the challenge still shows it)."""
    now = timezone.now()
    blocked = Block.objects.filter(blocker_id=user_id).values("blocked_id")
    rows = (
        Challenge.objects.filter(direct_pending_q(now), target_id=user_id)
        .exclude(creator_id__in=blocked)
        .select_related("creator")
    )
    return [
        {
            "type": "challenge_received",
            "id": c.pk,
            "from": c.creator.username,
            "variant": c.variant,
            "rated": c.rated,
            "days": c.days,
            "colour": c.colour,
            "seconds": _seconds_left(c, now),
            "options": options_text(c, translation.get_language() or settings.LANGUAGE_CODE),
        }
        for c in rows.order_by("created_at")
    ]


def challenges_direct_sent_by(user_id: int) -> list[dict[str, Any]]:
    """The challenges ``user_id`` sent that still wait, as ``challenge_sent`` frames."""
    now = timezone.now()
    rows = Challenge.objects.filter(direct_pending_q(now), creator_id=user_id).select_related("target")
    return [
        {
            "type": "challenge_sent",
            "id": c.pk,
            "to": c.target.username if c.target else "",
            "variant": c.variant,
            "rated": c.rated,
            "days": c.days,
            "colour": c.colour,
            "seconds": _seconds_left(c, now),
            "options": options_text(c, translation.get_language() or settings.LANGUAGE_CODE),
        }
        for c in rows.order_by("created_at")
    ]
