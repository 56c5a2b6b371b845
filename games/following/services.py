"""Every write of following: follow, stop following, and what a block or a deletion undoes.
A refusal is ``Refusal(code)`` with a code of codes.py."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q

from accounts.blocks import has_blocked
from accounts.models import User
from games import hooks
from games.models import Match
from kropki_site.lib.refusals import Refusal

from .models import Follow

# The most players one account follows (lichess: 400): the following page stays one page.
FOLLOW_LIMIT = 400


def _target(username: str) -> User:
    target = User.objects.filter(username=username, is_deleted=False).first()
    if target is None:
        raise Refusal("follow_no_player")
    return target


def follow(*, follower: User, username: str) -> User:
    """``follower`` follows the player ``username`` (again: nothing changes). Refused:
    follow_account (a guest follows nobody and is followed by nobody), follow_no_player,
    follow_self, follow_blocked (either has blocked the other), follow_limit."""
    if not follower.is_authenticated or getattr(follower, "is_guest", False):
        raise Refusal("follow_account")
    target = _target(username)
    if target.pk == follower.pk:
        raise Refusal("follow_self")
    if target.is_guest:
        raise Refusal("follow_account")
    if has_blocked(follower.pk, target.pk) or has_blocked(target.pk, follower.pk):
        raise Refusal("follow_blocked")
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=follower.pk).first()  # one follower's follows at a time
        if Follow.objects.filter(follower=follower, followed=target).exists():
            return target
        if Follow.objects.filter(follower=follower).count() >= FOLLOW_LIMIT:
            raise Refusal("follow_limit")
        try:
            with transaction.atomic():
                Follow.objects.create(follower=follower, followed=target)
        except IntegrityError:  # the same follow from another request
            return target
        # the followed player's list says so, once per follower (games/notifications)
        hooks.notice([target.pk], "follower", {"name": follower.username}, key=f"follower:{follower.pk}")
    return target


def unfollow(*, follower: User, username: str) -> bool:
    """``follower`` stops following ``username``; whether there was a follow."""
    deleted, _ = Follow.objects.filter(follower_id=follower.pk, followed__username=username).delete()
    return deleted > 0


def forget_between(a_id: int, b_id: int) -> int:
    """A block: neither follows the other any more. How many follows went."""
    deleted, _ = Follow.objects.filter(
        Q(follower_id=a_id, followed_id=b_id) | Q(follower_id=b_id, followed_id=a_id)
    ).delete()
    return deleted


def forget_account(user_id: int) -> None:
    """A deleted account follows nobody and nobody follows it."""
    Follow.objects.filter(Q(follower_id=user_id) | Q(followed_id=user_id)).delete()


def tell_followers(matches: list[Match]) -> None:
    """``games.hooks.matches_started``: the followers of each player (but the opponent) hear that
    they started a live game, unless the player is invisible (docs/social.md); only those who
    chose it get a line (``followed_playing`` is off by default)."""
    players = {uid for m in matches for uid in (m.pink_id, m.blue_id) if uid is not None}
    visible = dict(User.objects.filter(pk__in=players, invisible=False, is_deleted=False).values_list("pk", "username"))
    followers: dict[int, list[int]] = {}
    for follower_id, followed_id in Follow.objects.filter(followed_id__in=visible).values_list(
        "follower_id", "followed_id"
    ):
        followers.setdefault(followed_id, []).append(follower_id)
    hooks.notices(  # an arena's wave of hundreds of games: one call, a few statements for all
        [
            hooks.Notice(
                [f for f in followers[player] if f != opponent],
                "followed_playing",
                {"name": visible[player], "variant": m.variant, "match": m.pk},
                key=f"playing:{m.pk}:{player}",
            )
            for m in matches
            for player, opponent in ((m.pink_id, m.blue_id), (m.blue_id, m.pink_id))
            if player in visible and followers.get(player)
        ]
    )
