"""Bayesian comparison of two classifiers with a region of practical equivalence (ROPE).

Benavoli, Corani, Demšar & Zaffalon (2017), "Time for a change: a tutorial for comparing multiple
classifiers through Bayesian analysis", JMLR 18(77). Both tests are baycomp's (not re-implemented
here); this module fixes the orientation, the seeding and the input checks:

- :func:`signed_rank`: the Bayesian signed-rank test over data sets (one mean score per data
  set; Benavoli et al. 2014), ``baycomp.SignedRankTest``;
- :func:`hierarchical`: the hierarchical t-test over the folds of every data set (Corani et al.
  2017), ``baycomp.HierarchicalTest``; it needs Stan through the package ``pystan`` (>= 3.4);
- :func:`compare_to_reference`: the signed-rank test of one reference method against every other
  column of a data sets × methods table;
- :func:`simplex_figure`: baycomp's own simplex plot of the signed-rank posterior.

The three probabilities are those of baycomp: the posterior is sampled (Monte Carlo) and each
probability is the share of posterior samples in which that region is the most probable one —
``p_left`` "A better by more than ``rope``", ``p_rope`` "A and B within ``rope`` of each other
(practically equivalent)", ``p_right`` "B better by more than ``rope``". ``rope`` is in the units
of the metric (0.01 = one point of accuracy). With ``higher_is_better=False`` (error rates,
times) lower scores are better and ``p_left`` is still "A better". Every random draw comes from
``seed``: the same inputs and seed give identical probabilities.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from typing import NamedTuple

import numpy as np
import pandas as pd

from repro.stats.tests import empty_cells

__all__ = [
    "HIERARCHICAL_OPTIONS",
    "BayesianComparison",
    "compare_to_reference",
    "hierarchical",
    "signed_rank",
    "signed_rank_posterior",
    "simplex_figure",
]

#: keyword options of :func:`hierarchical`, passed to ``baycomp.HierarchicalTest`` (its names)
HIERARCHICAL_OPTIONS = (
    "runs",
    "lower_alpha",
    "upper_alpha",
    "lower_beta",
    "upper_beta",
    "upper_sigma",
    "chains",
    "nsamples",
)

_STAN_LOCK = threading.Lock()


class BayesianComparison(NamedTuple):
    """Posterior probabilities of a Bayesian comparison of A with B (they sum to 1)."""

    p_left: float  #: P(A better than B by more than the rope)
    p_rope: float  #: P(A and B practically equivalent: within the rope)
    p_right: float  #: P(B better than A by more than the rope)


def _check_rope(rope) -> float:
    try:
        value = float(rope)
    except (TypeError, ValueError):
        raise ValueError(
            f"rope must be a number >= 0 (in the metric's units), got {rope!r}"
        ) from None
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"rope must be a finite number >= 0 (in the metric's units), got {rope!r}")
    return value


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**32:
        raise ValueError(f"seed must be an integer in [0, 2**32), got {seed!r}")
    return int(seed)


def _check_nsamples(nsamples, name: str = "nsamples") -> int:
    if isinstance(nsamples, bool) or not isinstance(nsamples, (int, np.integer)) or nsamples < 1:
        raise ValueError(f"{name} must be a positive integer, got {nsamples!r}")
    return int(nsamples)


def _check_scores(a, b, ndim: int) -> tuple[np.ndarray, np.ndarray]:
    """``a``, ``b`` as float arrays of ``ndim`` dimensions, same shape, >= 2 data sets, finite."""
    shape = "one score per data set" if ndim == 1 else "data sets x fold scores"
    arrays = []
    for name, value in (("a", a), ("b", b)):
        try:
            arr = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be numeric ({shape}), got {value!r}") from None
        if arr.ndim != ndim:
            raise ValueError(f"{name} must be {ndim}-D ({shape}), got shape {arr.shape}")
        if not np.all(np.isfinite(arr)):
            bad = np.flatnonzero(~np.isfinite(arr).reshape(len(arr), -1).all(axis=1))
            raise ValueError(
                f"{name} has NaN or infinite scores (data sets at rows {bad.tolist()})"
            )
        arrays.append(arr)
    a, b = arrays
    if a.shape != b.shape:
        raise ValueError(f"a and b must have equal shapes ({shape}), got {a.shape} and {b.shape}")
    if len(a) < 2:
        raise ValueError(f"need at least 2 data sets, got {len(a)}")
    return a, b


def _oriented(a: np.ndarray, b: np.ndarray, higher_is_better: bool):
    """baycomp's ``p_left`` is "x higher"; negating both makes it "x lower" for error rates."""
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise ValueError(f"higher_is_better must be True or False, got {higher_is_better!r}")
    return (a, b) if higher_is_better else (-a, -b)


def _result(probs) -> BayesianComparison:
    p_left, p_rope, p_right = (float(p) for p in probs)
    return BayesianComparison(p_left, p_rope, p_right)


def signed_rank_posterior(
    a,
    b,
    rope: float,
    higher_is_better: bool = True,
    seed: int = 0,
    nsamples: int = 50000,
):
    """The sampled posterior of :func:`signed_rank` (baycomp's ``Posterior``: ``.probs()``,
    ``.plot_simplex(names)``, ``.sample`` of shape ``nsamples`` × 3, columns A better, rope,
    B better), for drawing the figure from the same samples as the probabilities."""
    import baycomp

    a, b = _check_scores(a, b, 1)
    rope = _check_rope(rope)
    x, y = _oriented(a, b, higher_is_better)
    return baycomp.SignedRankTest(
        x, y, rope, nsamples=_check_nsamples(nsamples), random_state=_check_seed(seed)
    )


def signed_rank(
    a,
    b,
    rope: float,
    higher_is_better: bool = True,
    seed: int = 0,
    nsamples: int = 50000,
) -> BayesianComparison:
    """Bayesian signed-rank test of A against B over data sets (Benavoli et al. 2014; 2017,
    JMLR 18(77)), baycomp's ``SignedRankTest`` with ``random_state=seed``.

    ``a``, ``b``: one score per data set (e.g. the mean accuracy over the folds), paired by
    position. Returns P(A better), P(practically equivalent: the differences within ``rope``),
    P(B better); ``rope`` = 0 gives ``p_rope`` = 0.
    """
    posterior = signed_rank_posterior(a, b, rope, higher_is_better, seed, nsamples)
    return _result(posterior.probs(with_rope=True))


@contextlib.contextmanager
def _seeded_stan(seed: int):
    """Give Stan the seed (baycomp 1.0.3 calls ``stan.build`` without one) and run baycomp in a
    scratch directory (it caches its last posterior as ``last-sample.pickle`` in the working
    directory, keyed without the seed or the number of samples)."""
    try:
        import stan
    except Exception as err:  # pystan 3.10 also fails to import without pkg_resources
        hint = ""
        if getattr(err, "name", None) == "pkg_resources":
            hint = "; pystan imports pkg_resources, gone from setuptools >= 81: 'setuptools<81'"
        raise ImportError(
            "the hierarchical test needs Stan through the package 'pystan' (>= 3.4, which "
            "baycomp calls; it builds the model with httpstan and a C++ compiler): the extra "
            "'bayes', `pip install -e \".[bayes]\"` in a checkout, or `pip install pystan "
            f"'setuptools<81'` (import stan failed: {type(err).__name__}: {err}{hint})"
        ) from err
    build = stan.build

    def seeded_build(program_code, *args, **kwargs):
        kwargs.setdefault("random_seed", seed)
        return build(program_code, *args, **kwargs)

    with _STAN_LOCK, tempfile.TemporaryDirectory(prefix="repro-baycomp-") as scratch:
        cwd = os.getcwd()
        stan.build = seeded_build
        os.chdir(scratch)
        try:
            yield
        finally:
            os.chdir(cwd)
            stan.build = build


def hierarchical(
    a,
    b,
    rope: float,
    higher_is_better: bool = True,
    seed: int = 0,
    **options,
) -> BayesianComparison:
    """Bayesian hierarchical t-test of A against B over the folds of every data set (Corani et
    al. 2017, Machine Learning 106; Benavoli et al. 2017, JMLR 18(77)), baycomp's
    ``HierarchicalTest`` sampled by Stan with ``seed``.

    ``a``, ``b``: data sets × fold scores (every fold of every repetition of the
    cross-validation, in the same order for A and B). ``options``: baycomp's ``runs`` (number of
    repetitions of the cross-validation, default 1), ``chains`` (4), ``nsamples`` (50000 per
    chain), ``lower_alpha``, ``upper_alpha``, ``lower_beta``, ``upper_beta``, ``upper_sigma``
    (the priors). Returns P(A better), P(practically equivalent), P(B better) on a new data set.
    Needs the package ``pystan``: an ``ImportError`` names it when it is missing.
    """
    import baycomp

    unknown = sorted(set(options) - set(HIERARCHICAL_OPTIONS))
    if unknown:
        raise ValueError(
            f"unknown hierarchical option(s) {unknown}; valid: {list(HIERARCHICAL_OPTIONS)}"
        )
    a, b = _check_scores(a, b, 2)
    if a.shape[1] < 2:
        raise ValueError(f"need at least 2 fold scores per data set, got {a.shape[1]}")
    rope = _check_rope(rope)
    seed = _check_seed(seed)
    for name in ("runs", "chains", "nsamples"):
        if name in options:
            options[name] = _check_nsamples(options[name], name)
    runs = options.get("runs", 1)
    if a.shape[1] % runs:
        raise ValueError(f"runs={runs} does not divide the {a.shape[1]} fold scores per data set")
    x, y = _oriented(a, b, higher_is_better)
    if np.mean(np.std(y - x, axis=1)) == 0:
        raise ValueError(
            "a - b is constant within every data set: the hierarchical test is undefined "
            "(its scale is the mean within-data-set standard deviation); use signed_rank"
        )
    with _seeded_stan(seed):
        posterior = baycomp.HierarchicalTest(x, y, rope, random_state=seed, **options)
    return _result(posterior.probs(with_rope=True))


def compare_to_reference(
    table: pd.DataFrame,
    reference: str,
    rope: float,
    higher_is_better: bool = True,
    seed: int = 0,
    nsamples: int = 50000,
) -> pd.DataFrame:
    """Bayesian signed-rank test (:func:`signed_rank`) of ``reference`` against every other
    method of ``table`` (data sets × methods, e.g. :func:`repro.stats.tests.metric_table`).

    One row per other method, in the table's order: ``method``, ``p_reference_better``,
    ``p_equivalent`` (within ``rope``, in the metric's units), ``p_other_better``. The table must
    be complete (``table.dropna()`` drops the data sets a method lacks).
    """
    if not isinstance(table, pd.DataFrame):
        raise ValueError(f"table must be a DataFrame (data sets x methods), got {type(table)}")
    if reference not in table.columns:
        raise ValueError(
            f"reference must be one of the methods {list(table.columns)}, got {reference!r}"
        )
    if table.shape[1] < 2:
        raise ValueError(f"need at least 2 methods, got {list(table.columns)}")
    values = table.apply(pd.to_numeric, errors="coerce")
    missing = values.isna()
    if missing.to_numpy().any():
        raise ValueError(f"{empty_cells(values)}; leave those data sets out first")
    rows = []
    for method in table.columns:
        if method == reference:
            continue
        res = signed_rank(values[reference], values[method], rope, higher_is_better, seed, nsamples)
        rows.append(
            {
                "method": method,
                "p_reference_better": res.p_left,
                "p_equivalent": res.p_rope,
                "p_other_better": res.p_right,
            }
        )
    return pd.DataFrame(
        rows, columns=["method", "p_reference_better", "p_equivalent", "p_other_better"]
    )


def simplex_figure(
    a,
    b,
    rope: float,
    names: tuple[str, str],
    higher_is_better: bool = True,
    seed: int = 0,
    nsamples: int = 50000,
):
    """baycomp's simplex plot of the signed-rank posterior of :func:`signed_rank` (same seed,
    same samples): one point per posterior sample in the triangle whose corners are "A better"
    (``names[0]``, bottom left), "B better" (``names[1]``, bottom right) and "equivalent" (top).
    Returns the matplotlib Figure (close it with ``matplotlib.pyplot.close``).
    """
    if len(names) != 2 or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be two strings (A, B), got {names!r}")
    posterior = signed_rank_posterior(a, b, rope, higher_is_better, seed, nsamples)
    return posterior.plot_simplex(tuple(names))
