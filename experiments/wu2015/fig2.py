"""wu2015 Figure 2: accuracy of NB, BMA, LR and SVM against the number of features (left) and
the number of training instances (right) on a binary text-like task.

    python experiments/wu2015/fig2.py                       # offline substitute (dna EI vs IE)
    python experiments/wu2015/fig2.py --source newsgroups   # the paper's task (needs network once)
    python experiments/wu2015/fig2.py --quick               # a smoke run (seconds)

The paper: two newsgroups, 1000 documents, exactly balanced; binary presence of the K most
frequent words (stop words removed), K up to 1000 (left, N = 1000) and K = 500 with N up to 4000
(right); curves averaged over many random runs. The paper does not name the two groups; we use
``comp.graphics`` vs ``sci.space`` when the 20-newsgroups corpus is available (scikit-learn's
fetcher cache, ``--source newsgroups`` downloads it once).

Offline substitute (default when the corpus is not cached), **labelled as such in the figure**:
``dna`` (Statlog, 180 binary indicators of a DNA window) restricted to its two splice-junction
classes EI (767) vs IE (765), which is balanced and, like bag-of-words data, made of many binary,
correlated, mostly uninformative indicators. Features are ranked by frequency of the indicator
(the analogue of "top-frequency words"), so K ≤ 180; the data set has 1532 instances, so N ≤
1200 (the remaining ≥ 300 instances are the test set). Left: N = 1000 training instances, the
other 532 test. Right: K = 180, a fixed test set of 300 per run.

Methods: ``nb_laplace``; ``bma_nb`` with Γ tuned by inner CV over {0.5, …, 1.5}; ``lr`` and
``svm`` with C tuned by inner CV (default grid C ∈ {0.01, 0.1, 1, 10, 100}, B = 1, to keep the run
affordable; ``--full-grid`` uses the paper's 36-point C × B grid). Inner CV: ``--inner-cv`` folds
(default 3). Records (panel, run, K, N, method, accuracy) go to
``<results>/wu2015_fig2/records.parquet`` and the figure to ``fig2.png``/``fig2.pdf`` beside it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from joblib import Parallel, delayed  # noqa: E402
from sklearn.base import clone  # noqa: E402
from sklearn.model_selection import StratifiedShuffleSplit  # noqa: E402

from repro import load_dataset, make_method  # noqa: E402
from repro.methods.tuning import TunedClassifier  # noqa: E402

NEWSGROUPS = ("comp.graphics", "sci.space")
GAMMAS = [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5]
CB = [0.01, 0.1, 1.0, 10.0, 20.0, 100.0]
METHOD_NAMES = {"nb_laplace": "NB", "bma_nb_tuned": "BMA", "lr_tuned": "LR", "svm_tuned": "SVM"}


# ------------------------------------------------------------------------------------- data
def _binary_frame(M: np.ndarray, names) -> pd.DataFrame:
    cat = pd.CategoricalDtype(["0", "1"])
    return pd.DataFrame(
        {
            n: pd.Categorical.from_codes(M[:, j].astype(np.int8), dtype=cat)
            for j, n in enumerate(names)
        }
    )


def load_newsgroups(k_max: int, download: bool):
    from sklearn.datasets import fetch_20newsgroups
    from sklearn.feature_extraction.text import CountVectorizer

    bunch = fetch_20newsgroups(
        subset="all",
        categories=list(NEWSGROUPS),
        remove=("headers", "footers", "quotes"),
        download_if_missing=download,
    )
    vec = CountVectorizer(stop_words="english", binary=True, max_features=k_max)
    M = vec.fit_transform(bunch.data)
    order = np.argsort(-np.asarray(M.sum(axis=0)).ravel(), kind="stable")
    names = vec.get_feature_names_out()[order]
    X = _binary_frame(M[:, order].toarray(), names)
    y = np.asarray(bunch.target_names)[bunch.target]
    return X, y, f"20 newsgroups: {' vs '.join(NEWSGROUPS)}"


def load_dna():
    ds = load_dataset("dna")
    y = np.asarray(ds.y).astype(str)
    keep = np.isin(y, ["ei", "ie"])
    X = ds.X.loc[keep].reset_index(drop=True)
    ones = np.array([(X[c].astype(str) == "1").mean() for c in X.columns])
    order = np.argsort(-ones, kind="stable")  # most frequent indicators first
    return X.iloc[:, order], y[keep], "SUBSTITUTE: dna EI vs IE (180 binary indicators)"


def load_task(source: str, k_max: int):
    if source in ("auto", "newsgroups"):
        try:
            return load_newsgroups(k_max, download=source == "newsgroups")
        except (OSError, ImportError) as exc:
            if source == "newsgroups":
                raise SystemExit(f"20 newsgroups unavailable: {exc}") from exc
    return load_dna()


# ---------------------------------------------------------------------------------- methods
def make_methods(inner_cv: int, full_grid: bool, quick: bool) -> dict:
    gammas = [0.8, 1.2] if quick else GAMMAS
    if full_grid:
        linear = {"C": CB, "intercept_scaling": CB}
    else:
        linear = {"C": [1.0] if quick else [0.01, 0.1, 1.0, 10.0, 100.0]}
    return {
        "nb_laplace": make_method("nb_laplace"),
        "bma_nb_tuned": TunedClassifier("bma_nb", {"gamma": gammas}, inner_cv=inner_cv),
        "lr_tuned": TunedClassifier("lr", linear, inner_cv=inner_cv),
        "svm_tuned": TunedClassifier("svm", linear, inner_cv=inner_cv),
    }


def _score(methods, X, y, train, test, cols):
    rows = []
    Xtr, Xte = X.iloc[train, cols], X.iloc[test, cols]
    for name, est in methods.items():
        t0 = time.perf_counter()
        model = clone(est).fit(Xtr, y[train])
        fit_time = time.perf_counter() - t0
        acc = float(np.mean(model.predict(Xte) == y[test]))
        rows.append({"method": name, "accuracy": acc, "fit_time": fit_time})
    return rows


def one_run(run, X, y, methods, k_grid, n_grid, n_train_k, k_for_n, n_test, seed):
    """Both panels for one random run (its own splits, seeded by (seed, run))."""
    rs = int(np.random.SeedSequence([seed, run]).generate_state(1)[0])
    records = []
    split = StratifiedShuffleSplit(1, train_size=n_train_k, test_size=None, random_state=rs)
    train, test = next(split.split(np.zeros(len(y)), y))
    for k in k_grid:
        for row in _score(methods, X, y, train, test, np.arange(k)):
            records.append({"panel": "features", "run": run, "K": k, "N": len(train), **row})
    split = StratifiedShuffleSplit(1, test_size=n_test, random_state=rs)
    pool, test = next(split.split(np.zeros(len(y)), y))
    rng = np.random.default_rng(rs)
    for n in n_grid:
        # a stratified subsample of the pool of size n (classes in proportion, at least 2 each)
        sub = StratifiedShuffleSplit(1, train_size=n, random_state=int(rng.integers(2**31)))
        idx = pool if n >= len(pool) else pool[next(sub.split(np.zeros(len(pool)), y[pool]))[0]]
        for row in _score(methods, X, y, idx, test, np.arange(k_for_n)):
            records.append({"panel": "training_size", "run": run, "K": k_for_n, "N": n, **row})
    return records


# ------------------------------------------------------------------------------------- plot
def plot(records: pd.DataFrame, title: str, out: Path) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, (panel, x, label) in zip(
        axes,
        [("features", "K", "number of features K"), ("training_size", "N", "training instances N")],
    ):
        sub = records[records["panel"] == panel]
        stats = sub.groupby(["method", x])["accuracy"].agg(["mean", "std"]).reset_index()
        for method, grp in stats.groupby("method"):
            ax.plot(grp[x], grp["mean"], marker="o", ms=3, label=METHOD_NAMES.get(method, method))
        fixed = "N" if x == "K" else "K"
        ax.set_title(f"accuracy vs {x} ({fixed} = {int(sub[fixed].iloc[0])})" if len(sub) else x)
        ax.set_xlabel(label)
        ax.set_ylabel("test accuracy")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    runs = records["run"].nunique()
    fig.suptitle(f"wu2015 Fig. 2 — {title} — mean over {runs} run(s)")
    fig.tight_layout()
    out.mkdir(parents=True, exist_ok=True)
    for ext in ("png", "pdf"):
        fig.savefig(out / f"fig2.{ext}", dpi=150)
    plt.close(fig)


def main(args) -> pd.DataFrame:
    if args.quick:
        args.runs, args.inner_cv, args.k_for_n = 1, 2, 10
        k_grid, n_grid, k_max = [5, 10], [60, 120], 10
    else:
        k_grid = [int(k) for k in args.k_grid.split(",")]
        n_grid = [int(n) for n in args.n_grid.split(",")]
        k_max = max(max(k_grid), args.k_for_n)
    X, y, title = load_task(args.source, k_max)
    k_grid = [k for k in k_grid if k <= X.shape[1]]
    k_for_n = min(args.k_for_n, X.shape[1])
    n_test = args.n_test
    n_grid = [n for n in n_grid if n <= len(y) - n_test]
    n_train_k = min(args.n_train, len(y) - n_test)
    methods = make_methods(args.inner_cv, args.full_grid, args.quick)
    jobs = (
        delayed(one_run)(r, X, y, methods, k_grid, n_grid, n_train_k, k_for_n, n_test, args.seed)
        for r in range(args.runs)
    )
    rows = [row for run in Parallel(n_jobs=args.n_jobs)(jobs) for row in run]
    records = pd.DataFrame(rows)
    records["task"] = title
    out = args.results / "wu2015_fig2"
    out.mkdir(parents=True, exist_ok=True)
    records.to_parquet(out / "records.parquet", index=False)
    plot(records, title, out)
    return records


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", choices=["auto", "newsgroups", "dna"], default="auto")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--k-grid", default="10,20,40,60,90,120,150,180")
    parser.add_argument("--n-grid", default="50,100,200,400,600,800,1000,1200")
    parser.add_argument("--n-train", type=int, default=1000, help="N of the features panel")
    parser.add_argument("--k-for-n", type=int, default=500, help="K of the training-size panel")
    parser.add_argument("--n-test", type=int, default=300, help="test size of the N panel")
    parser.add_argument("--inner-cv", type=int, default=3)
    parser.add_argument("--full-grid", action="store_true", help="the paper's 36-point C x B grid")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--quick", action="store_true", help="a smoke run in seconds")
    args = parser.parse_args()
    recs = main(args)
    summary = recs.groupby(["panel", "K", "N", "method"])["accuracy"].mean().unstack("method")
    print(summary.round(4).to_string())
    print(f"records and figure written to {args.results / 'wu2015_fig2'}")
