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

Part 3 (``--wide``), the ``max_candidates`` bound: ``nb_mdlh`` and ``nb_mdlg`` fit on n rows × 40
unrounded N(0, 1) variables (two classes, shifted by 0.3; seed 0), n = 2000, 4000, 8000 and
10⁵, exact (``max_candidates=None``, the default) and under the bound
(:data:`repro.preprocessing.histograms.mdl.MAX_CANDIDATES`, and ``--bounds``: integers or
``auto``, the classifiers' default: exact while E ≤ 65,536, else 4096); peer:
``nb_gaussian`` fit in the same run. Each fit runs alone in a forked child (kernels compiled in
the parent first): wall, CPU and the child's peak RSS; a fit still running after
``--exact-cap`` seconds is stopped and shown as ``>cap``. ``bounded``: variables where the
bound applied.
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


def wide_data(n: int, d: int = 40):
    import pandas as pd

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, d)) + 0.3 * y[:, None]
    return pd.DataFrame(X, columns=[f"x{i}" for i in range(d)]), y


def _timed_fit(conn, method, params, n):
    from repro.registry import make_method

    X, y = wide_data(n)
    c0, t0 = time.process_time(), time.perf_counter()
    model = make_method(method, **params).fit(X, y)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    bounded = (getattr(model, "fit_report_", {}) or {}).get("mdl_bounded_variables", "")
    conn.send((wall, cpu, rss, bounded))


def fit_in_child(method, params, n, cap):
    """(wall, cpu, peak RSS MB, bounded variables) of one fit in a forked child; None past cap."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_timed_fit, args=(child, method, params, n))
    proc.start()
    ready = parent.poll(cap)
    out = parent.recv() if ready else None
    if not ready:
        proc.kill()
    proc.join()
    return out


def part3(sizes, bounds, cap, skip_exact=False) -> list[str]:
    from repro.registry import make_method

    X, y = wide_data(300, 3)  # compile / load the kernels before forking
    for m in ("nb_mdlh", "nb_mdlg", "nb_gaussian"):
        make_method(m, **({"max_candidates": 64} if m != "nb_gaussian" else {})).fit(X, y)
    lines = [
        "Part 3: fit on n rows x 40 unrounded N(0, 1) variables (2 classes), one forked child "
        f"per fit, exact vs max_candidates (cap {cap:.0f} s)",
        f"{'method':<13}{'max_candidates':>15}{'n':>8}{'wall s':>9}{'cpu s':>9}"
        f"{'peak RSS MB':>13}{'bounded':>9}",
    ]
    for n in sizes:
        runs = [("nb_gaussian", None)]
        searches = bounds if skip_exact else (None, *bounds)
        runs += [(m, b) for m in ("nb_mdlh", "nb_mdlg") for b in searches]
        for method, bound in runs:
            params = {} if method == "nb_gaussian" else {"max_candidates": bound}
            out = fit_in_child(method, params, n, cap)
            label = "-" if method == "nb_gaussian" else str(bound)
            if out is None:
                lines.append(f"{method:<13}{label:>15}{n:>8}{'>' + f'{cap:.0f}':>9}")
            else:
                wall, cpu, rss, bounded = out
                lines.append(
                    f"{method:<13}{label:>15}{n:>8}{wall:>9.2f}{cpu:>9.2f}{rss:>13.0f}"
                    f"{bounded!s:>9}"
                )
            print(lines[-1], flush=True)
    lines.append("goal: nb_mdlh and nb_mdlg on 10^5 x 40 unrounded variables <= 60 s")
    return lines


def _bound(text: str):
    return text if text == "auto" else int(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000, 1000000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--out", default=None)
    parser.add_argument("--append", action="store_true", help="append to --out (the log)")
    parser.add_argument("--skip-part1", action="store_true", help="only the letter CV")
    parser.add_argument("--skip-part2", action="store_true", help="no letter CV")
    parser.add_argument("--wide", action="store_true", help="part 3: the max_candidates bound")
    parser.add_argument("--wide-sizes", type=int, nargs="+", default=[2000, 4000, 8000, 100000])
    parser.add_argument("--bounds", type=_bound, nargs="+", default=None, help="ints or auto")
    parser.add_argument("--skip-exact", action="store_true", help="part 3 without the exact fit")
    parser.add_argument("--exact-cap", type=float, default=120.0)
    args = parser.parse_args()
    head = [
        f"bench_histograms.py  {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC  "
        f"cores {os.cpu_count()}  load average {os.getloadavg()[0]:.1f} (shared machine)",
        "",
    ]
    from repro.preprocessing.histograms.mdl import MAX_CANDIDATES

    first = [] if args.skip_part1 else part1(args.sizes, args.repeats) + [""]
    second = [] if args.skip_part2 else part2(args.n_jobs)
    bounds = args.bounds or [MAX_CANDIDATES]
    third = part3(args.wide_sizes, bounds, args.exact_cap, args.skip_exact) if args.wide else []
    lines = head + first + second + ([""] if second and third else []) + third
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines.append(f"peak RSS of this process (part 1 and the parent of part 2): {rss:.0f} MB")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "a" if args.append else "w") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
