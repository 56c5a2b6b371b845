# Issue 25 item 16: a deleted account stays as an anonymised, flagged row (docs/privacy.md).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_user_username_folded"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="is_deleted",
            field=models.BooleanField(db_index=True, default=False, verbose_name="deleted"),
        ),
    ]
