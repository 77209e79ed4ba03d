"""Khiops' value grouping compiled vs its Python reference, and ``fnb_khiops`` vs Khiops (issue 29).

Run as a script (one command; writes ``results/benchmarks/bench_grouping.txt``):

    python benchmarks/bench_grouping.py [--census] [--repeats 3] [--profile]

1. One nominal variable of 1000 values × 50 000 rows (Zipf-like frequencies, class distributions
   depending on the value), two classes and four classes: ``group_values`` and
   ``MODLGrouper("khiops").fit`` on the compiled path (``engine="numba"``) and on the Python
   reference (``engine="python"``), in the same process after a warm-up (kernels loaded); the two
   must give the same groups, granularity and cost (checked). Goal: ≤ 0.3 s.
2. adult's nominal columns (48 842 rows): the same, per column and in total.
3. ``fnb_khiops`` on adult (``--census``: also census_income_kdd, 299 285 × 41) with the compiled
   grouping, with the Python grouping, and Khiops 11
   (:class:`repro.methods.khiops.peer.KhiopsPeerClassifier`, as ``bench_scale.py``), each fit in
   a fresh process after a warm-up fit: wall and CPU seconds (ours: the process; Khiops: its
   processes, ``RUSAGE_CHILDREN``, plus the Python wrapper), peak RSS. Goal: ours ≤ 0.25 × Khiops'
   CPU.

Times are best of ``--repeats`` (sections 1–2) on a shared, busy machine: the ratios between
peers measured in the same run are what to read; the load average is printed with each section.
``--profile``: cProfile of the compiled path on the synthetic variables (where the rest goes).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import json
import os
import pstats
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "results" / "benchmarks" / "bench_grouping.txt"
GOAL_VARIABLE_S = 0.3
GOAL_RATIO = 0.25


def synthetic_variable(n_classes: int, n_values: int = 1000, n: int = 50_000, seed: int = 0):
    """(x, y): a nominal variable of ``n_values`` values (Zipf-like frequencies, exponent 1.1),
    each value with its own class distribution (Dirichlet(0.7))."""
    rng = np.random.default_rng(seed)
    freq = 1.0 / np.arange(1, n_values + 1) ** 1.1
    freq /= freq.sum()
    x = rng.choice(n_values, n, p=freq)
    x[:n_values] = np.arange(n_values)  # every value present
    p = rng.dirichlet(np.full(n_classes, 0.7), n_values)
    y = (rng.random(n)[:, None] < p[x].cumsum(axis=1)).argmax(axis=1)
    return np.array([f"v{k}" for k in range(n_values)], dtype=object)[x], y


def value_table(x, y):
    """Class counts of the values sorted by decreasing frequency (ties: label), as MODLGrouper."""
    names, codes = np.unique(np.asarray(x, dtype=str), return_inverse=True)
    classes, yi = np.unique(y, return_inverse=True)
    counts = np.zeros((len(names), len(classes)))
    np.add.at(counts, (codes, yi), 1.0)
    order = sorted(range(len(names)), key=lambda i: (-counts[i].sum(), str(names[i])))
    return counts[order]


def timed(fn, repeats: int):
    """Best (wall, cpu) of ``repeats`` calls, and the last result."""
    best_w = best_c = float("inf")
    out = None
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        best_w = min(best_w, time.perf_counter() - w)
        best_c = min(best_c, time.process_time() - c)
    return best_w, best_c, out


def same(a, b) -> bool:
    return (
        np.array_equal(a[0], b[0]) and a[1] == b[1] and a[2] == b[2] and np.array_equal(a[3], b[3])
    )


def compare_variable(label: str, x, y, repeats: int, log) -> dict:
    from repro.preprocessing.modl.estimators import MODLGrouper
    from repro.preprocessing.modl.grouping import group_values
    from repro.preprocessing.modl.grouping_kernels import engine

    counts = value_table(x, y)
    row = {"variable": label, "V": counts.shape[0], "J": counts.shape[1], "N": int(counts.sum())}
    results = {}
    for eng in ("numba", "python"):
        reps = repeats if eng == "numba" else 1
        w, c, results[eng] = timed(lambda e=eng: group_values(counts, 1.0, engine=e), reps)
        row[f"group_values {eng} wall s"], row[f"group_values {eng} cpu s"] = w, c

        def fit(e=eng):
            with engine(e):
                return MODLGrouper("khiops", n_variables=1).fit(x, y)

        w, c, _ = timed(fit, reps)
        row[f"MODLGrouper {eng} wall s"], row[f"MODLGrouper {eng} cpu s"] = w, c
    row["identical"] = same(results["numba"], results["python"])
    row["groups"] = int(results["numba"][0].max()) + 1
    log(
        f"  {label:<28s} V={row['V']:>5d} J={row['J']} N={row['N']:>6d} groups={row['groups']:>3d}"
        f"  group_values cpu: numba {row['group_values numba cpu s']:.3f} s, python "
        f"{row['group_values python cpu s']:.3f} s (ratio "
        f"{row['group_values numba cpu s'] / row['group_values python cpu s']:.3f}); "
        f"MODLGrouper.fit cpu: numba {row['MODLGrouper numba cpu s']:.3f} s (wall "
        f"{row['MODLGrouper numba wall s']:.3f}), python {row['MODLGrouper python cpu s']:.3f} s"
        f"; identical: {row['identical']}"
    )
    return row


def profile_compiled(x, y, log, top: int = 14) -> None:
    from repro.preprocessing.modl.grouping import group_values

    counts = value_table(x, y)
    pr = cProfile.Profile()
    pr.enable()
    group_values(counts, 1.0, engine="numba")
    pr.disable()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(top)
    for line in s.getvalue().splitlines():
        if line.strip():
            log("    " + line.rstrip())


def profile_fnb(name: str, log) -> None:
    """Where the CPU of a ``fnb_khiops`` fit goes (cProfile, process time; profiled times are
    inflated, the shares are what to read): the grouping vs the rest of the nominal path."""
    from repro.methods.khiops.fnb_khiops import KhiopsFractionalNaiveBayes

    X, y = load(name)
    KhiopsFractionalNaiveBayes(n_jobs=1).fit(X.iloc[:300], y[:300])
    pr = cProfile.Profile(timer=time.process_time)
    pr.enable()
    KhiopsFractionalNaiveBayes(n_jobs=1).fit(X, y)
    pr.disable()
    stats = pstats.Stats(pr).stats
    total = max(ct for (_cc, _nc, _tt, ct, _callers) in stats.values())
    from repro.methods.khiops import fnb_criterion
    from repro.preprocessing.modl import estimators, grouping

    def key(fn):
        code = fn.__code__
        return (code.co_filename, code.co_firstlineno, code.co_name)

    stages = {
        "group_values (Khiops grouping)": [grouping.group_values],
        "MODLGroupPartition._atoms (codes factorized, keys)": [
            estimators.MODLGroupPartition._atoms
        ],
        "MODLGrouper.fit_atoms (all of it)": [estimators.MODLGrouper.fit_atoms],
        "MODLGrouper.transform_atoms (all of it)": [estimators.MODLGrouper.transform_atoms],
        "FNB weights (khiops_fnb_move, khiops_fnb_trial_data_cost)": [
            getattr(fnb_criterion, n) for n in dir(fnb_criterion) if n.startswith("khiops_fnb_")
        ],
    }
    found = {}
    for label, fns in stages.items():
        t = 0.0
        for fn in fns:
            fn = getattr(fn, "py_func", fn)
            entry = stats.get(key(fn))
            if entry is not None:
                t += entry[3]
        found[label] = t
        log(f"    {label:<58s} {t:7.2f} s  ({100 * t / total:5.1f} %)")
    rows = (
        found["MODLGroupPartition._atoms (codes factorized, keys)"]
        + found["MODLGrouper.fit_atoms (all of it)"]
        + found["MODLGrouper.transform_atoms (all of it)"]
        - found["group_values (Khiops grouping)"]
    )
    log(
        f"    {'nominal path (_atoms + MODLGrouper fit/transform - group_values)':<58s}"
        f" {rows:7.2f} s  ({100 * rows / total:5.1f} %)"
    )
    log(f"    {'whole fit (profiled)':<58s} {total:7.2f} s")


# ---------------------------------------------------------------------------------------------
# fnb_khiops vs Khiops, one fit per process
# ---------------------------------------------------------------------------------------------
def load(name: str):
    from repro.datasets import load_dataset

    ds = load_dataset(name)
    return ds.X, np.asarray(ds.y)


def waited_children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def worker(method: str, name: str) -> dict:
    import pandas as pd

    from repro.preprocessing.modl.grouping_kernels import engine

    X, y = load(name)
    warm = pd.DataFrame({"a": ["u", "v", "w"] * 20, "b": np.arange(60.0), "c": ["p", "q"] * 30})
    warm_y = np.array(["0", "1", "1", "0", "1"] * 12)
    if method == "khiops":
        from repro.methods.khiops.peer import KhiopsPeerClassifier

        def make():
            return KhiopsPeerClassifier()

        eng = None
    else:
        from repro.methods.khiops.fnb_khiops import KhiopsFractionalNaiveBayes

        def make():
            return KhiopsFractionalNaiveBayes(n_jobs=1)

        eng = method.split(":")[1]
    with engine(eng):
        make().fit(warm, warm_y)  # warm-up: kernels loaded, Khiops started once
        load0 = os.getloadavg()[0]
        c_waited = waited_children_cpu()
        wall, cpu = time.perf_counter(), time.process_time()
        model = make().fit(X, y)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    waited = waited_children_cpu() - c_waited
    return {
        "method": method,
        "data": name,
        "N": int(X.shape[0]),
        "K": int(X.shape[1]),
        "wall s": wall,
        "cpu s": cpu + waited,
        "load avg": load0,
        "peak RSS GB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
        "n_selected": int(model.n_selected_features_),
    }


def run_worker(method: str, name: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", method, name],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


class Log:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open("w")

    def __call__(self, text: str = "") -> None:
        print(text, flush=True)
        self.file.write(text + "\n")
        self.file.flush()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--census", action="store_true", help="also census_income_kdd")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return
    log = Log(OUT)
    log(f"bench_grouping.py — {datetime.datetime.now():%Y-%m-%d %H:%M}; CPU and wall seconds")
    log(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    from repro.preprocessing.modl.grouping import group_values

    group_values(np.array([[3.0, 1.0], [1.0, 4.0], [2.0, 2.0], [5.0, 0.0]] * 3), 1.0)  # warm-up
    group_values(np.array([[3.0, 1, 0], [1, 4, 2], [2, 2, 2], [5, 0, 1]] * 3), 1.0)
    log()
    log(
        f"1. one variable of 1000 values x 50000 rows (goal <= {GOAL_VARIABLE_S} s); "
        f"load {os.getloadavg()[0]:.1f}"
    )
    rows = []
    for n_classes in (2, 4):
        x, y = synthetic_variable(n_classes)
        rows.append(compare_variable(f"synthetic J={n_classes}", x, y, args.repeats, log))
        if args.profile:
            log(f"  profile of the compiled path (J={n_classes}):")
            profile_compiled(x, y, log)
    log()
    log(f"2. adult's nominal columns; load {os.getloadavg()[0]:.1f}")
    X, y = load("adult")
    adult = []
    for col in X.columns:
        if not (X[col].dtype == object or str(X[col].dtype) == "category"):
            continue
        x = X[col].astype(object).where(X[col].notna(), None).to_numpy()
        adult.append(compare_variable(f"adult.{col}", x, y, args.repeats, log))
    tot = {
        k: sum(r[k] for r in adult)
        for k in ("group_values numba cpu s", "group_values python cpu s",
                  "MODLGrouper numba cpu s", "MODLGrouper python cpu s")
    }  # fmt: skip
    log(
        f"  total: group_values cpu numba {tot['group_values numba cpu s']:.3f} s / python "
        f"{tot['group_values python cpu s']:.3f} s = "
        f"{tot['group_values numba cpu s'] / tot['group_values python cpu s']:.3f}; "
        f"MODLGrouper.fit cpu numba {tot['MODLGrouper numba cpu s']:.3f} s / python "
        f"{tot['MODLGrouper python cpu s']:.3f} s; all identical: "
        f"{all(r['identical'] for r in adult)}"
    )
    log()
    log(
        f"3. fnb_khiops (n_jobs=1) vs Khiops 11, full data, one fit per fresh process "
        f"(goal: ours <= {GOAL_RATIO} x Khiops CPU)"
    )
    names = ["adult"] + (["census_income_kdd"] if args.census else [])
    for name in names:
        res = {}
        for method in ("fnb_khiops:numba", "fnb_khiops:python", "khiops"):
            r = res[method] = run_worker(method, name)
            log(
                f"  {name:<18s} {r['N']:>6d}x{r['K']:<3d} {method:<18s} wall {r['wall s']:7.2f} s"
                f"  cpu {r['cpu s']:7.2f} s  peak RSS {r['peak RSS GB']:.2f} GB  selected "
                f"{r['n_selected']:>3d}  load {r['load avg']:.1f}"
            )
        kh = res["khiops"]["cpu s"]
        new, old = res["fnb_khiops:numba"]["cpu s"], res["fnb_khiops:python"]["cpu s"]
        log(
            f"  {name}: CPU ours/Khiops {new / kh:.3f} (Python grouping: {old / kh:.3f}); "
            f"ours/old Python {new / old:.3f}; wall ours/Khiops "
            f"{res['fnb_khiops:numba']['wall s'] / res['khiops']['wall s']:.3f}"
        )
    if args.profile:
        log()
        log(
            f"4. where the CPU of fnb_khiops goes on adult (cProfile); "
            f"load {os.getloadavg()[0]:.1f}"
        )
        profile_fnb("adult", log)
    log()
    log(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
