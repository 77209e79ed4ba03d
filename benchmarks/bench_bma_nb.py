"""Fit time of BMA-NB against NB, LR and SVM (and their tuned versions), same run.

    python benchmarks/bench_bma_nb.py [--repeats 5] [--tuned] [--datasets letter,adult]

Goal: ``bma_nb`` fit ≤ 2× ``nb_laplace`` fit (wu2015 reports about 4×), and far below the tuning
of LR/SVM. Prints, per data set, the median fit time of each method and its ratio to
``nb_laplace``. Data: letter (20000 × 16 numeric, 26 classes), adult (48842 × 14 mixed, 2
classes) and a wide synthetic set (2000 × 1000: 50 informative numeric, 450 noise numeric, 500
noise nominal). ``--tuned`` also times the tuned versions once (inner 5-fold CV; Γ grid of 11
values: 56 fits; C × B grid of 36: 181 fits — tens of minutes for LR/SVM on letter and adult).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

from repro import load_dataset, make_method

PLAIN = ["nb_laplace", "bma_nb", "lr", "svm"]
TUNED = ["bma_nb_tuned", "lr_tuned", "svm_tuned"]


def wide_synthetic(n=2000, n_info=50, n_noise=450, n_nominal=500, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    info = rng.normal(size=(n, n_info)) + 0.3 * y[:, None]
    noise = rng.normal(size=(n, n_noise))
    cols = {f"x{j}": v for j, v in enumerate(np.hstack([info, noise]).T)}
    cat = pd.CategoricalDtype(["a", "b", "c", "d"])
    codes = rng.integers(0, 4, (n_nominal, n))
    for j in range(n_nominal):
        cols[f"c{j}"] = pd.Categorical.from_codes(codes[j], dtype=cat)
    return pd.DataFrame(cols), y


def median_fit_time(method, X, y, repeats):
    times = []
    for _ in range(repeats):
        est = make_method(method)
        t0 = time.perf_counter()
        est.fit(X, y)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main(repeats=5, tuned=False, datasets=("letter", "adult", "wide_synthetic")):
    warnings.filterwarnings("ignore")  # liblinear convergence warnings at large C
    rows = []
    for name in datasets:
        if name == "wide_synthetic":
            X, y = wide_synthetic()
        else:
            ds = load_dataset(name)
            X, y = ds.X, np.asarray(ds.y)
        methods = PLAIN + (TUNED if tuned else [])
        times = {}
        for method in methods:
            reps = repeats if method in PLAIN else 1
            times[method] = median_fit_time(method, X, y, reps)
        for method in methods:
            rows.append(
                {
                    "data set": f"{name} {X.shape[0]}x{X.shape[1]}",
                    "method": method,
                    "fit s": times[method],
                    "ratio to nb_laplace": times[method] / times["nb_laplace"],
                }
            )
    table = pd.DataFrame(rows)
    with pd.option_context("display.width", 120, "display.float_format", "{:.4f}".format):
        print(table.to_string(index=False))
    bma = table[table["method"] == "bma_nb"]
    print(
        "bma_nb / nb_laplace: "
        + ", ".join(f"{d}: {r:.2f}" for d, r in zip(bma["data set"], bma["ratio to nb_laplace"]))
        + "  (goal ≤ 2; wu2015 reports about 4)"
    )
    return table


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--tuned", action="store_true", help="also time the *_tuned methods")
    parser.add_argument("--datasets", default="letter,adult,wide_synthetic")
    args = parser.parse_args()
    main(args.repeats, args.tuned, tuple(args.datasets.split(",")))
