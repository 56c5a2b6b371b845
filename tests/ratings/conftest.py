from tests.games.conftest import make_match  # noqa: F401 - the match fixture, shared
