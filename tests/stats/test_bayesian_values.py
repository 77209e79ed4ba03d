"""Known answers of repro.stats.bayesian (the mutation run of 2026-11-28,
results/mutation/2026-11-28-stats.md).

- The Bayesian signed-rank posterior is recomputed here from its definition (Benavoli et al.
  2014; 2017, JMLR 18(77) §3.2): Dirichlet weights w ~ Dir(0.5, 1, …, 1) over the prior
  pseudo-observation z_0 = 0 and the differences z_i = b_i − a_i; θ_right = Σ_ij w_i w_j
  [z_i + z_j > 2r] (+ half at equality), θ_left the same for < −2r, θ_rope the rest; each
  probability is the share of samples where that region is the largest. The weights are drawn
  from ``numpy.random.RandomState(seed).dirichlet``, the stream the seed is documented to fix,
  so the shares must be equal to the last sample.
- The hierarchical test runs baycomp's own code with a stand-in ``stan`` module (Stan is not
  installed here, and a real fit takes minutes: the real one is the ``slow`` test of
  test_bayesian.py). The stand-in returns a posterior chosen here (δ0 far right, at 0, far
  left), whose probabilities are known; it also records what the wrapper gave Stan (the seed,
  the working directory, the data, the number of chains and samples).
"""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from repro.stats.bayesian import (
    HIERARCHICAL_OPTIONS,
    compare_to_reference,
    hierarchical,
    signed_rank,
    signed_rank_posterior,
    simplex_figure,
)


def _oracle(a, b, rope, seed, nsamples):
    """(p_left, p_rope, p_right) of the Bayesian signed-rank test from its definition."""
    z = np.r_[0.0, np.asarray(b, float) - np.asarray(a, float)]
    sums = z[:, None] + z[None, :]
    right = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    left = (sums < -2 * rope) + 0.5 * (sums == -2 * rope)
    alpha = np.r_[0.5, np.ones(z.size - 1)]
    w = np.random.RandomState(seed).dirichlet(alpha, nsamples)
    th_left = np.einsum("si,ij,sj->s", w, left, w)
    th_right = np.einsum("si,ij,sj->s", w, right, w)
    theta = np.c_[th_left, 1 - th_left - th_right, th_right] if rope > 0 else np.c_[
        1 - th_right, np.zeros(nsamples), th_right
    ]  # fmt: skip
    return tuple(np.bincount(theta.argmax(axis=1), minlength=3) / nsamples)


A = np.array([0.80, 0.75, 0.90, 0.60, 0.70])
B = A + np.array([0.02, -0.005, 0.011, 0.03, -0.015])


@pytest.mark.parametrize(("rope", "seed", "nsamples"), [(0.01, 5, 300), (0.0, 2, 250)])
def test_signed_rank_equals_its_definition(rope, seed, nsamples):
    got = signed_rank(A, B, rope, seed=seed, nsamples=nsamples)
    expected = _oracle(A, B, rope, seed, nsamples)
    assert tuple(got) == pytest.approx(expected, abs=1e-12)
    assert 0 < max(got) < 1  # a non-trivial posterior: the seed and nsamples matter
    # lower is better: A is "better" where it is lower, i.e. the differences a − b
    low = signed_rank(A, B, rope, higher_is_better=False, seed=seed, nsamples=nsamples)
    assert tuple(low) == pytest.approx(_oracle(B, A, rope, seed, nsamples), abs=1e-12)
    post = signed_rank_posterior(A, B, rope, seed=seed, nsamples=nsamples)
    assert post.sample.shape == (nsamples, 3)
    assert tuple(post.probs()) == pytest.approx(expected, abs=1e-12)


def test_signed_rank_seed_and_nsamples_are_used():
    """The oracle with another seed or size gives other shares (a check that the two differ,
    so the comparison above could fail)."""
    base = _oracle(A, B, 0.01, 5, 300)
    assert _oracle(A, B, 0.01, 6, 300) != base and _oracle(A, B, 0.01, 5, 301) != base
    assert tuple(signed_rank(A, B, 0.01, seed=6, nsamples=300)) == pytest.approx(
        _oracle(A, B, 0.01, 6, 300), abs=1e-12
    )
    # the defaults: seed 0, 50 000 samples (one sample is 2e-5 of probability)
    got = signed_rank(A, B, 0.01)
    assert tuple(got) == pytest.approx(_oracle(A, B, 0.01, 0, 50000), abs=1e-12)
    # numpy integers are seeds and sizes too; the largest seed is 2**32 − 1
    assert signed_rank(A, B, 0.01, seed=np.int64(6), nsamples=np.int32(300)) == signed_rank(
        A, B, 0.01, seed=6, nsamples=300
    )
    assert tuple(signed_rank(A, B, 0.01, seed=2**32 - 1, nsamples=50)) == pytest.approx(
        _oracle(A, B, 0.01, 2**32 - 1, 50), abs=1e-12
    )


def test_signed_rank_smallest_inputs_and_posterior_defaults():
    # one sample, two data sets: the smallest valid sizes
    assert tuple(signed_rank(A, B, 0.01, seed=5, nsamples=1)) == _oracle(A, B, 0.01, 5, 1)
    two = signed_rank(A[:2], B[:2], 0.01, seed=5, nsamples=300)
    assert tuple(two) == pytest.approx(_oracle(A[:2], B[:2], 0.01, 5, 300), abs=1e-12)
    # signed_rank_posterior's own defaults: higher is better, seed 0, 50 000 samples
    post = signed_rank_posterior(A, B, 0.01)
    assert post.sample.shape == (50000, 3)
    assert tuple(post.probs()) == pytest.approx(_oracle(A, B, 0.01, 0, 50000), abs=1e-12)


def test_signed_rank_accepts_and_refuses():
    assert signed_rank(list(A), tuple(A), "0.01", seed=1, nsamples=10) == (0.0, 1.0, 0.0)
    assert signed_rank(A, A, 0, seed=1, nsamples=10).p_rope == 0.0
    cases = [
        (dict(seed=2**32), "seed must be an integer in"),
        (dict(seed=True), "seed must be an integer"),
        (dict(seed=1.0), "seed must be an integer"),
        (dict(nsamples=True), "nsamples must be a positive integer, got True"),
        (dict(nsamples=2.0), "nsamples must be a positive integer"),
        (dict(higher_is_better=1), "higher_is_better must be True or False, got 1"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            signed_rank(A, B, 0.01, **kwargs)
    assert signed_rank(A, A + 1, 0.01, higher_is_better=np.bool_(False), nsamples=10) == (
        1.0,
        0.0,
        0.0,
    )
    for rope, message in (
        (np.inf, "rope must be a finite number >= 0"),
        (np.nan, "rope must be a finite number >= 0"),
        (None, "rope must be a number >= 0 .*got None"),
    ):
        with pytest.raises(ValueError, match=message):
            signed_rank(A, B, rope)
    with pytest.raises(ValueError, match="a must be numeric .one score per data set"):
        signed_rank(["x", "y"], B[:2], 0.01)
    with pytest.raises(ValueError, match="b must be numeric"):
        signed_rank(A[:2], ["x", "y"], 0.01)
    with pytest.raises(ValueError, match=r"b has NaN or infinite scores \(data sets at rows \[2\]"):
        signed_rank(A, np.r_[B[:2], np.inf, B[3:]], 0.01)
    with pytest.raises(ValueError, match=r"b must be 1-D .*got shape \(5, 1\)"):
        signed_rank(A, B[:, None], 0.01)
    with pytest.raises(ValueError, match=r"equal shapes .*got \(5,\) and \(4,\)"):
        signed_rank(A, B[:4], 0.01)
    with pytest.raises(ValueError, match="need at least 2 data sets, got 1"):
        signed_rank(A[:1], B[:1], 0.01)


def test_compare_to_reference_by_definition():
    table = pd.DataFrame({"x": B, "ref": A, "same": A, "up": A + 1.0}, index=list("abcde"))
    got = compare_to_reference(table, "ref", 0.01, seed=5, nsamples=300)
    assert got.columns.tolist() == ["method", "p_reference_better", "p_equivalent",
                                    "p_other_better"]  # fmt: skip
    assert got["method"].tolist() == ["x", "same", "up"]
    rows = got.set_index("method")
    assert tuple(rows.loc["x"]) == pytest.approx(_oracle(A, B, 0.01, 5, 300), abs=1e-12)
    assert tuple(rows.loc["same"]) == (0.0, 1.0, 0.0)
    assert tuple(rows.loc["up"]) == (0.0, 0.0, 1.0)
    low = compare_to_reference(table, "ref", 0.01, higher_is_better=False, seed=5, nsamples=300)
    assert tuple(low.set_index("method").loc["x"]) == pytest.approx(
        _oracle(B, A, 0.01, 5, 300), abs=1e-12
    )
    assert tuple(low.set_index("method").loc["up"]) == (1.0, 0.0, 0.0)
    # numbers written as strings are numbers
    text = table.astype(str)
    assert compare_to_reference(text, "ref", 0.01, seed=5, nsamples=300).equals(got)
    # defaults: seed 0, 50 000 samples
    one = compare_to_reference(table[["ref", "x"]], "ref", 0.01)
    assert tuple(one.iloc[0, 1:]) == pytest.approx(_oracle(A, B, 0.01, 0, 50000), abs=1e-12)
    with pytest.raises(
        ValueError,
        match=r"^table must be a DataFrame \(data sets x methods\), got <class 'numpy.ndarray'>$",
    ):
        compare_to_reference(table.to_numpy(), "ref", 0.01)
    with pytest.raises(ValueError, match=r"need at least 2 methods, got \['ref'\]"):
        compare_to_reference(table[["ref"]], "ref", 0.01)
    bad = table.astype(object)
    bad.loc["c", "up"] = "n/a"
    with pytest.raises(ValueError, match=r"no finite value for c \(up\) "):
        compare_to_reference(bad, "ref", 0.01)


def test_simplex_figure_names():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = simplex_figure(A, B, 0.01, ["Ref", "Other"], seed=5, nsamples=300)
    try:
        p = _oracle(A, B, 0.01, 5, 300)
        texts = {t.get_text() for t in fig.axes[0].texts}
        assert f"p(Ref) = {p[0]:.3f}" in texts and f"p(Other) = {p[2]:.3f}" in texts
    finally:
        plt.close(fig)
    # the defaults: seed 0 and 50 000 samples, every sample one point of the hexbin; the
    # seed-0 probabilities to three decimals are (0.028, 0.507, 0.464), seed 1 prints 0.029
    fig = simplex_figure(A, B, 0.01, ("Ref", "Other"))
    try:
        p = _oracle(A, B, 0.01, 0, 50000)
        assert f"{p[0]:.3f}" == "0.028" and f"{_oracle(A, B, 0.01, 1, 50000)[0]:.3f}" == "0.029"
        texts = {t.get_text() for t in fig.axes[0].texts}
        assert {f"p(Ref) = {p[0]:.3f}", f"p(rope) = {p[1]:.3f}", f"p(Other) = {p[2]:.3f}"} <= texts
        assert fig.axes[0].collections[0].get_array().sum() == 50000
    finally:
        plt.close(fig)
    for names in (("A", 1), ("A", "B", "C")):
        with pytest.raises(ValueError, match="names must be two strings"):
            simplex_figure(A, B, 0.01, names)


# ---------------------------------------------------------------------------------------------
# hierarchical: baycomp's code with a stand-in Stan
# ---------------------------------------------------------------------------------------------
class _FakeStan:
    """A ``stan`` module whose ``build(...).sample(...)`` returns δ0 = ``mu`` (an array, or a
    function of the data's differences), σ0 = 0.01, ν = 30 for every sample, and records its
    calls."""

    def __init__(self, mu):
        self.mu = mu
        self.calls = []
        self.module = types.ModuleType("stan")
        self.module.build = self.build

    def build(self, program_code, data=None, random_seed=None):
        fake = self
        fake.calls.append(
            dict(seed=random_seed, cwd=os.getcwd(), data=data, stan="delta0" in program_code)
        )

        class Model:
            def sample(self, num_samples, num_chains):
                fake.calls[-1].update(num_samples=num_samples, num_chains=num_chains)
                mu = fake.mu(fake.calls[-1]["data"]["x"]) if callable(fake.mu) else fake.mu
                mu = np.asarray(mu, float)
                size = mu.size
                return {
                    "delta0": mu[None, :],
                    "std0": np.full((1, size), 0.01),
                    "nu": np.full((1, size), 30.0),
                }

        return Model()


@pytest.fixture
def fake_stan(monkeypatch):
    def install(mu):
        fake = _FakeStan(mu)
        monkeypatch.setitem(sys.modules, "stan", fake.module)
        return fake

    return install


FOLDS = np.array([[0.80, 0.82, 0.78, 0.81], [0.70, 0.69, 0.73, 0.72], [0.90, 0.91, 0.88, 0.9]])
OTHER = FOLDS + np.array(
    [[0.01, -0.01, 0.02, 0.0], [0.03, 0.0, 0.01, 0.02], [0.0, 0.0, -0.01, 0.01]]
)


def test_hierarchical_probabilities_and_what_stan_gets(fake_stan):
    """δ0 = +5 (in units of the mean within-data-set sd) on every sample: B better, on every
    sample (P(δ > rope) = 1 − T_30((r − 5)/0.01) = 1); δ0 = 0: within the rope (rope 0.01 is
    ≥ 0.8 sd here, the t has scale 0.01); half +5 and half −5: (0.5, 0, 0.5)."""
    cwd = os.getcwd()
    fake = fake_stan(np.full(8, 5.0))
    assert hierarchical(FOLDS, OTHER, 0.01, seed=11) == (0.0, 0.0, 1.0)
    call = fake.calls[0]
    assert call["seed"] == 11 and call["stan"]
    assert call["cwd"] != cwd and Path(call["cwd"]).name.startswith("repro-baycomp-")
    assert not Path(call["cwd"]).exists()  # the scratch directory is gone
    assert os.getcwd() == cwd  # and the working directory is back
    assert sys.modules["stan"].build == fake.build  # stan.build restored
    # baycomp's defaults: 4 chains; 50 000 samples per chain, from baycomp's Test.__new__
    # (nsamples=50000), which overrides the 10 000 of HierarchicalTest.sample's signature
    assert (call["num_chains"], call["num_samples"]) == (4, 50000)
    diff = OTHER - FOLDS
    scale = np.mean(np.std(diff, axis=1))
    np.testing.assert_allclose(call["data"]["x"], diff / scale, rtol=1e-12)
    assert call["data"]["rho"] == 1 / 4  # one run of 4 folds
    # lower is better: the differences are negated (A better = A lower); a posterior that
    # follows the sign of the mean difference (positive here: B higher) goes left
    fake = fake_stan(lambda x: np.full(8, 5.0 * np.sign(x.mean())))
    assert hierarchical(FOLDS, OTHER, 0.01, seed=3) == (0.0, 0.0, 1.0)
    fake = fake_stan(lambda x: np.full(8, 5.0 * np.sign(x.mean())))
    assert hierarchical(FOLDS, OTHER, 0.01, higher_is_better=False, seed=3) == (1.0, 0.0, 0.0)
    np.testing.assert_allclose(fake.calls[0]["data"]["x"], -diff / scale, rtol=1e-12)
    assert fake.calls[0]["seed"] == 3
    fake = fake_stan(np.zeros(6))
    assert hierarchical(FOLDS, OTHER, 0.01) == (0.0, 1.0, 0.0)
    assert fake.calls[0]["seed"] == 0  # the default seed
    fake = fake_stan(np.r_[np.full(3, 5.0), np.full(3, -5.0)])
    got = hierarchical(FOLDS, OTHER, 0.01, runs=2, chains=3, nsamples=7)
    assert got == (0.5, 0.0, 0.5)
    assert (fake.calls[0]["num_chains"], fake.calls[0]["num_samples"]) == (3, 7)
    assert fake.calls[0]["data"]["rho"] == 1 / 2  # two runs of 2 folds


def test_hierarchical_option_checks(fake_stan):
    fake = fake_stan(np.full(4, 5.0))
    assert set(HIERARCHICAL_OPTIONS) == {
        "runs", "lower_alpha", "upper_alpha", "lower_beta", "upper_beta", "upper_sigma",
        "chains", "nsamples",
    }  # fmt: skip
    got = hierarchical(FOLDS, OTHER, 0.01, upper_sigma=500, lower_alpha=0.5, nsamples=np.int64(4))
    assert got == (0.0, 0.0, 1.0)
    data = fake.calls[0]["data"]
    assert data["lowerAlpha"] == 0.5
    assert data["stdHi"] == pytest.approx(500 * np.mean(np.std(data["x"], axis=1)))
    cases = [
        (dict(runs=3), r"runs=3 does not divide the 4 fold scores per data set"),
        (dict(runs=0), "runs must be a positive integer, got 0"),
        (dict(chains=True), "chains must be a positive integer, got True"),
        (dict(nsamples=0), "nsamples must be a positive integer, got 0"),
        (dict(seed=-1), "seed must be an integer"),
        (dict(rope=-1), "rope must be a finite number"),
        (dict(warmup=10, chain=2), r"unknown hierarchical option\(s\) \['chain', 'warmup'\]"),
    ]
    for kwargs, message in cases:
        kwargs = {"rope": 0.01, **kwargs}
        with pytest.raises(ValueError, match=message):
            hierarchical(FOLDS, OTHER, **kwargs)
    nan = FOLDS.copy()
    nan[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"a has NaN or infinite scores \(data sets at rows \[1\]"):
        hierarchical(nan, OTHER, 0.01)
    with pytest.raises(ValueError, match="need at least 2 data sets"):
        hierarchical(FOLDS[:1], OTHER[:1], 0.01)
    with pytest.raises(
        ValueError, match=r"^a must be 2-D \(data sets x fold scores\), got shape \(3,\)$"
    ):
        hierarchical(FOLDS[:, 0], OTHER[:, 0], 0.01)
    with pytest.raises(ValueError, match=r"^b must be numeric \(data sets x fold scores\), got"):
        hierarchical(FOLDS, [["x", "y"]] * 3, 0.01)
    # a − b constant within every data set (not the same constant): undefined
    with pytest.raises(
        ValueError,
        match=r"^a - b is constant within every data set: the hierarchical test is undefined "
        r"\(its scale is the mean within-data-set standard deviation\); use signed_rank$",
    ):
        hierarchical(FOLDS, FOLDS + np.array([[0.01], [0.02], [-0.01]]), 0.01)
    # three folds and the default runs = 1 (1 divides 3)
    assert hierarchical(FOLDS[:, :3], OTHER[:, :3], 0.01) == (0.0, 0.0, 1.0)
    assert fake.calls[-1]["data"]["rho"] == 1 / 3
    # a − b constant within one data set but not in the others: defined (mean sd > 0)
    part = OTHER.copy()
    part[0] = FOLDS[0] + 0.01
    assert hierarchical(FOLDS, part, 0.01) == (0.0, 0.0, 1.0)
    assert len(fake.calls) == 3  # no Stan call for the refused inputs


def test_hierarchical_seeds_bayescomps_zero_variance_fix(fake_stan):
    """baycomp replaces a data set whose differences are constant by draws
    u ~ RandomState(seed).uniform(−r, r, n/2) and −u (r = rope / mean within-data-set sd): the
    data Stan gets for that row are those draws, for the seed given."""
    part = OTHER.copy()
    part[0] = FOLDS[0] + 0.01  # row 0: constant difference
    diff = part - FOLDS
    scale = np.mean(np.std(diff, axis=1))
    for seed in (4, 5):
        fake = fake_stan(np.full(4, 5.0))
        hierarchical(FOLDS, part, 0.01, seed=seed)
        u = np.random.RandomState(seed).uniform(-0.01 / scale, 0.01 / scale, 2)
        x = fake.calls[0]["data"]["x"]
        np.testing.assert_allclose(x[0], np.r_[u, -u], rtol=1e-12)
        np.testing.assert_allclose(x[1:], diff[1:] / scale, rtol=1e-12)


def test_hierarchical_restores_stan_after_an_error(monkeypatch):
    cwd = os.getcwd()
    module = types.ModuleType("stan")

    def failing_build(program_code, data=None, random_seed=None):
        raise RuntimeError(f"compiler missing (seed {random_seed})")

    module.build = failing_build
    monkeypatch.setitem(sys.modules, "stan", module)
    with pytest.raises(RuntimeError, match=r"compiler missing \(seed 9\)"):
        hierarchical(FOLDS, OTHER, 0.01, seed=9)
    assert module.build is failing_build and os.getcwd() == cwd


MESSAGE = (
    "the hierarchical test needs Stan through the package 'pystan' (>= 3.4, which baycomp "
    "calls; it builds the model with httpstan and a C++ compiler): the extra 'bayes', "
    "`pip install -e \".[bayes]\"` in a checkout, or `pip install pystan 'setuptools<81'` "
    "(import stan failed: {})"
)


def test_hierarchical_without_stan_full_message(monkeypatch):
    """The message names pystan, the extra and the import error, with no pkg_resources hint
    when the error is another one; an import that fails with a non-ImportError is reported
    the same way."""
    monkeypatch.setitem(sys.modules, "stan", None)
    with pytest.raises(ImportError) as err:
        hierarchical(FOLDS, OTHER, 0.01)
    detail = "ModuleNotFoundError: import of stan halted; None in sys.modules"
    assert str(err.value) == MESSAGE.format(detail)

    class Broken:
        def find_spec(self, name, path=None, target=None):
            if name == "stan":
                raise RuntimeError("httpstan is broken")
            return None

    monkeypatch.delitem(sys.modules, "stan")
    monkeypatch.setattr(sys, "meta_path", [Broken(), *sys.meta_path])
    with pytest.raises(ImportError) as err:
        hierarchical(FOLDS, OTHER, 0.01)
    assert str(err.value) == MESSAGE.format("RuntimeError: httpstan is broken")


def test_hierarchical_names_pkg_resources(monkeypatch):
    """pystan 3.10 imports pkg_resources, gone from setuptools >= 81: the error says so."""

    class Finder:
        def find_spec(self, name, path=None, target=None):
            if name == "stan":
                raise ModuleNotFoundError("No module named 'pkg_resources'", name="pkg_resources")
            return None

    monkeypatch.delitem(sys.modules, "stan", raising=False)
    monkeypatch.setattr(sys, "meta_path", [Finder(), *sys.meta_path])
    with pytest.raises(ImportError, match="'setuptools<81'.*import stan failed") as err:
        hierarchical(FOLDS, OTHER, 0.01)
    hint = "; pystan imports pkg_resources, gone from setuptools >= 81: 'setuptools<81'"
    detail = "ModuleNotFoundError: No module named 'pkg_resources'"
    assert str(err.value) == MESSAGE.format(detail + hint)
    assert isinstance(err.value.__cause__, ModuleNotFoundError)
