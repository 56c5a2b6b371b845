"""Every read of following: the players one follows with their presence and last results,
who follows one, and what a profile shows of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Q

from accounts.models import User
from games.live import online
from games.models import Match

from .models import Follow

RECENT = 3  # last results shown for each followed player


@dataclass
class Recent:
    match_id: int
    variant: str
    result: str  # "win" / "draw" / "loss", for the followed player


@dataclass
class Followed:
    user: User
    online: bool  # False for an invisible player
    playing: int | None  # the match they play now (online and visible only)
    last_seen: datetime | None  # None for an invisible player
    recent: list[Recent] = field(default_factory=list)


def _result(match: Match, user_id: int) -> str:
    if match.winner is None:
        return "draw"
    return "win" if match.user_id_of(match.winner) == user_id else "loss"


def following_of(user_id: int) -> list[Followed]:
    """The players ``user_id`` follows: playing now first, then online, then by name. Four
    queries and one Redis read, whatever their number (at most services.FOLLOW_LIMIT)."""
    users = [
        f.followed
        for f in Follow.objects.filter(follower_id=user_id, followed__is_deleted=False).select_related("followed")
    ]
    if not users:
        return []
    here = set(online.online_ids())
    visible_online = [u.pk for u in users if u.pk in here and not u.invisible]
    playing: dict[int, int] = {}
    if visible_online:
        active = (
            Match.objects.filter(
                Q(pink_id__in=visible_online) | Q(blue_id__in=visible_online), status=Match.Status.ACTIVE
            )
            .order_by("created_at")
            .values_list("pk", "pink_id", "blue_id")
        )
        for pk, pink, blue in active:  # the newest wins
            for side in (pink, blue):
                if side in visible_online:
                    playing[side] = pk
    ids = [u.pk for u in users]
    recent: dict[int, list[Recent]] = {uid: [] for uid in ids}
    finished = (
        Match.objects.filter(Q(pink_id__in=ids) | Q(blue_id__in=ids), status=Match.Status.FINISHED)
        .only("pk", "variant", "pink_id", "blue_id", "winner", "finished_at")
        .order_by("-finished_at")[: RECENT * len(ids) * 2]
    )
    for match in finished:
        for player in (match.pink_id, match.blue_id):
            if player is not None and player in recent and len(recent[player]) < RECENT:
                recent[player].append(Recent(match.pk, match.variant, _result(match, player)))
    rows = [
        Followed(
            user=u,
            online=u.pk in visible_online,
            playing=playing.get(u.pk),
            last_seen=None if u.invisible else u.last_seen,
            recent=recent[u.pk],
        )
        for u in users
    ]
    rows.sort(key=lambda r: (r.playing is None, not r.online, r.user.username.lower()))
    return rows


def followers_of(user_id: int) -> list[tuple[User, datetime]]:
    """Who follows ``user_id``, newest first, with the moment they began."""
    return [
        (f.follower, f.created_at)
        for f in Follow.objects.filter(followed_id=user_id, follower__is_deleted=False)
        .select_related("follower")
        .order_by("-created_at")
    ]


def follows(follower_id: int | None, followed_id: int) -> bool:
    return follower_id is not None and Follow.objects.filter(follower_id=follower_id, followed_id=followed_id).exists()


def counts(user_id: int) -> tuple[int, int]:
    """(players ``user_id`` follows, players following ``user_id``)."""
    following = Follow.objects.filter(follower_id=user_id, followed__is_deleted=False).count()
    followers = Follow.objects.filter(followed_id=user_id, follower__is_deleted=False).count()
    return following, followers


def account_part(user: User) -> dict[str, list[dict[str, str]]]:
    """Following's part of "Download my data": whom the account follows and who follows it."""
    return {
        "follows": [
            {"player": f.followed.username, "since": f.created_at.isoformat()}
            for f in Follow.objects.filter(follower=user).select_related("followed").order_by("created_at")
        ],
        "followers": [
            {"player": f.follower.username, "since": f.created_at.isoformat()}
            for f in Follow.objects.filter(followed=user).select_related("follower").order_by("created_at")
        ],
    }
