# Issue 24: the skeleton drops ``._-+@`` (accounts/usernames.py), so "ania." looks like "ania".

from django.db import migrations


def refill_skeletons(apps, schema_editor):
    """Every user's skeleton again, oldest account first; a later look-alike under
    the new rule keeps NULL (it may stay, but no new one can be made)."""
    from accounts.usernames import username_skeleton_key

    User = apps.get_model("accounts", "User")
    rows = list(User.objects.order_by("pk").values_list("pk", "username", "username_skeleton"))
    wanted: dict[int, str | None] = {}
    seen: set[str] = set()
    for pk, username, _old in rows:
        key = username_skeleton_key(username)
        wanted[pk] = None if key in seen else key
        seen.add(key)
    changed = [(pk, wanted[pk]) for pk, _name, old in rows if wanted[pk] != old]
    # Clear first, so that no update meets a key another row still holds.
    User.objects.filter(pk__in=[pk for pk, _key in changed]).update(username_skeleton=None)
    for pk, key in changed:
        if key is not None:
            User.objects.filter(pk=pk).update(username_skeleton=key)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0007_user_low_time_and_tap_confirm"),
    ]

    operations = [
        migrations.RunPython(refill_skeletons, migrations.RunPython.noop),
    ]
