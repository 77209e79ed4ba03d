"""repro.stats.bayesian and ``python -m repro.report compare ... test=bayesian``.

The Bayesian signed-rank test (Benavoli et al. 2014; 2017, JMLR 18(77)) is baycomp's: on the
García & Herrera (2008) example (accuracies of C4.5, 1-NN, naive Bayes, Kernel and CN2 on 30 data
sets, R scmamp's ``data.gh.2008``, tests/data/gh2008_accuracies.csv, whose published ranks and
post-hoc p-values tests/stats/test_stats.py checks) every probability equals baycomp's own
``SignedRankTest.probs`` / ``two_on_multiple`` called directly with the same seed, to the bit.
Known answers from the definition: a method against itself + 1 at rope 0.01 is "B better" in every
posterior sample (unless the prior pseudo-observation's Dirichlet weight w0 ~ Beta(0.5, 30)
exceeds 1/sqrt(2): probability ~1e-14 per sample), identical columns are "equivalent" in every
sample, swapping A and B (or lower-is-better) swaps p_left and p_right exactly (same Dirichlet
draws, every difference negated).

The hierarchical test needs Stan (pystan): a fast test of its error without it, and a ``slow``
test against baycomp's ``HierarchicalTest.probs`` called directly with the same Stan seed.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import baycomp
import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from repro.stats.bayesian import (  # noqa: E402
    BayesianComparison,
    compare_to_reference,
    hierarchical,
    signed_rank,
    simplex_figure,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "gh2008_accuracies.csv"
NAMES = {"C4.5": "c45", "k-NN(k=1)": "knn", "NaiveBayes": "nb", "Kernel": "kernel", "CN2": "cn2"}
N = 5000  # posterior samples in the identity tests (baycomp's default is 50000)


@pytest.fixture(scope="module")
def gh2008() -> pd.DataFrame:
    return pd.read_csv(DATA, index_col=0).rename(columns=NAMES)


PAIRS = [("c45", "knn"), ("c45", "nb"), ("nb", "cn2"), ("knn", "kernel")]


@pytest.mark.parametrize(("a", "b", "rope", "seed"), [(*p, 0.01, i) for i, p in enumerate(PAIRS)])
def test_signed_rank_is_baycomps_on_garcia_herrera(gh2008, a, b, rope, seed):
    x, y = gh2008[a].to_numpy(), gh2008[b].to_numpy()
    got = signed_rank(gh2008[a], gh2008[b], rope, seed=seed, nsamples=N)
    assert isinstance(got, BayesianComparison)
    direct = baycomp.SignedRankTest.probs(x, y, rope, nsamples=N, random_state=seed)
    assert tuple(got) == tuple(float(p) for p in direct)
    shortcut = baycomp.two_on_multiple(x, y, rope, nsamples=N, random_state=seed)
    assert tuple(got) == tuple(float(p) for p in shortcut)
    assert sum(got) == pytest.approx(1.0, abs=1e-12)
    # lower is better (error rates): baycomp with the arguments swapped is "x lower" on the left
    ex, ey = 1 - x, 1 - y
    lower = signed_rank(ex, ey, rope, higher_is_better=False, seed=seed, nsamples=N)
    direct = baycomp.SignedRankTest.probs(ey, ex, rope, nsamples=N, random_state=seed)
    assert tuple(lower) == tuple(float(p) for p in direct)


def test_signed_rank_default_samples_and_seed(gh2008):
    x, y = gh2008["c45"].to_numpy(), gh2008["nb"].to_numpy()
    got = signed_rank(x, y, 0.01)  # seed 0, 50000 samples: baycomp's default nsamples
    assert tuple(got) == tuple(baycomp.SignedRankTest.probs(x, y, 0.01, random_state=0))
    # without a rope baycomp has no rope column: p_rope = 0, the rest is its (p_left, p_right)
    p_left, p_right = baycomp.SignedRankTest.probs(x, y, 0.0, nsamples=N, random_state=3)
    assert signed_rank(x, y, 0.0, seed=3, nsamples=N) == (p_left, 0.0, p_right)


def test_signed_rank_known_answers(gh2008):
    a = gh2008["c45"].to_numpy()

    def probs(x, y, rope=0.01, higher_is_better=True):
        return tuple(signed_rank(x, y, rope, higher_is_better, seed=1, nsamples=N))

    assert probs(a, a + 1.0) == (0.0, 0.0, 1.0)  # B better by 1 >> rope
    assert probs(a + 1.0, a) == (1.0, 0.0, 0.0)
    assert probs(a, a.copy()) == (0.0, 1.0, 0.0)  # identical: equivalent
    assert probs(a, a + 1.0, higher_is_better=False) == (1.0, 0.0, 0.0)  # lower is better
    # a shift of 0.004 is inside a rope of 0.01 (equivalent), outside a rope of 0.001
    assert probs(a, a + 0.004) == (0.0, 1.0, 0.0)
    assert probs(a, a + 0.004, rope=0.001) == (0.0, 0.0, 1.0)


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_swapping_and_lower_is_better_mirror_exactly(gh2008, a, b):
    ab = signed_rank(gh2008[a], gh2008[b], 0.01, seed=7, nsamples=N)
    ba = signed_rank(gh2008[b], gh2008[a], 0.01, seed=7, nsamples=N)
    assert ba == (ab.p_right, ab.p_rope, ab.p_left)
    lower = signed_rank(gh2008[a], gh2008[b], 0.01, higher_is_better=False, seed=7, nsamples=N)
    assert lower == (ab.p_right, ab.p_rope, ab.p_left)


def test_compare_to_reference_on_garcia_herrera(gh2008):
    got = compare_to_reference(gh2008, "c45", 0.01, seed=2, nsamples=N)
    assert list(got.columns) == ["method", "p_reference_better", "p_equivalent", "p_other_better"]
    assert got["method"].tolist() == ["knn", "nb", "kernel", "cn2"]
    x = gh2008["c45"].to_numpy()
    for _, row in got.iterrows():
        y = gh2008[row["method"]].to_numpy()
        direct = baycomp.SignedRankTest.probs(x, y, 0.01, nsamples=N, random_state=2)
        assert (row["p_reference_better"], row["p_equivalent"], row["p_other_better"]) == direct
    errors = 1 - gh2008
    low = compare_to_reference(errors, "c45", 0.01, higher_is_better=False, seed=2, nsamples=N)
    for _, row in low.iterrows():
        e = errors[row["method"]].to_numpy()
        direct = baycomp.SignedRankTest.probs(e, errors["c45"].to_numpy(), 0.01, nsamples=N,
                                              random_state=2)  # fmt: skip
        assert (row["p_reference_better"], row["p_equivalent"], row["p_other_better"]) == direct


def test_simplex_figure_is_baycomps_plot_of_the_same_posterior(gh2008):
    res = signed_rank(gh2008["c45"], gh2008["nb"], 0.01, seed=4, nsamples=N)
    fig = simplex_figure(gh2008["c45"], gh2008["nb"], 0.01, ("C4.5", "NB"), seed=4, nsamples=N)
    try:
        texts = {t.get_text() for t in fig.axes[0].texts}
        assert texts == {
            f"p(C4.5) = {res.p_left:.3f}",
            f"p(rope) = {res.p_rope:.3f}",
            f"p(NB) = {res.p_right:.3f}",
        }
        assert fig.axes[0].collections  # baycomp's hexbin of the posterior samples
    finally:
        plt.close(fig)


def test_input_errors(gh2008):
    a = gh2008["c45"].to_numpy()
    cases = [
        (lambda: signed_rank(a, a, -0.01), "rope must be a finite number >= 0"),
        (lambda: signed_rank(a, a, "wide"), "rope must be a number"),
        (lambda: signed_rank(a, a[:-1], 0.01), "a and b must have equal shapes"),
        (lambda: signed_rank(a[:1], a[:1], 0.01), "at least 2 data sets"),
        (lambda: signed_rank(np.r_[a[:-1], np.nan], a, 0.01), r"a has NaN .* rows \[29\]"),
        (lambda: signed_rank(a, a, 0.01, seed=-1), "seed must be an integer"),
        (lambda: signed_rank(a, a, 0.01, nsamples=0), "nsamples must be a positive integer"),
        (lambda: signed_rank(a, a, 0.01, higher_is_better="yes"), "higher_is_better must be"),
        (lambda: signed_rank(np.c_[a, a], np.c_[a, a], 0.01), "a must be 1-D"),
        (lambda: compare_to_reference(gh2008, "c4.5", 0.01), "reference must be one of"),
        (
            lambda: compare_to_reference(gh2008.mask(gh2008 == gh2008.iloc[0, 1]), "c45", 0.01),
            "no finite value for",
        ),
        (lambda: simplex_figure(a, a, 0.01, ("A",)), "names must be two strings"),
        (lambda: hierarchical(a, a, 0.01), "a must be 2-D"),
        (lambda: hierarchical(np.c_[a, a], np.c_[a, a], 0.01, chain=2), "unknown hierarchical"),
        (lambda: hierarchical(a[:, None], a[:, None], 0.01), "at least 2 fold scores"),
        (lambda: hierarchical(np.c_[a, a], np.c_[a, a] + 1, 0.01), "constant within every"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()


def test_hierarchical_without_stan_names_pystan(monkeypatch):
    monkeypatch.setitem(sys.modules, "stan", None)  # `import stan` raises ImportError
    rng = np.random.default_rng(0)
    a = rng.uniform(0.7, 0.9, (5, 10))
    with pytest.raises(ImportError, match="needs Stan through the package 'pystan'"):
        hierarchical(a, a + rng.normal(0, 0.01, a.shape), 0.01)


# --- the command line ------------------------------------------------------------------------


def _records_from_table(table: pd.DataFrame, results: Path, folds: int = 1, seed: int = 0):
    """One Parquet file per (method, data set) as the runner writes them; with ``folds`` > 1 the
    fold scores are the table's value plus noise that averages to exactly 0 per data set."""
    rng = np.random.default_rng(seed)
    for method, column in table.items():
        cell = results / "gh" / method
        cell.mkdir(parents=True)
        for dataset, value in column.items():
            noise = rng.normal(0, 0.01, folds) if folds > 1 else np.zeros(1)
            noise -= noise.mean()
            pd.DataFrame(
                [dict(experiment="gh", method=method, dataset=dataset, repetition=0, fold=f,
                      split="test", metric="accuracy", value=float(value + noise[f]))
                 for f in range(folds)]
            ).to_parquet(cell / f"{dataset}.parquet", index=False)  # fmt: skip


def test_compare_cli_bayesian_on_garcia_herrera(gh2008, tmp_path, capsys):
    from repro.report.__main__ import main

    table = gh2008.set_axis([f"d{i:02d}" for i in range(len(gh2008))], axis=0)
    results = tmp_path / "results"
    _records_from_table(table, results)
    out = tmp_path / "report"
    argv = ["compare", f"results={results}", "metric=accuracy", "test=bayesian", "rope=0.01",
            "reference=nb", f"out={out}", f"nsamples={N}", "seed=5"]  # fmt: skip
    assert main(argv) == 0
    stdout = capsys.readouterr().out
    assert "Bayesian comparison of nb (rope = 0.01)" in stdout
    csv = pd.read_csv(out / "compare_accuracy_bayesian.csv")
    columns = ["test", "reference", "method", "p_reference_better", "p_equivalent",
               "p_other_better", "rope", "n_datasets"]  # fmt: skip
    assert list(csv.columns) == columns
    assert sorted(csv["method"]) == ["c45", "cn2", "kernel", "knn"]
    assert (csv["test"] == "signed_rank").all() and (csv["reference"] == "nb").all()
    assert (csv["rope"] == 0.01).all() and (csv["n_datasets"] == 30).all()
    md = (out / "compare_accuracy_bayesian.md").read_text()
    x = table["nb"].to_numpy()
    for _, row in csv.iterrows():
        y = table[row["method"]].to_numpy()
        direct = baycomp.SignedRankTest.probs(x, y, 0.01, nsamples=N, random_state=5)
        got = (row["p_reference_better"], row["p_equivalent"], row["p_other_better"])
        assert got == pytest.approx(direct, abs=1e-12)
        assert f"| {row['method']} |" in md and f"| {direct[0]:.4f} |" in md
        png = out / f"compare_accuracy_bayesian_nb_vs_{row['method']}.png"
        assert png.stat().st_size > 1000 and png.read_bytes()[:4] == b"\x89PNG"
        assert f"]({png.name})" in md
    # the default reference is the first method of the table, the default rope 0.01
    assert main(argv[:3] + ["test=bayesian", f"out={tmp_path / 'o2'}", "nsamples=2000"]) == 0
    from repro.evaluation.records import read_records
    from repro.stats.tests import metric_table

    first = metric_table(read_records(results), "accuracy").columns[0]
    csv2 = pd.read_csv(tmp_path / "o2" / "compare_accuracy_bayesian.csv")
    assert (csv2["reference"] == first).all() and (csv2["rope"] == 0.01).all()
    assert first not in set(csv2["method"])


def test_compare_cli_bayesian_errors(gh2008, tmp_path, capsys, monkeypatch):
    from repro.report.__main__ import main

    results = tmp_path / "results"
    _records_from_table(gh2008.iloc[:6].set_axis([f"d{i}" for i in range(6)]), results, folds=5)
    base = ["compare", f"results={results}", "metric=accuracy", f"out={tmp_path / 'o'}"]
    cases = [
        (["test=bayes"], "test must be one of ['frequentist', 'bayesian', 'paired', 'wilcoxon']"),
        (["test=bayesian", "rope=-0.1"], "rope must be a finite number >= 0"),
        (["test=bayesian", "rope=wide"], "rope must be a number, got 'wide'"),
        (["test=bayesian", "reference=j48"], "reference must be one of"),
        (["test=bayesian", "seed=x"], "seed must be an integer"),
        (["test=bayesian", "correction=holm"], "['correction'] do not apply to test=bayesian"),
        (["rope=0.01"], "['rope'] do not apply to test=frequentist"),
        (["test=bayesian", "hierarchical.chains=2"], "given without hierarchical=true"),
    ]
    for extra, message in cases:
        assert main(base + extra) == 2, extra
        assert message in capsys.readouterr().err, extra
    monkeypatch.setitem(sys.modules, "stan", None)
    assert main(base + ["test=bayesian", "hierarchical=true", f"nsamples={N}"]) == 2
    assert "package 'pystan'" in capsys.readouterr().err


# --- the hierarchical test with Stan (pystan; compiles the model on first use) ----------------


def _boulle_folds(method: str, metric: str = "accuracy") -> pd.DataFrame:
    from repro.evaluation.records import read_records

    records = read_records(ROOT / "results" / "boulle2007_table3")
    sub = records.query("split == 'test' and metric == @metric and method == @method")
    return sub.pivot_table(index="dataset", columns=["repetition", "fold"], values="value")


@pytest.mark.slow
def test_hierarchical_is_baycomps_with_the_same_stan_seed(tmp_path, monkeypatch):
    stan = pytest.importorskip("stan")
    a, b = _boulle_folds("snb_cma"), _boulle_folds("nb")
    assert a.shape == b.shape == (25, 10)
    options = dict(chains=2, nsamples=2000)
    got = hierarchical(a.to_numpy(), b.to_numpy(), 0.01, seed=11, **options)
    assert sum(got) == pytest.approx(1.0)
    # baycomp directly: Stan's seed given to stan.build, its cache file in an empty directory
    monkeypatch.setattr(stan, "build", functools.partial(stan.build, random_seed=11))
    monkeypatch.chdir(tmp_path)
    direct = baycomp.HierarchicalTest.probs(
        a.to_numpy(), b.to_numpy(), 0.01, random_state=11, **options
    )
    assert tuple(got) == tuple(float(p) for p in direct)


@pytest.mark.slow
def test_compare_cli_hierarchical(tmp_path, capsys):
    pytest.importorskip("stan")
    from repro.report.__main__ import main

    argv = ["compare", f"results={ROOT / 'results' / 'boulle2007_table3'}", "metric=accuracy",
            "test=bayesian", "methods=snb_cma,nb", "hierarchical=true", "hierarchical.chains=2",
            "hierarchical.nsamples=2000", f"nsamples={N}", f"out={tmp_path}"]  # fmt: skip
    assert main(argv) == 0
    csv = pd.read_csv(tmp_path / "compare_accuracy_bayesian.csv")
    assert csv["test"].tolist() == ["signed_rank", "hierarchical"]
    row = csv.iloc[1]
    expected = hierarchical(_boulle_folds("snb_cma").to_numpy(), _boulle_folds("nb").to_numpy(),
                            0.01, seed=0, chains=2, nsamples=2000, runs=1)  # fmt: skip
    assert (row["p_reference_better"], row["p_equivalent"], row["p_other_better"]) == expected


def test_compare_of_an_experiment_folder_defaults_to_its_reference(tmp_path, capsys):
    """Issue 27: the Bayesian comparison of boulle2007_table3's records compares SNB(CMA), the
    experiment's reference, not whichever method comes first."""
    from repro.report.__main__ import main

    argv = ["compare", f"results={ROOT / 'results' / 'boulle2007_table3'}", "metric=auc",
            "test=bayesian", "methods=nb,snb_cma", f"nsamples={N}", f"out={tmp_path}"]  # fmt: skip
    assert main(argv) == 0
    assert "Bayesian comparison of snb_cma" in capsys.readouterr().out
    csv = pd.read_csv(tmp_path / "compare_auc_bayesian.csv")
    assert set(csv["reference"]) == {"snb_cma"} and set(csv["method"]) == {"nb"}
