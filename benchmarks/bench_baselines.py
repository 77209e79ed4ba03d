"""Fit and predict time of the baseline naive Bayes methods against scikit-learn's, same run.

    python benchmarks/bench_baselines.py [--repeats 5]

Prints, per data set, the median time of our estimator and of its scikit-learn peer and the ratio
ours / peer (GaussianNB for nb_gaussian; CategoricalNB on ordinal-encoded data for nb_laplace on a
nominal data set). Our estimators validate and encode DataFrames and handle missing values and
unseen categories, which the peers do not: the ratio prices that.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.naive_bayes import CategoricalNB, GaussianNB
from sklearn.preprocessing import OrdinalEncoder

from repro import load_dataset, make_method


def _median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main(repeats: int = 5) -> None:
    rows = []
    for name, kwargs in [("waveform", {"n_samples": 20000}), ("letter", {}), ("pendigits", {})]:
        ds = load_dataset(name, **kwargs)
        X = ds.X.to_numpy()
        ours = _median_time(lambda ds=ds: make_method("nb_gaussian").fit(ds.X, ds.y), repeats)
        peer = _median_time(lambda X=X, y=ds.y: GaussianNB().fit(X, y), repeats)
        rows.append((name, "nb_gaussian", "GaussianNB", ours, peer))
    for name in ["mushroom", "dna"]:
        ds = load_dataset(name)
        Xo = OrdinalEncoder().fit_transform(ds.X.astype(str))
        ours = _median_time(lambda ds=ds: make_method("nb_laplace").fit(ds.X, ds.y), repeats)
        peer = _median_time(lambda X=Xo, y=ds.y: CategoricalNB().fit(X, y), repeats)
        rows.append((name, "nb_laplace", "CategoricalNB", ours, peer))
    print(f"{'data set':<10} {'ours':<12} {'peer':<14} {'ours s':>9} {'peer s':>9} {'ratio':>7}")
    for name, ours_id, peer_id, t_ours, t_peer in rows:
        ratio = t_ours / t_peer
        print(f"{name:<10} {ours_id:<12} {peer_id:<14} {t_ours:9.4f} {t_peer:9.4f} {ratio:7.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    main(parser.parse_args().repeats)
