# Issue 12: usernames unique by their confusable skeleton (accounts/usernames.py).

from django.db import migrations, models


def fill_skeletons(apps, schema_editor):
    """Each user's skeleton hash, oldest account first; a later look-alike of
    an existing name keeps NULL (it may stay, but no new one can be made)."""
    from accounts.usernames import username_skeleton_key

    User = apps.get_model("accounts", "User")
    seen = set()
    for pk, username in User.objects.order_by("pk").values_list("pk", "username").iterator():
        key = username_skeleton_key(username)
        if key in seen:
            continue
        seen.add(key)
        User.objects.filter(pk=pk).update(username_skeleton=key)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_user_is_guest"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                fields=("username_skeleton",), name="accounts_user_username_skeleton_unique"
            ),
        ),
    ]
