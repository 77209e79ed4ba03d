"""Task function of wu2015 Figure 2 (``experiment=wu2015_fig2``), on the runner.

Figure 2 of the paper: accuracy of NB, BMA, LR and SVM against the number of features K (left,
N training instances fixed) and the number of training instances N (right, K fixed) on a binary
text task: two newsgroups, exactly balanced, binary presence of the K most frequent words (stop
words removed); curves averaged over random runs. The paper does not name the two groups; we use
``comp.graphics`` vs ``sci.space`` when scikit-learn's 20-newsgroups cache holds the corpus
(``fig2.download: true`` fetches it once).

Offline substitute (``fig2.source: dna``, and ``auto`` when the corpus is not cached), labelled
SUBSTITUTE in the records and the figure: ``dna`` (Statlog, 180 binary indicators of a DNA
window) restricted to its splice-junction classes EI (767) vs IE (765): balanced and, like
bag-of-words data, many binary, correlated, mostly uninformative indicators. Features are ranked
by the frequency of the indicator (the analogue of "most frequent words"), so K ≤ 180.

Each (panel point, method) is one runner cell whose splits are the random runs (repetition r =
run r, one split each; the data set key ``<task>/<panel>__K=<K>__N=<N>``; panel, K and N are
hashed context columns). Run r's splits come from ``SeedSequence([seed, r])``: features panel, a
stratified split with ``n_train`` training instances (the rest test), the same for every K;
training-size panel, a stratified test set of ``n_test`` instances and, for each N, a
stratified sub-sample of N of the remaining pool (``SeedSequence([seed, r, N])``).
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedShuffleSplit

from repro.datasets import Dataset, load_dataset
from repro.evaluation.protocols import Protocol, Split
from repro.evaluation.runner import make_cell, run_cell
from repro.experiments.common import log, run_options, section

NEWSGROUPS = ("comp.graphics", "sci.space")
SOURCES = ("auto", "newsgroups", "dna")
PANELS = ("features", "training_size")


# --- the task ---------------------------------------------------------------------------------
def binary_frame(M: np.ndarray, names) -> pd.DataFrame:
    """0/1 indicator columns as nominal attributes (categories "0", "1")."""
    cat = pd.CategoricalDtype(["0", "1"])
    return pd.DataFrame(
        {
            str(n): pd.Categorical.from_codes(np.asarray(M[:, j]).astype(np.int8), dtype=cat)
            for j, n in enumerate(names)
        }
    )


def load_newsgroups(k_max: int, download: bool = False) -> Dataset:
    """comp.graphics vs sci.space (headers, footers, quotes removed): presence of the ``k_max``
    most frequent words (English stop words removed), most frequent first."""
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
    X = binary_frame(M[:, order].toarray(), names)
    y = np.asarray(bunch.target_names)[bunch.target]
    title = f"20 newsgroups: {' vs '.join(NEWSGROUPS)}"
    return Dataset("newsgroups_graphics_vs_space", X, y, {"source": "sklearn", "notes": title})


def load_dna() -> Dataset:
    """The offline substitute: dna, classes EI vs IE, indicators ordered by frequency of 1."""
    ds = load_dataset("dna")
    y = np.asarray(ds.y).astype(str)
    keep = np.isin(y, ["ei", "ie"])
    X = ds.X.loc[keep].reset_index(drop=True)
    ones = np.array([(X[c].astype(str) == "1").mean() for c in X.columns])
    order = np.argsort(-ones, kind="stable")  # most frequent indicators first
    title = "SUBSTITUTE: dna EI vs IE (180 binary indicators)"
    return Dataset("dna_ei_vs_ie", X.iloc[:, order], y[keep], {"source": "local", "notes": title})


def load_task(source: str, k_max: int, download: bool = False) -> Dataset:
    """The data of Figure 2: newsgroups (``auto``: when cached), else the dna substitute."""
    if source not in SOURCES:
        raise ValueError(f"fig2.source must be one of {SOURCES}, got {source!r}")
    if source in ("auto", "newsgroups"):
        try:
            return load_newsgroups(k_max, download=download or source == "newsgroups")
        except (OSError, ImportError) as exc:
            if source == "newsgroups":
                raise ValueError(f"20 newsgroups unavailable: {exc}") from exc
    return load_dna()


# --- the splits of the random runs --------------------------------------------------------------
def _run_state(*entropy: int) -> int:
    return int(np.random.SeedSequence([int(e) for e in entropy]).generate_state(1)[0])


def features_splits(y, n_train: int, runs: int, seed: int) -> list[Split]:
    """Run r: a stratified split with ``n_train`` training instances, the rest test."""
    out = []
    for run in range(runs):
        sss = StratifiedShuffleSplit(1, train_size=n_train, random_state=_run_state(seed, run))
        train, test = next(sss.split(np.zeros(len(y)), y))
        out.append(Split(run, 0, train, test))
    return out


def training_size_splits(y, n: int, n_test: int, runs: int, seed: int) -> list[Split]:
    """Run r: a stratified test set of ``n_test`` (the same for every N) and a stratified
    sub-sample of ``n`` training instances of the remaining pool."""
    y = np.asarray(y)
    out = []
    for run in range(runs):
        sss = StratifiedShuffleSplit(1, test_size=n_test, random_state=_run_state(seed, run))
        pool, test = next(sss.split(np.zeros(len(y)), y))
        if n < pool.size:
            sub = StratifiedShuffleSplit(1, train_size=n, random_state=_run_state(seed, run, n))
            pool = pool[next(sub.split(np.zeros(pool.size), y[pool]))[0]]
        out.append(Split(run, 0, np.sort(pool), test))
    return out


def panel_points(opts: dict, n_features: int, n_samples: int) -> list[tuple[str, int, int]]:
    """(panel, K, N) of both panels, grids capped at what the task offers."""
    n_test = int(opts.get("n_test", 300))
    n_train = min(int(opts.get("n_train", 1000)), n_samples - n_test)
    k_for_n = min(int(opts.get("k_for_n", 500)), n_features)
    if n_train < 2 or n_test < 2:
        raise ValueError(f"fig2: n_train={n_train} and n_test={n_test} must both be ≥ 2")
    points = [("features", int(k), n_train) for k in opts["k_grid"] if int(k) <= n_features]
    points += [
        ("training_size", k_for_n, int(n)) for n in opts["n_grid"] if int(n) <= n_samples - n_test
    ]
    if not points:
        raise ValueError("fig2: no point of k_grid / n_grid fits the task's size")
    return points


def fig2_study(cfg) -> dict:
    """wu2015 Figure 2: one cell per (panel point, method), the random runs as repetitions.

    Config ``fig2``: ``source`` (auto | newsgroups | dna), ``download``, ``runs``, ``k_grid`` and
    ``n_train`` (features panel), ``n_grid``, ``k_for_n`` and ``n_test`` (training-size panel),
    ``methods`` (registry id → parameter overrides; the study's baseline, so files are
    ``<dataset_key>/<method>.parquet``). Writes under ``<results>/<experiment>/<task>/``.
    """
    opts = section(cfg, "fig2")
    runs = int(opts.get("runs", 5))
    if runs < 1:
        raise ValueError(f"fig2.runs must be ≥ 1, got {runs}")
    k_max = max([*map(int, opts["k_grid"]), int(opts.get("k_for_n", 500))])
    ds = load_task(str(opts.get("source", "auto")), k_max, bool(opts.get("download", False)))
    title = ds.meta["notes"]
    points = panel_points(opts, ds.n_features, ds.n_samples)
    methods = opts.get("methods") or {}
    seed, experiment, options = int(cfg.seed), str(cfg.experiment_name), run_options(cfg)
    n_test = int(opts.get("n_test", 300))
    start, total, written = time.perf_counter(), len(points) * len(methods), []
    for i, (panel, k, n) in enumerate(points):
        if panel == "features":
            splits = features_splits(ds.y, n, runs, seed)
        else:
            splits = training_size_splits(ds.y, n, n_test, runs, seed)
        data = Dataset(ds.name, ds.X.iloc[:, :k], ds.y, ds.meta)
        protocol = Protocol(
            f"fig2_{panel}", "holdout", n_repeats=runs, test_size=splits[0].test.size / len(ds.y)
        )
        for j, (method, params) in enumerate(methods.items()):
            cell = make_cell(
                (method, params or {}),
                data,
                protocol,
                seed,
                experiment,
                baseline=params or {},
                dataset_key=f"{ds.name}/{panel}__K={k}__N={n}",
                splits=splits,
                context={"panel": panel, "K": k, "N": n, "task": title},
            )
            rec = run_cell(cell, cfg.results_dir, **options)
            written.append(str(cell.path(cfg.results_dir)))
            acc = rec.query("split == 'test' and metric == 'accuracy'")["value"].mean()
            done = i * len(methods) + j + 1
            elapsed = time.perf_counter() - start
            log(
                f"[{done}/{total}] {panel} K={k} N={n} {method}: accuracy {acc:.4f} "
                f"({elapsed:.0f}s elapsed, ETA {elapsed / done * (total - done):.0f}s)"
            )
    return {"task": title, "written": written}
