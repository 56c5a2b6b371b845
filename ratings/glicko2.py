"""Glicko-2 ratings: small, pure and standard-library only.

Follows Mark Glickman, "Example of the Glicko-2 system" (steps 1 to 8), with
the Illinois algorithm for the new volatility (step 5, epsilon 1e-6).
Parameters are lichess's: new players start at 1500 / 500 / 0.09, tau 0.75,
the deviation is kept within [45, 500], a rating is provisional while its
deviation is at least 110, and inactivity adds 0.21436 rating periods a day.

Each rated game is one rating period for both players (``rate_game``); the
time since a player's previous game is applied beforehand with
``with_inactivity``. Nothing here imports Django: the service layer loads the
rows, calls these functions and stores the results.

We do not use the ``glicko2`` package from PyPI: it computes the volatility
from the wrong quantity.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_DEVIATION",
    "DEFAULT_RATING",
    "DEFAULT_TAU",
    "DEFAULT_VOLATILITY",
    "MAX_DEVIATION",
    "MIN_DEVIATION",
    "PROVISIONAL_DEVIATION",
    "RATING_PERIODS_PER_DAY",
    "Rating",
    "display",
    "expected_score",
    "is_provisional",
    "rate_game",
    "update",
    "with_inactivity",
]

DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 500.0
DEFAULT_VOLATILITY = 0.09
DEFAULT_TAU = 0.75
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
PROVISIONAL_DEVIATION = 110.0
RATING_PERIODS_PER_DAY = 0.21436

#: Glicko-2 scale factor between the Glicko and the Glicko-2 scale (step 2).
SCALE = 173.7178
#: Convergence tolerance of the volatility iteration (step 5).
EPSILON = 1e-6
_MAX_ITERATIONS = 1000

_GAME_SCORES = (0.0, 0.5, 1.0)


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the usual (Glicko) scale."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"rating must be finite, got {self.rating!r}")
        if not (math.isfinite(self.deviation) and self.deviation > 0):
            raise ValueError(f"deviation must be positive, got {self.deviation!r}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"volatility must be positive, got {self.volatility!r}")

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale (step 2)."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale (step 2)."""
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _logistic(x: float) -> float:
    # Numerically safe 1 / (1 + exp(-x)).
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return _logistic(_g(phi_j) * (mu - mu_j))


def _clamp_deviation(deviation: float) -> float:
    return min(MAX_DEVIATION, max(MIN_DEVIATION, deviation))


def expected_score(a: Rating, b: Rating) -> float:
    """The score ``a`` is expected to make against ``b`` (0 to 1).

    As in step 3 of the paper, only the opponent's deviation enters, so
    ``expected_score(a, b) + expected_score(b, a)`` is 1 only when both
    deviations are equal.
    """
    return _expected(a.mu, b.mu, b.phi)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi2 + v + ex
        return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / tau2

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau

    f_a = f(big_a)
    f_b = f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= EPSILON or f_b == f_a:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        # "<= 0" as in the paper's corrected text: with "< 0" an exact root
        # (f_c == 0) would never let the bracket close.
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    else:  # pragma: no cover - the Illinois algorithm converges long before
        raise ArithmeticError("Glicko-2 volatility iteration did not converge")
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    *,
    tau: float = DEFAULT_TAU,
) -> Rating:
    """The player's rating after one rating period (steps 1 to 8).

    ``results`` holds ``(opponent's rating before the period, score)`` pairs,
    the score being 1 for a win, 0.5 for a draw and 0 for a loss. With no
    results only the deviation grows, by one period of the player's
    volatility. The new deviation is kept within [45, 500].
    """
    if not (math.isfinite(tau) and tau > 0):
        raise ValueError(f"tau must be positive, got {tau!r}")
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score must be between 0 and 1, got {score!r}")

    mu, phi, sigma = player.mu, player.phi, player.volatility

    # Step 3 and 4: the estimated variance v and the improvement delta.
    information = 0.0
    improvement = 0.0
    for opponent, score in results:
        g_j = _g(opponent.phi)
        e_j = _expected(mu, opponent.mu, opponent.phi)
        information += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (score - e_j)

    if information == 0.0:
        # No games (or only games whose outcome was certain to the last bit):
        # step 6 alone, rating and volatility unchanged.
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, _clamp_deviation(phi_star * SCALE), sigma)

    v = 1.0 / information
    delta = v * improvement

    # Step 5: the new volatility.
    new_sigma = _new_volatility(phi, sigma, v, delta, tau)

    # Step 6 and 7: the pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement

    # Step 8: back to the Glicko scale.
    return Rating(
        rating=new_mu * SCALE + DEFAULT_RATING,
        deviation=_clamp_deviation(new_phi * SCALE),
        volatility=new_sigma,
    )


def rate_game(
    a: Rating,
    b: Rating,
    score_a: float,
    *,
    tau: float = DEFAULT_TAU,
) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them.

    ``score_a`` is 1 when ``a`` won, 0.5 for a draw and 0 when ``b`` won. The
    game is one rating period for both players, and both are computed from
    the ratings before the game.
    """
    if score_a not in _GAME_SCORES:
        raise ValueError(f"score_a must be 1, 0.5 or 0, got {score_a!r}")
    new_a = update(a, [(b, float(score_a))], tau=tau)
    new_b = update(b, [(a, 1.0 - score_a)], tau=tau)
    return new_a, new_b


def with_inactivity(r: Rating, days: float) -> Rating:
    """The rating after ``days`` without games: the deviation grows.

    lichess counts 0.21436 rating periods a day:
    phi' = sqrt(phi^2 + periods * sigma^2), capped at 500. A deviation is
    never lowered here (no floor is applied), and rating and volatility stay.
    """
    if not (math.isfinite(days) and days >= 0):
        raise ValueError(f"days must be a non-negative number, got {days!r}")
    periods = days * RATING_PERIODS_PER_DAY
    phi = math.sqrt(r.phi * r.phi + periods * r.volatility * r.volatility)
    deviation = max(r.deviation, min(MAX_DEVIATION, phi * SCALE))
    return Rating(r.rating, deviation, r.volatility)


def is_provisional(rd: float) -> bool:
    """Whether a rating with this deviation is provisional (RD >= 110)."""
    return rd >= PROVISIONAL_DEVIATION


def display(r: Rating) -> str:
    """The rating as shown to players: "1500", or "1500?" when provisional.

    Rounded half up to a whole number.
    """
    text = str(math.floor(r.rating + 0.5))
    return text + "?" if is_provisional(r.deviation) else text
