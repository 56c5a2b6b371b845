"""Kółko i krzyżyk (tic-tac-toe): a game that lives entirely in the tests.

It joins the site only through ``games.catalogue.register`` (see ``spec.py``),
which proves the catalogue is the one place a new game plugs into: nothing
outside these files knows it exists (tests/plugin/test_plugin_game.py).
"""
