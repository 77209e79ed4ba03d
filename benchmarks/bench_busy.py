"""``snb_cma`` with ``n_jobs=2`` against ``n_jobs=1`` on a busy machine (issue 29).

Run as a script (one command; writes ``results/benchmarks/bench_busy.txt``):

    python benchmarks/bench_busy.py [--repeats 5] [--n-constructed 300] [--env NAME=VALUE ...]
        [--append]

Data: the first 4000 rows of waveform plus ``FeatureConstruction(n_features=300,
random_state=0)`` (sums of two original attributes): 4000 × 321. Each fit of ``snb_cma`` (the
MODL preparation on numba's threads, then MS(FFWBW) + CMA, whose passes run many short parallel
regions) runs in a fresh process after a warm-up fit on iris, and reports wall and CPU seconds,
the stages, and the numba threads the search used.

Two conditions, ``n_jobs`` 1 and 2 alternating, ``--repeats`` fits each (medians reported):

- quiet: nothing started by the script beside the fits;
- busy: beside as many CPU-bound processes as this process may use cores
  (``len(os.sched_getaffinity(0))`` children running ``while True: pass``), started by the script
  at its own niceness, the niceness of the fits, and stopped at the end.

Other jobs may share the machine (a niced experiment, test suites): the load average is printed
with every fit. The headline is the busy ratio ``n_jobs=2 / n_jobs=1`` of the median wall times
(goal ≤ 1.3); the quiet ratio shows the speed-up kept (where the others' CPU is near 0: a
process at the fits' niceness running beside "quiet" fits makes them busy ones). ``--env`` sets
environment variables of the fits (e.g. ``REPRO_LOAD_POLICY=off``, ``OMP_WAIT_POLICY=PASSIVE``)
to compare with the package's defaults; the log says which were set, and such a run's headline
names them (the dashboard reads the last run with the defaults). ``--append`` adds to the log.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_scale import Log, waveform_f2d  # (benchmarks/: the script's own directory)

OUT = Path(__file__).resolve().parents[1] / "results" / "benchmarks" / "bench_busy.txt"
N_ROWS = 4000
GOAL = 1.3


def worker(n_constructed: int, n_jobs: int) -> dict:
    import numba

    from repro import make_method
    from repro.datasets import load_dataset

    iris = load_dataset("iris")
    make_method("snb_cma", n_jobs=n_jobs).fit(iris.X, iris.y)  # warm-up: kernels, threads
    X, y = waveform_f2d(N_ROWS, n_constructed)
    load = os.getloadavg()[0]
    busy = busy_cpu()
    wall, cpu = time.perf_counter(), time.process_time()
    model = make_method("snb_cma", n_jobs=n_jobs).fit(X, y)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    others = (busy_cpu() - busy - cpu) / wall
    report = model.fit_report_
    return {
        "shape": list(X.shape),
        "n_jobs": n_jobs,
        "wall s": wall,
        "cpu s": cpu,
        "prep s": report["preparation_time"],
        "search s": report.get("search_time", float("nan")),
        "weights s": report["weighting_time"],
        "threads": report.get("search_threads", float("nan")),
        "layer": numba.threading_layer(),
        "load": load,
        "others": others,
        "weights": [float(w) for w in model.weights_],
    }


def busy_cpu() -> float:
    """CPU seconds spent so far on the allowed cores, outside idle, I/O wait and niced tasks."""
    import psutil

    per_cpu = psutil.cpu_times(percpu=True)
    cpus = [per_cpu[c] for c in os.sched_getaffinity(0) if c < len(per_cpu)]
    return sum(t.user + t.system + t.irq + t.softirq + t.steal for t in cpus)


def start_load(n: int) -> list[subprocess.Popen]:
    """``n`` CPU-bound processes at this process's niceness (children inherit it)."""
    code = "while True: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=2, type=int, metavar=("K", "NJOBS"))
    parser.add_argument("--n-constructed", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--env", nargs="*", default=[], metavar="NAME=VALUE")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--append", action="store_true", help="add to the log, do not restart it")
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return
    env = dict(os.environ, **dict(item.split("=", 1) for item in args.env))
    cores = len(os.sched_getaffinity(0))
    log = Log(args.out, append=args.append)
    if not args.append:
        log("# bench_busy: snb_cma, n_jobs=2 vs n_jobs=1, quiet and beside a CPU-bound load\n")
    log(
        f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {cores} cores this process may use "
        f"({os.cpu_count()} on the machine), niceness {os.nice(0)}, load average "
        f"{os.getloadavg()[0]:.1f} at the start (other jobs share the machine)"
    )
    log(f"fit environment set here: {' '.join(args.env) or 'none (the package defaults)'}")
    log(
        f"busy = beside {cores} processes `{sys.executable} -c 'while True: pass'` at the "
        f"fits' niceness ({os.nice(0)}); {args.repeats} fits per cell, n_jobs alternating, "
        "each in a fresh process\n"
    )
    walls, same = {}, []
    for condition in ("quiet", "busy"):
        load = start_load(cores) if condition == "busy" else []
        try:
            time.sleep(1.0 if load else 0.0)
            for _ in range(args.repeats):
                weights = {}
                for n_jobs in (1, 2):
                    res = subprocess.run(
                        [sys.executable, __file__, "--worker", str(args.n_constructed),
                         str(n_jobs)],
                        check=True, capture_output=True, text=True, env=env,
                    )  # fmt: skip
                    r = json.loads(res.stdout.strip().splitlines()[-1])
                    walls.setdefault((condition, n_jobs), []).append(r)
                    weights[n_jobs] = r["weights"]
                    log(
                        f"{condition:5s} {r['shape'][0]}x{r['shape'][1]} n_jobs={n_jobs}: "
                        f"wall {r['wall s']:6.2f} s, CPU {r['cpu s']:6.2f} s; preparation "
                        f"{r['prep s']:5.2f} s, search {r['search s']:5.2f} s on "
                        f"{r['threads']:.2f} threads (mean of the passes); others' CPU "
                        f"{r['others']:.2f} cores; load {r['load']:.1f}; {r['layer']} layer"
                    )
                same.append(weights[1] == weights[2])
        finally:
            for p in load:
                p.kill()
                p.wait()
    log("")
    ratios = {}
    for condition in ("quiet", "busy"):
        others = statistics.median(r["others"] for n in (1, 2) for r in walls[(condition, n)])
        med = {
            n: (
                statistics.median(r["wall s"] for r in walls[(condition, n)]),
                statistics.median(r["cpu s"] for r in walls[(condition, n)]),
            )
            for n in (1, 2)
        }
        ratios[condition] = med[2][0] / med[1][0]
        log(
            f"{condition:5s} medians: n_jobs=1 wall {med[1][0]:.2f} s / CPU {med[1][1]:.2f} s, "
            f"n_jobs=2 wall {med[2][0]:.2f} s / CPU {med[2][1]:.2f} s; others' CPU "
            f"{others:.2f} cores"
        )
    shape = "x".join(map(str, walls[("busy", 1)][0]["shape"]))
    if args.env:  # not the package's defaults: the headline says so (the dashboard skips it)
        shape += f" ({' '.join(args.env)})"
    log(f"n_jobs=2 weights identical to n_jobs=1: {all(same)}")
    log(
        f"quiet machine, snb_cma {shape}: n_jobs=2 / n_jobs=1 wall {ratios['quiet']:.2f} "
        "(below 1: the speed-up of the second thread)"
    )
    log(
        f"busy machine, snb_cma {shape}: n_jobs=2 / n_jobs=1 wall {ratios['busy']:.2f} "
        f"(goal <= {GOAL})"
    )
    log(f"\nfinished {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
