# English dates day-first, as a European reader expects: "1 Dec 2026" and "1 Dec 2026, 21:16"
# (Django's own en formats say "12/01/2026 9:16 p.m.", which reads as 12 January here).
# The month's short name leaves no doubt which number is the day.
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
TIME_FORMAT = "H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
