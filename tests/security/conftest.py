import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """Many users and logins per test: skip PBKDF2's deliberate slowness."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
