"""Fair play (SPEC "Fair play", docs/fairplay.md): detection after rated games, the flags staff
read, their decisions (engine and booster marks) and the rating points given back. The
live-position guard is the core's (``games/play/guard.py``): every computer move asks it.
"""
