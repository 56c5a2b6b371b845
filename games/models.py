# Match, Move and Seek arrive with the live-play work (issue 4).
