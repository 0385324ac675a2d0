"""The statistics of compare.py, in the standard library only.

Two runs A and B of one benchmark are compared as the ratio of their times, B/A, in log space:

- With repetitions (each side a list of per-repetition median times): the Mann-Whitney U test
  (exact distribution without ties, normal approximation otherwise), the Hodges-Lehmann estimate
  of the ratio (the median of every log(b_j / a_i)) and its distribution-free confidence interval
  (order statistics of those pairwise ratios, from the U distribution).
- Without enough repetitions for that test to reach the confidence (fewer than 4 + 4, or 3 + 5):
  a z test on the log ratio of the medians, each median's standard error taken from the relative
  noise and count of its iteration samples (normal approximation: 1.2533 sigma / sqrt(samples))
  and from the spread of its repetitions, whichever is larger.

Either way the result is a `Test`: the ratio, its interval at the chosen confidence, a two-sided
p-value (NaN when nothing can be said: one sample on a side and no noise known) and the method.
"""

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Optional, Sequence, Tuple

MEDIAN_SE = math.sqrt(math.pi / 2)  # se(median) = 1.2533 sigma / sqrt(n) for normal samples
MIN_SE = 5e-4  # floor of a relative standard error: 0.05%, so identical samples give no infinity
EXACT_LIMIT = 50  # exact U distribution up to this many samples per side


@dataclass
class Test:
    ratio: float  # B/A estimate
    low: float  # confidence interval of the ratio
    high: float
    p: float  # two-sided p-value of "A and B take the same time"; NaN when untestable
    method: str


# ---- Mann-Whitney ---------------------------------------------------------------------------


@lru_cache(maxsize=None)
def u_counts(m: int, n: int) -> Tuple[int, ...]:
    """counts[u] = orderings of m + n distinct values whose U (pairs x > y) equals u."""
    if m == 0 or n == 0:
        return (1,)
    out = [0] * (m * n + 1)
    for u, c in enumerate(u_counts(m - 1, n)):  # the largest value is an x: above all n y's
        out[u + n] += c
    for u, c in enumerate(u_counts(m, n - 1)):  # the largest value is a y
        out[u] += c
    return tuple(out)


def u_cdf(u: float, m: int, n: int) -> float:
    """P(U <= u) under the null hypothesis, exact."""
    counts = u_counts(m, n)
    total = sum(counts)
    k = math.floor(u + 1e-9)
    return sum(counts[: k + 1]) / total if k >= 0 else 0.0


def min_p(m: int, n: int) -> float:
    """The smallest two-sided p-value the exact test can give with m and n samples."""
    return 2.0 / math.comb(m + n, m)


def mann_whitney(a: Sequence[float], b: Sequence[float]) -> Tuple[float, float]:
    """(U, two-sided p) for "B is neither larger nor smaller than A"; U counts the pairs with
    b > a (ties count one half)."""
    m, n = len(a), len(b)
    u = sum((1.0 if y > x else 0.5 if y == x else 0.0) for x in a for y in b)
    ties = len(set(a) | set(b)) < m + n
    if not ties and m <= EXACT_LIMIT and n <= EXACT_LIMIT:
        p = 2.0 * min(u_cdf(u, m, n), 1.0 - u_cdf(u - 1, m, n))
        return u, min(1.0, p)
    # normal approximation with the tie correction and a continuity correction
    values = sorted(list(a) + list(b))
    tie_term = 0.0
    i = 0
    while i < len(values):
        j = i
        while j < len(values) and values[j] == values[i]:
            j += 1
        t = j - i
        tie_term += t ** 3 - t
        i = j
    total = m + n
    var = m * n / 12.0 * ((total + 1) - tie_term / (total * (total - 1)))
    if var <= 0:
        return u, 1.0
    z = (abs(u - m * n / 2.0) - 0.5) / math.sqrt(var)
    return u, min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2.0)))


def _interval_rank(m: int, n: int, confidence: float) -> int:
    """k such that [d_(k), d_(mn+1-k)] of the sorted pairwise differences covers the shift with
    at least `confidence`; 0 when no interval reaches it."""
    alpha = 1.0 - confidence
    if m <= EXACT_LIMIT and n <= EXACT_LIMIT:
        k = 0
        while k < m * n // 2 and u_cdf(k, m, n) <= alpha / 2:
            k += 1
        return k
    z = NormalDist().inv_cdf(1.0 - alpha / 2)
    return max(0, math.floor(m * n / 2.0 - z * math.sqrt(m * n * (m + n + 1) / 12.0)))


def rank_test(a: Sequence[float], b: Sequence[float], confidence: float) -> Test:
    """Mann-Whitney p, Hodges-Lehmann ratio and its interval, from per-repetition times."""
    la, lb = [math.log(x) for x in a], [math.log(y) for y in b]
    diffs = sorted(y - x for x in la for y in lb)
    mid = len(diffs) // 2
    shift = diffs[mid] if len(diffs) % 2 else (diffs[mid - 1] + diffs[mid]) / 2
    k = _interval_rank(len(a), len(b), confidence)
    low, high = (diffs[k - 1], diffs[len(diffs) - k]) if k >= 1 else (-math.inf, math.inf)
    _, p = mann_whitney(a, b)
    return Test(math.exp(shift), math.exp(low), math.exp(high), p,
                f"Mann-Whitney {len(a)}+{len(b)} repetitions")


# ---- z test on medians ----------------------------------------------------------------------


def median_se(reps: Sequence[float], noise_rel: float, samples: float) -> Optional[float]:
    """Relative standard error of a run's median time (None when unknown)."""
    estimates = []
    k = len(reps)
    if noise_rel == noise_rel and samples == samples and samples >= 2:
        estimates.append(MEDIAN_SE * noise_rel / math.sqrt(samples * k))
    if k >= 2:
        logs = [math.log(x) for x in reps]
        mean = sum(logs) / k
        sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (k - 1))
        estimates.append(sd / math.sqrt(k))
    return max(max(estimates), MIN_SE) if estimates else None


def z_test(time_a: float, se_a: Optional[float], time_b: float, se_b: Optional[float],
           confidence: float, why: str) -> Test:
    ratio = time_b / time_a
    if se_a is None or se_b is None:
        return Test(ratio, math.nan, math.nan, math.nan, f"untested ({why})")
    se = math.hypot(se_a, se_b)
    z = math.log(ratio) / se
    half = NormalDist().inv_cdf(0.5 + confidence / 2) * se
    return Test(ratio, ratio * math.exp(-half), ratio * math.exp(half),
                math.erfc(abs(z) / math.sqrt(2.0)), f"z test on medians ({why})")


# ---- one benchmark --------------------------------------------------------------------------


def compare_runs(a_time: float, a_reps: Sequence[float], a_noise: float, a_samples: float,
                 b_time: float, b_reps: Sequence[float], b_noise: float, b_samples: float,
                 confidence: float) -> Test:
    """The test for one benchmark of runs A and B (see the module's docstring)."""
    m, n = len(a_reps), len(b_reps)
    if m >= 2 and n >= 2 and min_p(m, n) <= 1.0 - confidence:
        return rank_test(a_reps, b_reps, confidence)
    why = "one repetition" if min(m, n) < 2 else f"{m}+{n} repetitions are too few for a rank test"
    return z_test(a_time, median_se(a_reps, a_noise, a_samples),
                  b_time, median_se(b_reps, b_noise, b_samples), confidence, why)


def verdict(test: Test, confidence: float, min_effect: float) -> str:
    """'slower'/'faster' (B against A) when the difference is significant at `confidence` and
    the ratio is beyond 1 +- min_effect (a fraction); else 'same'."""
    if not test.p == test.p or test.p >= 1.0 - confidence:
        return "same"
    if test.ratio >= 1.0 + min_effect:
        return "slower"
    if test.ratio <= 1.0 / (1.0 + min_effect):
        return "faster"
    return "same"
