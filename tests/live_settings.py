"""The settings of the test suite's live sites (tests/live.py ``live_env``): the site's own,
with the environment live_env gives, and one cost taken out. Django's PBKDF2 hashes a password
in about 0.34 s of a core; the live sites make and check hundreds of passwords (every player a
site call makes, every log-in through a form), minutes of CPU on a 2-core machine. The
in-process tests use the same MD5 hasher (tests/conftest.py). ``scripts/run`` (the supervised
run's test) sets the site's own settings and keeps PBKDF2."""

from kropki_site.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
