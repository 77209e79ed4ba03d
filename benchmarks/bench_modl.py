"""Benchmark of the Khiops-compatible MODL + FNB against Khiops itself (issue 3).

Run as a script:  python benchmarks/bench_modl.py [--quick] [--large]

1. ``fnb_khiops`` fit vs the Khiops fit (``KhiopsClassifier(n_trees=0, n_pairs=0)``) on
   waveform_noise, printing the time ratio ours/Khiops and the test AUC of both
   (small case: N = 5000, 40 variables; ``--large``: N = 20000, 1000 variables).
2. :class:`MODLDiscretizer` (khiops variant) time per variable vs N = 10³ … 10⁶ (``--quick``
   stops at 10⁵), with the fitted exponent of time ~ N^a (N log N gives a ≈ 1.05–1.1).
3. A cProfile summary of the ``fnb_khiops`` fit (where time goes).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

import numpy as np
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

from repro.datasets.generators import waveform_noise
from repro.methods.fractional import KhiopsFractionalNaiveBayes
from repro.preprocessing.discretizers import MODLDiscretizer


def auc(y, P, classes):
    return roc_auc_score(y, P, multi_class="ovr", average="weighted", labels=classes)


def compare(n_samples, n_noise, profile=False):
    X, y = waveform_noise(n_samples=n_samples, n_noise=n_noise, seed=0)
    y = np.asarray([f"c{v}" for v in y])
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    t = time.perf_counter()
    ours = KhiopsFractionalNaiveBayes().fit(Xtr, ytr)
    t_ours = time.perf_counter() - t
    auc_ours = auc(yte, ours.predict_proba(Xte), ours.classes_)
    row = {"N": n_samples, "K": X.shape[1], "ours_s": t_ours, "auc_ours": auc_ours}
    try:
        from khiops.sklearn import KhiopsClassifier

        t = time.perf_counter()
        kh = KhiopsClassifier(n_trees=0, n_pairs=0).fit(Xtr, ytr)
        t_kh = time.perf_counter() - t
        row.update(
            khiops_s=t_kh,
            ratio=t_ours / t_kh,
            auc_khiops=auc(yte, kh.predict_proba(Xte), list(kh.classes_)),
        )
    except ImportError:
        row.update(khiops_s=np.nan, ratio=np.nan, auc_khiops=np.nan)
    print(row, flush=True)
    if profile:
        pr = cProfile.Profile()
        pr.enable()
        KhiopsFractionalNaiveBayes().fit(Xtr, ytr)
        pr.disable()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(15)
        print(s.getvalue())
    return row


def discretizer_scaling(sizes, repeats=1):
    rng = np.random.default_rng(0)
    times = []
    for n in sizes:
        y = rng.integers(0, 3, n)
        x = y + rng.normal(size=n) * 2
        t = time.perf_counter()
        for _ in range(repeats):
            MODLDiscretizer("khiops").fit(x, y)
        times.append((time.perf_counter() - t) / repeats)
        print(f"MODLDiscretizer khiops N={n:>8d}: {times[-1]:.3f} s/variable", flush=True)
    a = np.polyfit(np.log(sizes), np.log(times), 1)[0]
    print(f"time ~ N^{a:.2f}")
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--large", action="store_true")
    args = parser.parse_args()
    compare(5000, 19, profile=True)
    if args.large:
        compare(20000, 979)
    sizes = [10**3, 10**4, 10**5] if args.quick else [10**3, 10**4, 10**5, 10**6]
    discretizer_scaling(sizes)


if __name__ == "__main__":
    main()
