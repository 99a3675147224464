"""The book's verdict rule: the word follows the paired interval, never the gap between two means."""

import math

import numpy as np
import pytest
from scipy import stats

from robotask.errors import RobotaskError
from robotask.words import UNRESOLVED, paired_interval, verdict


def test_verdict_follows_the_interval():
    assert verdict(0.4, 2.1) == "higher"
    assert verdict(-2.1, -0.4) == "lower"
    assert verdict(-0.3, 2.1) == UNRESOLVED
    assert verdict(0.0, 1.0) == UNRESOLVED  # touching zero is not excluding it
    assert verdict(1.0, 2.0, above="holds", below="does not hold") == "holds"
    assert verdict(math.nan, 1.0) == UNRESOLVED
    assert verdict(-math.inf, math.inf) == UNRESOLVED


def test_verdict_refuses_a_reversed_interval():
    with pytest.raises(RobotaskError, match="low end"):
        verdict(2.0, 1.0)


def test_paired_interval_is_the_student_t_interval():
    rng = np.random.default_rng(0)
    a = rng.normal(1.0, 1.0, 30)
    b = rng.normal(0.0, 1.0, 30)
    iv = paired_interval(a, b)
    d = a - b
    lo, hi = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
    assert iv.mean == pytest.approx(d.mean())
    assert (iv.low, iv.high) == (pytest.approx(lo), pytest.approx(hi))
    assert iv.n == 30 and iv.low > 0


def test_a_small_gap_inside_its_noise_is_not_resolved():
    """58.4 against 58.3 over galleries whose paired differences swing by a point: not resolved."""
    d = np.array([1.2, -0.9, 0.4, -1.1, 0.8, -0.2, 0.5, -0.4])
    assert abs(d.mean()) < 0.1
    iv = paired_interval(58.3 + d, np.full(8, 58.3))
    assert verdict(iv.low, iv.high) == UNRESOLVED


def test_one_draw_resolves_nothing():
    iv = paired_interval([3.0], [1.0])
    assert iv.mean == 2.0 and math.isinf(iv.low) and math.isinf(iv.high)
    assert verdict(iv.low, iv.high) == UNRESOLVED


def test_mismatched_draws_are_refused():
    with pytest.raises(RobotaskError, match="one length"):
        paired_interval([1.0, 2.0], [1.0])
