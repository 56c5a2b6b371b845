# Polish dates as Polish readers write them, one format on every page: "1.12.2026" and
# "1.12.2026, 07:15" (Django's own pl formats say "01-12-2026 07:15"). The rating charts
# (games/views/profile.py) use SHORT_DATE_FORMAT too. Everything else: django.conf.locale.pl.
SHORT_DATE_FORMAT = "j.m.Y"
SHORT_DATETIME_FORMAT = "j.m.Y, H:i"
