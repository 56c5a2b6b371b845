# Rating and RatingChange arrive with the ratings work.
