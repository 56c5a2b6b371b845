"""Table-driven tests of ratings/glicko2.py, starting from Glickman's example."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import glicko2
from ratings.glicko2 import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    Rating,
    display,
    expected_score,
    is_provisional,
    rate_game,
    update,
    with_inactivity,
)

# --- Glickman, "Example of the Glicko-2 system" -------------------------------

PAPER_PLAYER = Rating(1500, 200, 0.06)
PAPER_RESULTS = [
    (Rating(1400, 30, 0.06), 1.0),
    (Rating(1550, 100, 0.06), 0.0),
    (Rating(1700, 300, 0.06), 0.0),
]


def test_glickman_worked_example():
    new = update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    assert new.rating == pytest.approx(1464.05, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.0001)


def test_glickman_worked_example_volatility_to_the_papers_digits():
    # The paper prints sigma' = 0.05999 (docs/reliability.md row 17 asks for +-1e-5).
    new = update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_glickman_example_intermediate_quantities():
    # Step 3 and 4 of the paper: v = 1.7785, delta = -0.4834 (Glicko-2 scale).
    # The paper rounds g and E to three digits before summing, hence 1e-3.
    mu, phi = PAPER_PLAYER.mu, PAPER_PLAYER.phi
    info = improvement = 0.0
    for opponent, score in PAPER_RESULTS:
        g = glicko2._g(opponent.phi)
        e = glicko2._expected(mu, opponent.mu, opponent.phi)
        info += g * g * e * (1 - e)
        improvement += g * (score - e)
    v = 1 / info
    assert v == pytest.approx(1.7785, abs=1e-3)
    assert v * improvement == pytest.approx(-0.4834, abs=1e-3)
    sigma = glicko2._new_volatility(phi, 0.06, v, v * improvement, 0.5)
    assert sigma == pytest.approx(0.05999, abs=1e-5)


@pytest.mark.parametrize(
    ("rating", "opponent", "expected"),
    [
        # Step 3's table in the paper: E = 0.639, 0.432, 0.303.
        (PAPER_PLAYER, Rating(1400, 30, 0.06), 0.639),
        (PAPER_PLAYER, Rating(1550, 100, 0.06), 0.432),
        (PAPER_PLAYER, Rating(1700, 300, 0.06), 0.303),
        (Rating(1500, 500), Rating(1500, 500), 0.5),
        (Rating(1700, 60), Rating(1500, 60), 0.7560),  # worked by hand
    ],
)
def test_expected_score(rating, opponent, expected):
    assert expected_score(rating, opponent) == pytest.approx(expected, abs=1e-3)


def test_expected_score_uses_only_the_opponents_deviation():
    a, b = Rating(1600, 50), Rating(1400, 300)
    assert expected_score(a, b) + expected_score(b, a) != pytest.approx(1.0)
    assert expected_score(a, b) == expected_score(Rating(1600, 400), b)


# --- One game ------------------------------------------------------------------

NEW = Rating()  # lichess's 1500 / 500 / 0.09
SETTLED = Rating(1500, 60, 0.06)


@pytest.mark.parametrize("player", [NEW, Rating(1500, 200, 0.06), Rating(2100, 110, 0.09), Rating(900, 80, 0.05)])
def test_draw_between_equal_ratings_leaves_both_ratings(player):
    a, b = rate_game(player, player, 0.5)
    assert a.rating == player.rating
    assert b.rating == player.rating
    assert a.deviation < player.deviation
    assert a == b


def test_draw_between_equal_settled_ratings():
    # At RD 60 one game carries less information than one period of
    # volatility adds (step 6), so the RD creeps up by a hair; the rating
    # still does not move.
    a, b = rate_game(SETTLED, SETTLED, 0.5)
    assert a == b
    assert a.rating == SETTLED.rating
    assert a.deviation == pytest.approx(60.015, abs=1e-3)
    assert a.deviation < update(SETTLED, []).deviation


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        (Rating(1700, 60, 0.06), Rating(1500, 60, 0.06)),
        (Rating(1520, 300), Rating(1480, 80)),
        (Rating(2400, 45), Rating(1200, 500)),
    ],
)
def test_draw_between_unequal_ratings_moves_both_towards_each_other(stronger, weaker):
    s, w = rate_game(stronger, weaker, 0.5)
    assert s.rating < stronger.rating
    assert w.rating > weaker.rating
    # Mirrored call, same outcome.
    w2, s2 = rate_game(weaker, stronger, 0.5)
    assert (s2, w2) == (s, w)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (NEW, NEW),
        (SETTLED, SETTLED),
        (Rating(1800, 60), Rating(1400, 60)),  # favourite wins
        (Rating(1400, 60), Rating(1800, 60)),  # upset
        (Rating(1500, 50), Rating(1500, 350)),
    ],
)
def test_winner_gains_and_loser_loses(a, b):
    new_a, new_b = rate_game(a, b, 1)
    assert new_a.rating > a.rating
    assert new_b.rating < b.rating


@pytest.mark.parametrize(
    ("a", "b", "score"),
    [
        (NEW, NEW, 1),
        (SETTLED, SETTLED, 0),
        (Rating(1600, 70, 0.06), Rating(1550, 70, 0.06), 1),
        (Rating(1600, 70, 0.06), Rating(1550, 70, 0.06), 0.5),
        (Rating(1600, 70, 0.06), Rating(1550, 70, 0.06), 0),
        (Rating(2000, 200), Rating(1200, 200), 0),
    ],
)
def test_changes_nearly_cancel_out_for_equal_deviations(a, b, score):
    new_a, new_b = rate_game(a, b, score)
    gain_a = new_a.rating - a.rating
    gain_b = new_b.rating - b.rating
    # Equal deviations give equal weights; only the volatilities differ a bit.
    assert abs(gain_a + gain_b) <= 0.01 * max(abs(gain_a), abs(gain_b), 1.0)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (NEW, NEW),
        (Rating(1700, 60, 0.06), Rating(1500, 90, 0.05)),
        (Rating(1400, 45), Rating(2200, 500)),
    ],
)
@pytest.mark.parametrize("score", [1, 0.5, 0])
def test_symmetric(a, b, score):
    new_a, new_b = rate_game(a, b, score)
    mirrored_b, mirrored_a = rate_game(b, a, 1 - score)
    assert (new_a, new_b) == (mirrored_a, mirrored_b)


def test_rate_game_uses_the_ratings_before_the_game():
    a, b = Rating(1600, 100, 0.06), Rating(1500, 200, 0.07)
    new_a, new_b = rate_game(a, b, 1)
    assert new_a == update(a, [(b, 1.0)])
    assert new_b == update(b, [(a, 0.0)])


@pytest.mark.parametrize("score", [2, -1, 0.25, 0.75])
def test_rate_game_refuses_other_scores(score):
    with pytest.raises(ValueError):
        rate_game(NEW, NEW, score)


def test_tau_is_a_parameter():
    upset = [(Rating(1900, 60, 0.06), 1.0)]
    calm = update(SETTLED, upset, tau=0.3)
    wild = update(SETTLED, upset, tau=1.2)
    assert calm.volatility < wild.volatility
    assert update(SETTLED, upset) == update(SETTLED, upset, tau=0.75)


@pytest.mark.parametrize("tau", [0, -0.5, math.nan])
def test_tau_must_be_positive(tau):
    with pytest.raises(ValueError):
        update(NEW, [(NEW, 1.0)], tau=tau)


# --- Deviation: no games, inactivity, bounds ----------------------------------


def test_period_without_games_grows_only_the_deviation():
    new = update(SETTLED, [])
    assert new.rating == SETTLED.rating
    assert new.volatility == SETTLED.volatility
    expected = math.sqrt(60**2 + (0.06 * glicko2.SCALE) ** 2)
    assert new.deviation == pytest.approx(expected)


def test_period_without_games_is_capped():
    assert update(Rating(1500, 499.9, 0.09), []).deviation == MAX_DEVIATION


@pytest.mark.parametrize(
    ("deviation", "volatility", "days", "expected"),
    [
        (60, 0.06, 0, 60),
        # sqrt(60^2 + 0.21436 * 30 * (0.06 * 173.7178)^2)
        (60, 0.06, 30, math.sqrt(60**2 + 0.21436 * 30 * (0.06 * 173.7178) ** 2)),
        (60, 0.09, 365, math.sqrt(60**2 + 0.21436 * 365 * (0.09 * 173.7178) ** 2)),
        (45, 0.09, 1, math.sqrt(45**2 + 0.21436 * (0.09 * 173.7178) ** 2)),
        (300, 0.09, 10_000, MAX_DEVIATION),
        (500, 0.09, 30, MAX_DEVIATION),
    ],
)
def test_with_inactivity(deviation, volatility, days, expected):
    r = Rating(1650, deviation, volatility)
    inflated = with_inactivity(r, days)
    assert inflated.deviation == pytest.approx(expected)
    assert inflated.rating == r.rating
    assert inflated.volatility == r.volatility


def test_inactivity_grows_deviation_monotonically_up_to_the_cap():
    r = Rating(1800, 50, 0.06)
    deviations = [with_inactivity(r, days).deviation for days in range(0, 20_001, 250)]
    assert deviations == sorted(deviations)
    assert deviations[0] == 50
    assert deviations[-1] == MAX_DEVIATION
    assert max(deviations) == MAX_DEVIATION


@pytest.mark.parametrize("days", [-1, math.nan, math.inf])
def test_with_inactivity_refuses_bad_days(days):
    with pytest.raises(ValueError):
        with_inactivity(SETTLED, days)


def test_deviation_floor():
    # A well-established player keeps winning expected games: RD never drops
    # below lichess's floor of 45.
    r = Rating(1500, 50, 0.03)
    opponent = Rating(1500, 45, 0.03)
    for _ in range(50):
        r, _ = rate_game(r, opponent, 0.5)
    assert r.deviation == MIN_DEVIATION


def test_deviation_cap_after_a_game():
    new = update(Rating(1500, 500, 0.09), [(Rating(1500, 500), 1.0)])
    assert new.deviation <= MAX_DEVIATION


# --- Provisional and display ----------------------------------------------------


@pytest.mark.parametrize(
    ("rd", "provisional"),
    [(500, True), (110.0001, True), (110, True), (109.9999, False), (45, False)],
)
def test_provisional_boundary(rd, provisional):
    assert is_provisional(rd) is provisional


@pytest.mark.parametrize(
    ("rating", "text"),
    [
        (Rating(), "1500?"),
        (Rating(1500, 110), "1500?"),
        (Rating(1500, 109.99), "1500"),
        (Rating(1623.4, 60), "1623"),
        (Rating(1623.5, 60), "1624"),
        (Rating(1624.5, 60), "1625"),  # half up, not to even
        (Rating(1499.6, 200), "1500?"),
        (Rating(850.49, 80), "850"),
    ],
)
def test_display(rating, text):
    assert display(rating) == text


# --- Rating values ------------------------------------------------------------------


def test_defaults_are_lichess():
    assert Rating() == Rating(1500, 500, 0.09)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rating": math.nan},
        {"rating": math.inf},
        {"deviation": 0},
        {"deviation": -10},
        {"volatility": 0},
        {"volatility": math.nan},
    ],
)
def test_rating_refuses_nonsense(kwargs):
    with pytest.raises(ValueError):
        Rating(**kwargs)


def test_rating_is_frozen():
    with pytest.raises(AttributeError):
        NEW.rating = 1600  # type: ignore[misc]


# --- Properties ----------------------------------------------------------------------

ratings = st.builds(
    Rating,
    rating=st.floats(min_value=400, max_value=3500),
    deviation=st.floats(min_value=MIN_DEVIATION, max_value=MAX_DEVIATION),
    volatility=st.floats(min_value=0.01, max_value=0.2),
)
scores = st.sampled_from([0, 0.5, 1])


@settings(max_examples=100)  # Hypothesis' own default, whatever the profile
@given(a=ratings, b=ratings, score=scores)
def test_property_one_game(a, b, score):
    new_a, new_b = rate_game(a, b, score)
    for before, after, s in ((a, new_a, score), (b, new_b, 1 - score)):
        assert math.isfinite(after.rating)
        assert after.volatility > 0
        assert MIN_DEVIATION <= after.deviation <= MAX_DEVIATION
        # The deviation can only grow by one period at the new volatility
        # (step 6); the game itself never adds uncertainty.
        phi_star = math.hypot(before.deviation, after.volatility * glicko2.SCALE)
        assert after.deviation <= min(phi_star, MAX_DEVIATION) + 1e-9
        # A win never lowers a rating, a loss never raises it.
        if s == 1:
            assert after.rating >= before.rating
        elif s == 0:
            assert after.rating <= before.rating


@settings(max_examples=100)  # Hypothesis' own default, whatever the profile
@given(a=ratings, b=ratings, score=scores)
def test_property_symmetric(a, b, score):
    new_a, new_b = rate_game(a, b, score)
    assert rate_game(b, a, 1 - score) == (new_b, new_a)


@given(
    start=st.tuples(ratings, ratings),
    games=st.lists(st.tuples(scores, st.floats(min_value=0, max_value=400)), max_size=60),
)
def test_property_many_games_stay_finite(start, games):
    a, b = start
    for score, idle_days in games:
        a, b = rate_game(with_inactivity(a, idle_days), b, score)
        for r in (a, b):
            assert math.isfinite(r.rating)
            assert math.isfinite(r.volatility) and r.volatility > 0
            assert MIN_DEVIATION <= r.deviation <= MAX_DEVIATION


days = st.floats(min_value=0, max_value=1e6)


@given(r=ratings, days=days, more=days)
def test_property_inactivity_never_lowers_deviation(r, days, more):
    inflated = with_inactivity(r, days)
    assert r.deviation <= inflated.deviation <= MAX_DEVIATION
    assert with_inactivity(r, days + more).deviation >= inflated.deviation
