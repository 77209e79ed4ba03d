"""Benchmark of the Khiops-compatible MODL + FNB against Khiops itself (issue 3).

Run as a script:  python benchmarks/bench_modl.py [--quick] [--large] [--cv]

1. numba: time of the first MODL fit in the process (kernels compiled, or loaded from the
   on-disk cache when it is warm).
2. ``fnb_khiops`` fit vs the Khiops fit (``KhiopsClassifier(n_trees=0, n_pairs=0)``) on
   waveform_noise, printing the time ratio ours/Khiops and the test AUC of both (small case:
   N = 5000, 40 variables; ``--large``: also N = 20000, 1000 variables), with a profile of where
   our fit time goes (preprocessing kernels vs the FNB weight optimisation).
3. :class:`MODLDiscretizer` time per variable vs N = 10³ … 10⁶ (``--quick`` stops at 10⁵), both
   variants, with the fitted exponent of time ~ N^a and time / (N log N) (flat = N log N).
4. ``--cv``: ``repro.evaluate("nb", "waveform")`` (10-fold CV of the paper's NB) wall time.

Times are wall-clock (``perf_counter``) and CPU (``process_time``) seconds: on a shared machine
the CPU time is the more stable of the two.
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
from repro.methods.khiops.fnb_khiops import KhiopsFractionalNaiveBayes
from repro.preprocessing.modl.estimators import MODLDiscretizer


def auc(y, P, classes):
    return roc_auc_score(y, P, multi_class="ovr", average="weighted", labels=classes)


def first_call():
    """Time of the first fit in this process (numba compile, or cache load when warm)."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 200)
    x = y + rng.normal(size=200)
    t = time.perf_counter()
    MODLDiscretizer("khiops").fit(x, y)
    MODLDiscretizer("paper").fit(x, y)
    dt = time.perf_counter() - t
    print(f"first MODL fits in this process (numba compile or cache load): {dt:.2f} s", flush=True)
    return dt


def _profile_summary(stats: pstats.Stats, total: float) -> str:
    """Share of the fit time in the main stages (cumulative times of a few functions)."""
    stages = {
        "MODL discretization (discretize_table)": "discretize_table",
        "  greedy merge kernel": "greedy_merge_kernel",
        "  post-optimisation kernel": "post_optimise_kernel",
        "MODL grouping (group_values)": "group_values",
        "FNB weight optimisation (_optimise_weights/_fit_weights)": "weights",
    }
    found = {}
    for (_file, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():
        for label, key in stages.items():
            if key == "weights":
                if "weight" in name and "fractional" in _file:
                    found[label] = max(found.get(label, 0.0), ct)
            elif name == key:
                found[label] = found.get(label, 0.0) + ct
    lines = [f"  {label:<60s} {found.get(label, 0.0):7.2f} s" for label in stages]
    lines.append(f"  {'total fit (profiled)':<60s} {total:7.2f} s")
    return "\n".join(lines)


def compare(n_samples, n_noise, profile=False):
    X, y = waveform_noise(n_samples=n_samples, n_noise=n_noise, seed=0)
    y = np.asarray([f"c{v}" for v in y])
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    t, c = time.perf_counter(), time.process_time()
    ours = KhiopsFractionalNaiveBayes().fit(Xtr, ytr)
    t_ours, c_ours = time.perf_counter() - t, time.process_time() - c
    auc_ours = auc(yte, ours.predict_proba(Xte), ours.classes_)
    row = {
        "N": n_samples,
        "K": X.shape[1],
        "ours_s": round(t_ours, 3),
        "ours_cpu_s": round(c_ours, 3),
        "auc_ours": round(auc_ours, 6),
    }
    try:
        from khiops.sklearn import KhiopsClassifier

        t = time.perf_counter()
        kh = KhiopsClassifier(n_trees=0, n_pairs=0).fit(Xtr, ytr)
        t_kh = time.perf_counter() - t
        row.update(
            khiops_s=round(t_kh, 3),
            ratio=round(t_ours / t_kh, 3),
            auc_khiops=round(auc(yte, kh.predict_proba(Xte), list(kh.classes_)), 6),
        )
    except ImportError:
        row.update(khiops_s=np.nan, ratio=np.nan, auc_khiops=np.nan)
    print(row, flush=True)
    if profile:
        pr = cProfile.Profile()
        t = time.perf_counter()
        pr.enable()
        KhiopsFractionalNaiveBayes().fit(Xtr, ytr)
        pr.disable()
        total = time.perf_counter() - t
        stats = pstats.Stats(pr)
        print(f"where the fnb_khiops fit time goes (N={n_samples}, K={X.shape[1]}):")
        print(_profile_summary(stats, total))
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(12)
        print(s.getvalue())
    return row


def discretizer_scaling(sizes):
    rng = np.random.default_rng(0)
    print(
        f"{'N':>9s} {'variant':>7s} {'wall s/var':>11s} {'cpu s/var':>10s} {'cpu/(N lnN) ns':>15s}"
    )
    out = {}
    for variant in ("khiops", "paper"):
        times = []
        for n in sizes:
            y = rng.integers(0, 3, n)
            x = y + rng.normal(size=n) * 2
            repeats = max(1, 20_000 // n)
            t, c = time.perf_counter(), time.process_time()
            for _ in range(repeats):
                MODLDiscretizer(variant).fit(x, y)
            wall = (time.perf_counter() - t) / repeats
            cpu = (time.process_time() - c) / repeats
            times.append(cpu)
            per_nlogn = cpu / (n * np.log(n)) * 1e9
            print(
                f"{n:>9d} {variant:>7s} {wall:>11.4f} {cpu:>10.4f} {per_nlogn:>15.1f}", flush=True
            )
        a = np.polyfit(np.log(sizes), np.log(times), 1)[0]
        print(f"{variant}: cpu time ~ N^{a:.2f} from N={sizes[0]} to {sizes[-1]}", flush=True)
        out[variant] = times
    return out


def nb_cv():
    import repro

    t = time.perf_counter()
    df = repro.evaluate("nb", "waveform", force=True)
    dt = time.perf_counter() - t
    acc = df[df["metric"] == "accuracy"]["value"].mean() if "metric" in df else float("nan")
    print(f"repro.evaluate('nb', 'waveform') 10-fold CV: {dt:.2f} s (accuracy {acc:.4f})")
    return dt


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--large", action="store_true")
    parser.add_argument("--cv", action="store_true")
    args = parser.parse_args()
    first_call()
    compare(5000, 19, profile=True)
    if args.large:
        compare(20000, 979, profile=True)
    sizes = [10**3, 10**4, 10**5] if args.quick else [10**3, 10**4, 10**5, 10**6]
    discretizer_scaling(sizes)
    if args.cv:
        nb_cv()


if __name__ == "__main__":
    main()
