"""Importing this registers Kółko i krzyżyk: ``KROPKI_EXTRA_GAMES=tests.plugin.tictactoe.register``
for a live site (tests/browser/test_plugin_browser.py)."""

from games.catalogue import register

from .spec import SPEC

register(SPEC)
