"""scripts/stats.py: the Mann-Whitney distribution, intervals, the z test, the verdict rule."""

import math

import pytest

import stats


@pytest.mark.parametrize("m, n", [(1, 1), (3, 3), (5, 5), (4, 7), (10, 10)])
def test_u_distribution_counts_every_ordering(m, n):
    counts = stats.u_counts(m, n)
    assert len(counts) == m * n + 1 and sum(counts) == math.comb(m + n, m)
    assert counts == counts[::-1]  # symmetric


def test_exact_p_values():
    a, b = [1, 2, 3, 4, 5], [6, 7, 8, 9, 10]
    u, p = stats.mann_whitney(a, b)
    assert u == 25 and p == pytest.approx(2 / 252)
    assert stats.mann_whitney(b, a)[1] == pytest.approx(2 / 252)
    assert stats.min_p(5, 5) == pytest.approx(2 / 252)
    assert stats.min_p(3, 3) > 0.05  # three repetitions each can never reach 95%
    # interleaved samples: no evidence
    assert stats.mann_whitney([1, 3, 5, 7, 9], [2, 4, 6, 8, 10])[1] > 0.5


def test_ties_use_the_normal_approximation():
    same = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert stats.mann_whitney(same, same)[1] == pytest.approx(1.0)
    assert stats.mann_whitney([1.0] * 5, [1.0] * 5)[1] == 1.0


def test_rank_test_interval_covers_the_shift():
    a = [100.0, 100.4, 99.8, 100.1, 99.9]
    b = [x * 1.05 for x in a]
    t = stats.rank_test(a, b, 0.95)
    assert t.ratio == pytest.approx(1.05)
    assert t.low < 1.05 < t.high and t.low > 1.0
    assert t.p == pytest.approx(2 / 252)
    assert "Mann-Whitney 5+5" in t.method


def test_rank_test_without_an_interval():
    """Two repetitions each: no interval reaches 95%, so it is unbounded."""
    t = stats.rank_test([1.0, 2.0], [3.0, 4.0], 0.95)
    assert t.low == 0.0 and t.high == math.inf


def test_z_test_from_the_samples_noise():
    se = stats.median_se([100.0], 0.02, 400)  # 2% noise, 400 samples
    assert se == pytest.approx(1.2533 * 0.02 / 20, rel=1e-3)
    t = stats.z_test(100.0, se, 105.0, se, 0.95, "one repetition")
    assert t.ratio == pytest.approx(1.05) and t.p < 1e-6 and t.low > 1.0
    # nothing known about the noise of a single sample: untested, never significant
    t = stats.z_test(100.0, stats.median_se([100.0], float("nan"), 1), 150.0, 0.001, 0.95, "x")
    assert t.p != t.p and stats.verdict(t, 0.95, 0.03) == "same"


def test_few_repetitions_fall_back_to_the_z_test():
    a, b = [100.0, 101.0, 99.5], [105.0, 106.0, 104.5]
    t = stats.compare_runs(100.0, a, 0.01, 100, 105.0, b, 0.01, 100, 0.95)
    assert t.method.startswith("z test") and "3+3" in t.method and t.p < 0.05
    t = stats.compare_runs(100.0, a + [100.2, 99.9], 0.01, 100, 105.0, b + [105.1, 104.9], 0.01,
                           100, 0.95)
    assert t.method.startswith("Mann-Whitney")


@pytest.mark.parametrize("ratio, p, expected", [
    (1.05, 0.001, "slower"), (0.95, 0.001, "faster"), (1.02, 0.001, "same"),
    (1.20, 0.20, "same"), (1.05, float("nan"), "same"), (1 / 1.05, 0.01, "faster"),
])
def test_verdict_needs_significance_and_size(ratio, p, expected):
    t = stats.Test(ratio, ratio, ratio, p, "x")
    assert stats.verdict(t, 0.95, 0.03) == expected
