# Issue 25 item 8: log-in looks the name up by a folded copy made in Python
# (accounts.usernames.username_fold), the same on SQLite and PostgreSQL.

from django.db import migrations, models


def fill_folded(apps, schema_editor):
    from accounts.usernames import username_fold

    User = apps.get_model("accounts", "User")
    for pk, username in User.objects.values_list("pk", "username").iterator():
        User.objects.filter(pk=pk).update(username_folded=username_fold(username))


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_social"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_folded",
            field=models.CharField(db_index=True, default="", editable=False, max_length=600),
        ),
        migrations.RunPython(fill_folded, migrations.RunPython.noop),
    ]
