"""``snb_cma`` at the challenge sizes of boulle2007 (issue 16): waveform 4000 + K F(2D).

Run as a script (one command; writes ``results/benchmarks/bench_snb_scale.txt``):

    python benchmarks/bench_snb_scale.py [--sizes 10000 100000] [--n-jobs 1 2] [--append]

For each K, one fit of ``snb_cma`` (MS(FFWBW) + CMA on the MODL preparation, boulle2007 §3–4) on
the first 4000 rows of waveform plus ``FeatureConstruction(n_features=K, random_state=0)`` (float32
sums of two original attributes; the 21 originals stay float64), in a fresh process per fit. It
reports wall and CPU seconds (CPU of the worker processes of ``n_jobs=2`` included), the stages
(preparation: encoding + the MODL model of every variable; search: MS(FFWBW); averaging: CMA),
and the process's peak RSS (``ru_maxrss``) against two peers measured in the same process: the
input's own size in memory, and the sorting floor — one stable argsort of every column (the
least any discretization of every variable must do) — against which the preparation's CPU is
given per core. The goals of issue 16 are printed beside: ≤ 4 min wall and ≤ 4 GB peak RSS at
K = 100k on 2 cores, preparation within 4× the floor per core.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from bench_scale import (  # (benchmarks/: the script's own directory)
    Log,
    argsort_floor,
    children_cpu,
    waveform_f2d,
)

OUT = Path(__file__).resolve().parents[1] / "results" / "benchmarks" / "bench_snb_scale.txt"
N_ROWS = 4000
GOAL_WALL_S, GOAL_RSS_GB, GOAL_FLOOR = 240.0, 4.0, 4.0


def worker(n_constructed: int, n_jobs: int) -> dict:

    from repro import make_method
    from repro.datasets import load_dataset

    iris = load_dataset("iris")
    make_method("snb_cma", n_jobs=n_jobs).fit(iris.X, iris.y)  # warm-up: kernels, workers
    start = time.perf_counter()
    X, y = waveform_f2d(N_ROWS, n_constructed)
    construct_s = time.perf_counter() - start
    input_gb = X.memory_usage(index=False).sum() / 2**30
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    load = os.getloadavg()[0]
    c0, wall, cpu = children_cpu(), time.perf_counter(), time.process_time()
    model = make_method("snb_cma", n_jobs=n_jobs).fit(X, y)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    workers = children_cpu() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    report = model.fit_report_
    floor = argsort_floor(X)
    return {
        "K": int(X.shape[1]),
        "n_jobs": n_jobs,
        "construct s": construct_s,
        "input GB": float(input_gb),
        "RSS before fit GB": rss_before,
        "peak RSS GB": peak,
        "wall s": wall,
        "cpu s": cpu + workers,
        "prep wall s": report["preparation_time"],
        "prep cpu s": model.fit_cpu_["preparation"],
        "search s": report.get("search_time", float("nan")),
        "weights wall s": report["weighting_time"],
        "argsort floor s": floor,
        "n_selected": int(model.n_selected_features_),
        "load": load,
        "weights": [float(w) for w in model.weights_],
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=2, type=int, metavar=("K", "NJOBS"))
    parser.add_argument("--sizes", nargs="+", type=int, default=[10_000, 100_000])
    parser.add_argument("--n-jobs", nargs="+", type=int, default=[2])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--append", action="store_true", help="add to the log, do not restart it")
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return
    log = Log(args.out, append=args.append)
    if not args.append:
        log("# bench_snb_scale: snb_cma on waveform 4000 + K F(2D) (issue 16)\n")
    log(
        f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the start (other jobs share the machine)\n"
    )
    rows = {}
    for k in args.sizes:
        for n_jobs in args.n_jobs:
            res = subprocess.run(
                [sys.executable, __file__, "--worker", str(k), str(n_jobs)],
                check=True,
                capture_output=True,
                text=True,
            )
            r = json.loads(res.stdout.strip().splitlines()[-1])
            rows[(k, n_jobs)] = r
            log(
                f"K={r['K']:>6d} n_jobs={n_jobs}: fit wall {r['wall s']:7.1f} s, CPU "
                f"{r['cpu s']:7.1f} s (cores {r['cpu s'] / r['wall s']:.2f}); preparation "
                f"{r['prep wall s']:6.1f} s wall / {r['prep cpu s']:6.1f} s CPU, search "
                f"{r['search s']:6.1f} s, weights stage {r['weights wall s']:6.1f} s; "
                f"selected {r['n_selected']}; load {r['load']:.1f}"
            )
            log(
                f"{'':16s} memory: input {r['input GB']:.2f} GB, RSS before the fit "
                f"{r['RSS before fit GB']:.2f} GB, peak {r['peak RSS GB']:.2f} GB "
                f"({r['peak RSS GB'] / r['input GB']:.2f}x the input; goal at 100k "
                f"<= {GOAL_RSS_GB} GB)"
            )
            log(
                f"{'':16s} sorting floor (one stable argsort per column) "
                f"{r['argsort floor s']:.1f} s CPU: preparation CPU per core / floor = "
                f"{r['prep cpu s'] / r['argsort floor s']:.1f} serial, "
                f"{r['prep cpu s'] / n_jobs / r['argsort floor s']:.1f} per core "
                f"(goal <= {GOAL_FLOOR}); wall goal at 100k <= {GOAL_WALL_S:.0f} s"
            )
    same = [
        rows[(k, 1)]["weights"] == rows[(k, 2)]["weights"]
        for k in args.sizes
        if (k, 1) in rows and (k, 2) in rows
    ]
    if same:
        log(f"\nn_jobs=2 weights identical to n_jobs=1: {all(same)}")
    log(f"\nfinished {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
