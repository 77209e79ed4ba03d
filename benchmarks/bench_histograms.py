"""MDL histogram fit time against ``np.sort`` of the same column, and MDLh / MDLg 10-fold CV on
letter end to end (the goal: "MDL histogram NB cv10 on letter (20000 × 16) in ≤ 60 s").

    python benchmarks/bench_histograms.py [--sizes 1000 10000 100000 1000000] [--repeats 3]
        [--n-jobs 2] [--out results/benchmarks/bench_histograms.txt]

Part 1, :func:`repro.preprocessing.histograms.mdl_histogram` on one column of n values, three
kinds of data (seed 0): ``continuous`` = N(0, 1) at full precision (ε = half the smallest gap is
tiny and the optimum is the finest histogram), ``rounded`` = N(0, 1) rounded to 2 decimals (a
measurement precision, as UCI data), ``tied`` = 100 distinct values (heavily tied). Timings:
best of ``--repeats`` of wall (``perf_counter``) and CPU (``process_time``), after an untimed
warm-up (numba); the floor is ``np.sort`` of the same column in the same run (``ratio`` = fit /
sort, wall). ``µs/value`` = fit wall / n; the growth exponent is the slope of log(wall) against
log(n), between consecutive sizes and fitted over all. ``K``: bins of the optimum; ``gap``: its
certified optimality gap (0 = proven optimal).

Part 2, ``nb_mdlh`` and ``nb_mdlg`` (registry defaults) on ``letter``: stratified 10-fold CV (seed
0), fit + predict_proba per fold, folds in parallel over ``--n-jobs`` processes (joblib loky,
warm workers: one untimed fold first); peer: ``nb_gaussian`` in the same run. Wall of the whole
CV, CPU summed over the folds (measured in the workers), peak RSS of this process and of the
workers (``resource`` RUSAGE_SELF, read in each worker after its fold).
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import time

import numpy as np

KINDS = ("continuous", "rounded", "tied")


def column(kind: str, n: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    x = rng.normal(size=n)
    if kind == "rounded":
        return np.round(x, 2)
    if kind == "tied":
        return rng.integers(0, 100, n).astype(np.float64)
    return x


def best_of(fn, repeats: int) -> tuple[float, float, object]:
    walls, cpus, out = [], [], None
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return min(walls), min(cpus), out


def part1(sizes, repeats) -> list[str]:
    from repro.preprocessing.histograms import mdl_histogram

    for kind in KINDS:  # warm-up: numba compilation / cache loading
        mdl_histogram(column(kind, 500))
    lines = [
        "Part 1: mdl_histogram fit vs np.sort of the same column (best of repeats)",
        f"{'kind':<11}{'n':>9}{'fit wall s':>12}{'fit cpu s':>11}{'sort s':>10}{'ratio':>9}"
        f"{'µs/value':>10}{'K':>9}{'gap':>6}",
    ]
    for kind in KINDS:
        walls = []
        for n in sizes:
            x = column(kind, n)
            reps = repeats if n <= 100_000 else 1
            wall, cpu, hist = best_of(lambda x=x: mdl_histogram(x), reps)
            sort, _, _ = best_of(lambda x=x: np.sort(x), max(reps, 3))
            walls.append(wall)
            lines.append(
                f"{kind:<11}{n:>9}{wall:>12.4f}{cpu:>11.4f}{sort:>10.5f}{wall / sort:>9.1f}"
                f"{1e6 * wall / n:>10.3f}{hist.n_bins:>9}{hist.gap:>6.2g}"
            )
        logn, logt = np.log(np.asarray(sizes, float)), np.log(walls)
        steps = ", ".join(f"{s:.2f}" for s in np.diff(logt) / np.diff(logn))
        slope = np.polyfit(logn, logt, 1)[0]
        lines.append(f"{kind:<11}growth exponent (log wall vs log n): {slope:.2f} (steps {steps})")
    return lines


def _fold(method: str, X, y, train, test) -> tuple[float, float]:
    from repro.registry import make_method

    c0 = time.process_time()
    model = make_method(method).fit(X.iloc[train], y[train])
    acc = float(np.mean(model.predict(X.iloc[test]) == y[test]))
    model.predict_proba(X.iloc[test])
    return time.process_time() - c0, acc, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def part2(n_jobs: int) -> list[str]:
    from joblib import Parallel, delayed
    from sklearn.model_selection import StratifiedKFold

    from repro.datasets import load_dataset

    ds = load_dataset("letter")
    X, y = ds.X, np.asarray(ds.y)
    folds = list(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y))
    lines = [
        f"Part 2: 10-fold CV on letter ({X.shape[0]} x {X.shape[1]}), fit + predict_proba, "
        f"{n_jobs} worker process(es)",
        f"{'method':<13}{'wall s':>9}{'cpu s':>9}{'accuracy':>10}{'wall / Gaussian':>17}"
        f"{'worker peak RSS MB':>20}",
    ]
    with Parallel(n_jobs=n_jobs, backend="loky") as parallel:
        for m in ("nb_mdlh", "nb_mdlg", "nb_gaussian"):  # warm workers: imports, numba
            parallel(delayed(_fold)(m, X, y, *folds[0]) for _ in range(n_jobs))
        results = {}
        for m in ("nb_gaussian", "nb_mdlh", "nb_mdlg"):
            t0 = time.perf_counter()
            out = parallel(delayed(_fold)(m, X, y, tr, te) for tr, te in folds)
            wall = time.perf_counter() - t0
            rss = max(r for _, _, r in out) / 1024
            results[m] = (wall, sum(c for c, _, _ in out), np.mean([a for _, a, _ in out]), rss)
    base = results["nb_gaussian"][0]
    for m, (wall, cpu, acc, rss) in results.items():
        lines.append(f"{m:<13}{wall:>9.2f}{cpu:>9.2f}{acc:>10.4f}{wall / base:>17.1f}{rss:>20.0f}")
    lines.append("goal: nb_mdlh and nb_mdlg cv10 on letter ≤ 60 s wall on 2 cores")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000, 1000000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--out", default=None)
    parser.add_argument("--skip-part1", action="store_true", help="only the letter CV")
    args = parser.parse_args()
    head = [
        f"bench_histograms.py  {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC  "
        f"cores {os.cpu_count()}  load average {os.getloadavg()[0]:.1f} (shared machine)",
        "",
    ]
    first = [] if args.skip_part1 else part1(args.sizes, args.repeats) + [""]
    lines = head + first + part2(args.n_jobs)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines.append(f"peak RSS of this process (part 1 and the parent of part 2): {rss:.0f} MB")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
