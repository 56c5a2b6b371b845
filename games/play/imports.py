"""Importing a game played elsewhere (issue 39; docs/analysis.md "Import"): SGF ``GM[40]`` for
Kropki (the game's reader, ``GameSpec.sgf_read``), or this site's JSON export for any game
(``games.engine.replay.read_record``). Every move is replayed by the engine: a game that breaks
a rule is refused whole. The game becomes a finished match with no accounts (``Match.imported``
names its players as the file does), never rated and never counted; its record page shows it,
and anyone may ask for its review, a visitor without an account too (the visitors' allowance of
games/review/services.py; the review's own limits and the fair-play guard apply). Anyone may
import, guests too, ``IMPORTS_PER_HOUR`` an hour per account and per address."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import catalogue
from games.engine import EngineError, Game
from games.engine.replay import BadRecord, read_record
from games.models import Match, Move
from kropki_site.lib import limits
from kropki_site.lib.refusals import Refusal

MAX_TEXT = 200_000  # characters: the longest game of the largest board is far below


def _variant_for(game: Game) -> tuple[str, dict[str, Any]]:
    """The variant of ``game``'s engine whose parameters are the game's (else the game's first
    variant, with the parameters as the match's own): (key, Match.params)."""
    spec = catalogue.game_spec(game.slug)
    for variant in spec.variants:
        if variant.game().params == game.params:
            return variant.key, {}
    return spec.variants[0].key, dict(game.params)


def _read(text: str) -> tuple[Game, list[int], dict[str, str]]:
    """(game, actions, the file's facts) of an SGF or JSON text; Refusal for anything else."""
    if text.startswith("("):
        for spec in catalogue.games():
            if spec.sgf_read is None:
                continue
            try:
                read = spec.sgf_read(text)
            except ValueError as exc:
                raise Refusal(getattr(exc, "code", "import_not_sgf")) from None
            info = {"pink": read.info.get("PB", ""), "blue": read.info.get("PW", ""), "result": read.info.get("RE", "")}
            info["date"] = read.info.get("DT", "")
            return spec.engine(**read.params), list(read.actions), {**info, "format": "sgf"}
        raise Refusal("import_not_kropki")
    if text.startswith("{"):
        try:
            record = json.loads(text)
            game, moves = read_record(record)
        except (ValueError, BadRecord):
            raise Refusal("import_unknown_format") from None
        if game.slug not in {spec.slug for spec in catalogue.games()} or any(isinstance(m, str) for m in moves):
            raise Refusal(
                "import_bad_move" if game.slug in {s.slug for s in catalogue.games()} else "import_unknown_format"
            )
        players = record.get("players") if isinstance(record.get("players"), dict) else {}
        names = {side: str((players.get(side) or {}).get("name") or "")[:150] for side in ("pink", "blue")}
        result = record.get("result") if isinstance(record.get("result"), str) else ""
        return game, [int(m) for m in moves], {**names, "result": result[:100], "date": "", "format": "json"}
    raise Refusal("import_unknown_format")


def game_import(*, text: object, user_id: int | None, address: str = "") -> Match:
    """Import the game in ``text`` as ``user_id`` (None: a visitor) from ``address``; the new
    finished match. Refusal with an ``import_*`` code otherwise: nothing is stored."""
    if not isinstance(text, str) or not text.strip():
        raise Refusal("import_unknown_format")
    if len(text) > MAX_TEXT:
        raise Refusal("import_too_big")
    hour = settings.IMPORTS_PER_HOUR
    if not limits.hit_account_and_address("import", user_id, address, limit=hour, window=3600):
        raise Refusal("import_too_often")
    game, actions, info = _read(text.strip())
    if not actions:
        raise Refusal("import_empty")
    state = game.new_initial_state()
    movers = []
    for action in actions:
        player = state.current_player()
        try:
            state.apply_action(action)
        except EngineError:
            raise Refusal("import_bad_move") from None
        movers.append(player or 0)
    variant, params = _variant_for(game)
    outcome = state.outcome()
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            variant=variant,
            params=params,
            status=Match.Status.FINISHED,
            winner=outcome.winner if outcome is not None else None,
            end_reason=outcome.reason if outcome is not None else Match.EndReason.IMPORTED,
            ply=len(actions),
            to_move=None,
            turn_deadline=None,
            history=list(actions),
            pink_score=state.scores()[0],
            blue_score=state.scores()[1],
            rated=False,
            counts=False,
            imported={key: str(value)[:150] for key, value in info.items()},
            imported_by_id=user_id,
            last_move_at=now,
            finished_at=now,
        )
        Move.objects.bulk_create(
            Move(match=match, ply=ply, player=player, action=action, by_timeout=False)
            for ply, (player, action) in enumerate(zip(movers, actions, strict=True), start=1)
        )
    return match
