"""``manage.py house_bots``: the site's own levels as bot accounts (docs/api.md "House bots").

    manage.py house_bots            # make kropki-bot-latwy, -sredni, -trudny once; a token file each

Each account is made once (a bot, established: its date of joining set back by
NEW_ACCOUNT_MINUTES, so rated challenges work at once), with a ``bot:play`` token written
to ``VAR_DIR/house-bots/<name>.token`` (mode 600; a new token when the file is missing).
Then run one bridge per bot (docs/api.md):

    scripts/engine_bridge.py @var/house-bots/kropki-bot-trudny.token -- \\
        .venv/bin/python bench/kropki_engine.py --level trudny
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.tokens import token_create
from games.play.botaccounts import user_become_bot

LEVELS = ("latwy", "sredni", "trudny")


class Command(BaseCommand):
    help = "Make the house bots' accounts and their token files."

    def handle(self, *args: Any, **options: Any) -> None:
        folder = Path(settings.VAR_DIR) / "house-bots"
        folder.mkdir(parents=True, exist_ok=True)
        for level in LEVELS:
            name = f"kropki-bot-{level}"
            with transaction.atomic():
                user = User.objects.filter(username=name).first()
                if user is None:
                    user = User.objects.create_user(
                        username=name, email=f"{name}@bots.invalid", password=secrets.token_urlsafe(32)
                    )
                    joined = timezone.now() - timedelta(minutes=settings.NEW_ACCOUNT_MINUTES + 1)
                    User.objects.filter(pk=user.pk).update(date_joined=joined)
                user = user_become_bot(user_id=user.pk)
            path = folder / f"{name}.token"
            if not path.exists():
                _token, secret = token_create(user=user, name="house bridge", scopes=["bot:play"])
                path.write_text(secret + "\n")
                os.chmod(path, 0o600)
            self.stdout.write(f"{name}: {path}")
