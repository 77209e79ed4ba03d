"""fsNB fit time against SNB(ACC) and scikit-learn's CategoricalNB on vidaurre2012's DR.

    python benchmarks/bench_fsnb.py [--sizes 20 200 2000] [--repeats 5] [--seeds 100]

Data: the DR scenario of vidaurre2012 §7.1 (:func:`repro.datasets.vidaurre2012.scenario_dr`: 3
relevant, 7 partially redundant and ``n_noise`` redundant noise predictors, 3 states, 3 classes),
p = 20, 200, 2000 by ``n_noise`` = p − 10; the training part of one repetition of the
``synthetic`` protocol (the first N = 300 rows of the 3300-row block, seed 0).

Methods: ``fsnb`` and ``snb_acc`` from the registry (their YAML defaults; fsNB: ε = 0.025, v = 20,
patience 5) on the DataFrame of categoricals, and scikit-learn's ``CategoricalNB`` (no selection:
the floor of any NB fit) on the integer codes, built outside the timing. Every (method, p) runs in
a fresh subprocess, after an untimed warm-up fit (numba compilation) on a small DR sample.
Timings: ``time.perf_counter`` (wall) and ``time.process_time`` (CPU of the process) of
``fit``, best of ``--repeats`` (default 5) for p ≤ 200, of 1 for p = 2000 (5 for CategoricalNB,
which takes milliseconds); wall and CPU minima are taken separately. ``search s``: the search
alone (``fit_report_["search_time"]``, of the fastest run), the rest being preprocessing (fsNB:
the interpolated tables; SNB(ACC): MODL grouping of every variable).

Memory: ``maxrss``, the peak resident set of the subprocess (``resource.getrusage``, imports and
data included) and ``+rss``, its rise during the timed fits (over the peak before them: a lower
bound of what the fit needs); ``traced``, the peak of the Python allocations (``tracemalloc``,
NumPy arrays included, numba's own allocations not) of one extra, untimed fit.

Evaluations: fsNB's counter ``fit_report_["n_evaluations"]`` (the candidates (i, t) evaluated:
per iteration, for every candidate i with α_i < 1, min(v, steps left to α_i = 1)); SNB(ACC)'s
from its trace (each greedy step evaluates every variable not yet selected, the final,
rejected step included). ``evals/s``: evaluations per second of search (wall). The exponent is
the slope of log(time) against log(p), between consecutive sizes and fitted over all.
The paper reports 6732.25 evaluations per fsNB run and 125.10 per SNB run, averaged over its
synthetic runs (§7.1; 905.4 and 30.7 on diabetes, §7.2) and no times: ours is DR, p = 20,
``--seeds`` repetitions (default 100, as the paper's; seeds 0, 1, ...).
"""

from __future__ import annotations

import argparse
import datetime
import json
import resource
import subprocess
import sys
import time
import tracemalloc

import numpy as np
import pandas as pd

METHODS = ("fsnb", "snb_acc", "CategoricalNB")
N_TRAIN, N_BLOCK = 300, 3300
PAPER_EVALS = {"fsnb": 6732.25, "snb_acc": 125.10}


def dr_train(p: int, seed: int = 0):
    """First N = 300 rows of one DR repetition with p predictors (n_noise = p − 10)."""
    from repro.datasets.vidaurre2012 import scenario_dr

    X, y = scenario_dr(n_samples=N_BLOCK, n_noise=p - 10, seed=seed)
    return X.iloc[:N_TRAIN].reset_index(drop=True), np.asarray(y[:N_TRAIN])


def codes_of(X: pd.DataFrame) -> np.ndarray:
    return np.column_stack([X[c].cat.codes.to_numpy() for c in X.columns]).astype(np.int64)


def make_fit(method: str):
    """``fit(X, Xc, y)`` returning the fitted estimator (X: DataFrame, Xc: integer codes)."""
    if method == "CategoricalNB":
        from sklearn.naive_bayes import CategoricalNB

        return lambda X, Xc, y: CategoricalNB().fit(Xc, y)
    from repro.registry import make_method

    return lambda X, Xc, y: make_method(method).fit(X, y)


def n_evaluations(method: str, est) -> int | None:
    if method == "fsnb":
        return int(est.fit_report_["n_evaluations"])
    if method == "snb_acc":
        k, m = est.fit_report_["n_candidates"], len(est.fit_report_["selection_order"])
        return int(sum(k - j for j in range(min(m + 1, k))))  # + the rejected last step
    return None


def run_one(method: str, p: int, repeats: int) -> dict:
    fit = make_fit(method)
    Xw, yw = dr_train(20, seed=1)
    fit(Xw, codes_of(Xw), yw)  # warm-up: numba compilation, imports
    X, y = dr_train(p)
    Xc = codes_of(X)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    walls, cpus, fits = [], [], []
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        est = fit(X, Xc, y)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        fits.append(est)
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    est = fits[int(np.argmin(walls))]
    tracemalloc.start()
    fit(X, Xc, y)
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    report = getattr(est, "fit_report_", {})
    return {
        "p": p,
        "method": method,
        "repeats": repeats,
        "wall_s": min(walls),
        "cpu_s": min(cpus),
        "search_s": report.get("search_time"),
        "n_evaluations": n_evaluations(method, est),
        "n_iterations": report.get("n_iterations"),
        "n_selected": int(getattr(est, "n_selected_features_", p)),
        "maxrss_mb": rss_after / 1024,
        "rss_rise_mb": (rss_after - rss_before) / 1024,
        "traced_mb": traced / 2**20,
    }


def run_seeds(n_seeds: int) -> list[dict]:
    """fsNB and SNB(ACC) on DR, p = 20, seeds 0..n_seeds−1: evaluations and time per run."""
    fits = {m: make_fit(m) for m in ("fsnb", "snb_acc")}
    Xw, yw = dr_train(20, seed=10**6)
    rows = []
    for method, fit in fits.items():
        fit(Xw, None, yw)  # warm-up
        for seed in range(n_seeds):
            X, y = dr_train(20, seed)
            c0, t0 = time.process_time(), time.perf_counter()
            est = fit(X, None, y)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            rows.append(
                {
                    "method": method,
                    "seed": seed,
                    "wall_s": wall,
                    "cpu_s": cpu,
                    "search_s": est.fit_report_["search_time"],
                    "n_evaluations": n_evaluations(method, est),
                    "n_iterations": est.fit_report_.get("n_iterations"),
                    "n_selected": int(est.n_selected_features_),
                }
            )
    return rows


def _subprocess(*args: str):
    cmd = [sys.executable, __file__, *args]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _slopes(sizes, times) -> list[str]:
    lp, lt = np.log(np.asarray(sizes, float)), np.log(np.asarray(times, float))
    pairs = [f"{(lt[k + 1] - lt[k]) / (lp[k + 1] - lp[k]):.2f}" for k in range(len(sizes) - 1)]
    return pairs + [f"{np.polyfit(lp, lt, 1)[0]:.2f}" if len(sizes) > 2 else "-"]


def main(sizes=(20, 200, 2000), repeats=5, n_seeds=100) -> None:
    print(
        f"# python benchmarks/bench_fsnb.py   ({datetime.date.today()}, 2 shared cores: other "
        "jobs ran on the machine, so absolute times are inflated; the ratios compare fits "
        "timed in the same run)"
    )
    rows = []
    for p in sizes:
        for method in METHODS:
            reps = repeats if p <= 200 or method == "CategoricalNB" else 1
            rows.append(_subprocess("--one", method, str(p), str(reps)))
    table = pd.DataFrame(rows)
    table["evals/s"] = table["n_evaluations"] / table["search_s"]
    table.insert(6, "search %", 100 * table["search_s"] / table["wall_s"])
    show = table.rename(
        columns={
            "wall_s": "wall s",
            "cpu_s": "CPU s",
            "search_s": "search s",
            "n_evaluations": "evals",
            "n_iterations": "iters",
            "n_selected": "|S|",
            "maxrss_mb": "maxrss MB",
            "rss_rise_mb": "+rss MB",
            "traced_mb": "traced MB",
        }
    )
    print(f"\nDR, N = {N_TRAIN} training rows; fit time best of n (wall and CPU minima apart)")
    fmt = {
        "evals": lambda v: "-" if pd.isna(v) else f"{v:.0f}",
        "evals/s": lambda v: "-" if pd.isna(v) else f"{v:,.0f}",
        "iters": lambda v: "-" if pd.isna(v) else f"{v:.0f}",
        "search %": lambda v: "-" if pd.isna(v) else f"{v:.0f}",
    }
    with pd.option_context("display.width", 200, "display.float_format", "{:.4g}".format):
        print(show.to_string(index=False, na_rep="-", formatters=fmt))

    print("\nratios of fit times (same run)")
    by = table.set_index(["p", "method"])
    print(
        f"{'p':>5} {'fsNB/snb_acc wall':>18} {'CPU':>6} {'fsNB/CategoricalNB wall':>24} {'CPU':>7}"
    )
    for p in sizes:
        f, s, c = by.loc[(p, "fsnb")], by.loc[(p, "snb_acc")], by.loc[(p, "CategoricalNB")]
        print(
            f"{p:>5} {f.wall_s / s.wall_s:18.2f} {f.cpu_s / s.cpu_s:6.2f}"
            f" {f.wall_s / c.wall_s:24.1f} {f.cpu_s / c.cpu_s:7.1f}"
        )

    if len(sizes) > 1:
        steps = [f"{a}->{b}" for a, b in zip(sizes[:-1], sizes[1:])] + ["least-squares fit"]
        print("\ntime exponent in p (log-log slope): " + ", ".join(steps))
        for method in METHODS:
            sub = table[table["method"] == method]
            for key in ("wall_s", "cpu_s", "search_s"):
                if sub[key].isna().any():
                    continue
                print(f"  {method:<14} {key[:-2]:<7} " + "  ".join(_slopes(sizes, sub[key])))
        for method in ("fsnb", "snb_acc"):
            evals = table.loc[table["method"] == method, "n_evaluations"]
            print(f"  {method:<14} {'evals':<7} " + "  ".join(_slopes(sizes, evals)))

    if n_seeds:
        seeds = pd.DataFrame(_subprocess("--seeds-run", str(n_seeds)))
        print(f"\nevaluations per run, DR, p = 20, N = {N_TRAIN}, seeds 0..{n_seeds - 1}")
        for method in ("fsnb", "snb_acc"):
            s = seeds[seeds["method"] == method]
            ev = s["n_evaluations"]
            paper = PAPER_EVALS[method]
            print(
                f"  {method:<8} evals {ev.mean():7.1f} ± {ev.std():6.1f} (min {ev.min()}, "
                f"max {ev.max()})  paper {paper:g} (ours/paper {ev.mean() / paper:.2f})"
                f"  |S| {s['n_selected'].mean():.1f}"
                f"  fit {s['wall_s'].mean():.3f} s wall, {s['cpu_s'].mean():.3f} s CPU"
                f"  (search {s['search_s'].mean():.3f} s)"
                f"  {ev.sum() / s['search_s'].sum():,.0f} evals/s of search"
            )
        f = seeds[seeds["method"] == "fsnb"]
        per_eval = f["search_s"].sum() / f["n_evaluations"].sum()
        print(
            f"  fsnb iterations {f['n_iterations'].mean():.1f} (evals/iteration "
            f"{(f['n_evaluations'] / f['n_iterations']).mean():.0f}; p·v = 400 while no α "
            f"reaches 1); the paper's 6732.25 evaluations at our rate: "
            f"{6732.25 * per_eval:.3f} s of search"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 200, 2000])
    parser.add_argument("--repeats", type=int, default=5, help="best of, for p <= 200")
    parser.add_argument("--seeds", type=int, default=100, help="repetitions of the p = 20 count")
    parser.add_argument("--one", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--seeds-run", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        method, p, reps = args.one
        print(json.dumps(run_one(method, int(p), int(reps))))
    elif args.seeds_run:
        print(json.dumps(run_seeds(args.seeds_run)))
    else:
        main(tuple(args.sizes), args.repeats, args.seeds)
