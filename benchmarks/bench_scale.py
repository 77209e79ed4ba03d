"""``fnb_khiops`` against Khiops 11 at the two shapes of issue 16, side by side in one run.

Run as a script (one command; writes ``results/benchmarks/bench_scale.txt``):

    python benchmarks/bench_scale.py [--shapes a b] [--n-constructed 10000] [--repeats 1]

Shapes:

- (a) ``waveform_noise`` 20000 × 1000 (21 waveform + 979 noise attributes), fitted on the 70 %
  stratified training split (14000 × 1000), as ``bench_modl.py --large``;
- (b) waveform 5000 + 10k F(2D) (``FeatureConstruction(n_features=10000, random_state=0)``, sums of
  two original attributes, boulle2007 §8.2), fitted on all 5000 rows (10021 columns), as
  ``bench_hue2024.py``.

For each shape: ``fnb_khiops`` with ``n_jobs=1`` and ``n_jobs=2`` and Khiops
(:class:`repro.methods.khiops.peer.KhiopsPeerClassifier`, i.e. ``KhiopsClassifier(n_trees=0,
n_pairs=0)`` on the same encoded data), each fit in a fresh process after a warm-up fit (numba
kernels loaded, the worker processes of ``n_jobs=2`` started). Every fit reports wall and CPU
seconds: for ours the process's CPU plus that of its worker processes (psutil), split into
preparation (the MODL models) and weights (the FNB optimisation); for Khiops the CPU of the
Khiops processes (``RUSAGE_CHILDREN``: ``mpiexec`` and its ranks) plus that of the Python wrapper
(the data written to a file, the model read back). ``cores`` = CPU / wall shows how many cores a
fit used; the load average of the machine is printed with each row, because other jobs share
the two cores. The ratio ours/Khiops is given on CPU (against Khiops with its wrapper, and
against the Khiops processes alone) and on wall time; the preparation's CPU is also given against
the sorting floor of the same table (one stable argsort per column, :func:`argsort_floor`), per
core for ``n_jobs=2`` (the goal of issue 16: within 4x); the last section profiles the serial
preparation of shape (a) in CPU seconds (where the remaining time goes). ``--shapes a`` runs (a)
only (about 5 min; (b) takes about 15 min on two busy cores).
"""

from __future__ import annotations

import argparse
import cProfile
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

OUT = Path(__file__).resolve().parents[1] / "results" / "benchmarks" / "bench_scale.txt"
GOAL = 0.25
GOAL_FLOOR = 4.0


# ---------------------------------------------------------------------------------------------
# workers (one fit per process)
# ---------------------------------------------------------------------------------------------
def load_shape(shape: str, n_constructed: int):
    if shape == "a":
        from sklearn.model_selection import train_test_split

        from repro.datasets.generators import waveform_noise

        X, y = waveform_noise(n_samples=20000, n_noise=979, seed=0)
        X, _, y, _ = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        return X, np.asarray(y)
    return waveform_f2d(5000, n_constructed)


def waveform_f2d(n_rows: int, n_constructed: int):
    """(X, y): the first ``n_rows`` rows of waveform plus ``FeatureConstruction(n_features=
    n_constructed, random_state=0)`` (float32 sums of two original attributes, boulle2007 §8.2;
    the 21 originals stay float64)."""
    import pandas as pd

    from repro.datasets import load_dataset
    from repro.datasets.construction import FeatureConstruction

    ds = load_dataset("waveform")
    X = pd.DataFrame(ds.X).iloc[:n_rows]
    y = np.asarray(ds.y)[:n_rows]
    return FeatureConstruction(n_features=n_constructed, random_state=0).fit_transform(X), y


def argsort_floor(X) -> float:
    """CPU seconds of one stable argsort per column (float64 copy of blocks of columns): the
    least any discretization of every variable must do, the peer of the MODL preparation."""
    import pandas as pd

    X = pd.DataFrame(X)
    start = time.process_time()
    for b0 in range(0, X.shape[1], 256):
        block = X.iloc[:, b0 : b0 + 256].to_numpy(dtype=np.float64).T.copy()
        for row in block:
            np.argsort(row, kind="stable")
    return time.process_time() - start


def children_cpu() -> float:
    """CPU seconds of the live child processes (the joblib/loky workers)."""
    import psutil

    total = 0.0
    for p in psutil.Process().children(recursive=True):
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def waited_children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def worker(method: str, shape: str, n_constructed: int, n_jobs: int) -> dict:
    from sklearn.datasets import load_iris

    X, y = load_shape(shape, n_constructed)
    Xi, yi = load_iris(return_X_y=True)
    if method == "khiops":
        from repro.methods.khiops.peer import KhiopsPeerClassifier

        make = KhiopsPeerClassifier
    else:
        from repro.methods.khiops.fnb_khiops import KhiopsFractionalNaiveBayes

        def make():
            return KhiopsFractionalNaiveBayes(n_jobs=n_jobs)

    make().fit(np.tile(Xi, (1, 4)), yi)  # warm-up: numba kernels, worker processes, Khiops
    load0 = os.getloadavg()[0]
    c_live, c_waited = children_cpu(), waited_children_cpu()
    wall, cpu = time.perf_counter(), time.process_time()
    model = make().fit(X, y)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    workers = children_cpu() - c_live
    waited = waited_children_cpu() - c_waited
    row = {
        "method": "Khiops 11" if method == "khiops" else f"fnb_khiops n_jobs={n_jobs}",
        "shape": shape,
        "N": int(X.shape[0]),
        "K": int(X.shape[1]),
        "wall s": wall,
        "cpu s": cpu + workers + waited,
        "main cpu s": cpu,
        "child cpu s": workers + waited,
        "n_selected": int(model.n_selected_features_),
        "load avg": load0,
        "peak RSS GB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
        "weights": [float(w) for w in model.weights_],
    }
    if method != "khiops":
        r = model.fit_report_
        row.update(
            {
                "prep wall s": r["preparation_time"],
                "prep cpu s": model.fit_cpu_["preparation"],
                "weights wall s": r["weighting_time"],
                "weights cpu s": model.fit_cpu_["weighting"],
                "criterion": float(model.criterion_),
                "argsort floor s": argsort_floor(X),
            }
        )
    return row


def profile_preparation(shape: str, n_constructed: int, top: int = 18) -> str:
    """cProfile of one serial fnb_khiops fit: the stages of the preparation and the functions
    with the most own time, in CPU seconds."""
    from repro.methods.khiops.fnb_khiops import KhiopsFractionalNaiveBayes

    X, y = load_shape(shape, n_constructed)
    KhiopsFractionalNaiveBayes().fit(
        X[:300] if isinstance(X, np.ndarray) else X.iloc[:300], y[:300]
    )
    pr = cProfile.Profile(time.process_time)  # CPU seconds: other jobs share the machine
    pr.enable()
    model = KhiopsFractionalNaiveBayes().fit(X, y)
    pr.disable()
    r, c = model.fit_report_, model.fit_cpu_
    stats = pstats.Stats(pr)
    stages = {
        ("core/base.py", "fit_variable_models"): "preparation: every variable model (MODL + table)",
        ("modl/batch.py", "_fit_khiops"): "  numeric variables, compiled, per block (_fit_khiops)",
        (
            "modl/kernels.py",
            "discretize_khiops_block_serial",
        ): "    the kernel: read, sort, granularities, greedy (discretize_khiops_block_serial)",
        (
            "modl/estimators.py",
            "set_intervals_khiops",
        ): "    costs, levels, human-readable bounds (set_intervals_khiops)",
        ("modl/estimators.py", "fit"): "  MODL discretizer/grouper fits one by one (others)",
        ("variables.py", "codes"): "  part codes of the training values (PartitionModel.codes)",
        ("fnb_khiops.py", "_optimise"): "weights: FNB optimisation incl. encoding (_optimise)",
        ("core/optimisers.py", "halving_coordinate_descent"): "  coordinate descent alone",
    }
    found = dict.fromkeys(stages, 0.0)
    for (file, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():
        for key in stages:
            if file.endswith(key[0]) and name == key[1]:
                found[key] = max(found[key], ct)  # nested fits: the outer one
    lines = [
        f"preparation {r['preparation_time']:.2f} s wall / {c['preparation']:.2f} s CPU, "
        f"weights {r['weighting_time']:.2f} s wall / {c['weighting']:.2f} s CPU (one serial fit"
        ", under the profiler; the times below are CPU seconds)",
    ]
    lines += [
        f"  {label:<60s} {found[key]:8.2f} s CPU (cumulative)" for key, label in stages.items()
    ]
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(top)
    text = s.getvalue()
    body = text[text.find("ncalls") :] if "ncalls" in text else text
    return "\n".join(lines) + "\n\nfunctions with the most own CPU time (tottime):\n" + body


# ---------------------------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------------------------
def run(*args) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", *map(str, args)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


class Log:
    """Print each line and write it to the log ``path`` (restarted, or added to: ``append``)."""

    def __init__(self, path: Path, append: bool = False):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open("a" if append else "w")

    def __call__(self, text: str = "") -> None:
        print(text, flush=True)
        self.file.write(text + "\n")
        self.file.flush()


def fmt_row(r: dict) -> str:
    cores = r["cpu s"] / r["wall s"] if r["wall s"] else float("nan")
    text = (
        f"{r['method']:<20s} wall {r['wall s']:8.2f} s  CPU {r['cpu s']:8.2f} s "
        f"(main {r['main cpu s']:7.2f}, children {r['child cpu s']:7.2f})  cores {cores:4.2f}  "
        f"selected {r['n_selected']:4d}  peak RSS {r['peak RSS GB']:.2f} GB  "
        f"load {r['load avg']:.1f}"
    )
    if "prep wall s" in r:
        text += (
            f"\n{'':<20s} preparation {r['prep wall s']:8.2f} s wall / "
            f"{r['prep cpu s']:8.2f} s CPU; weights {r['weights wall s']:7.2f} s wall / "
            f"{r['weights cpu s']:7.2f} s CPU"
        )
    return text


def shape_section(log: Log, shape: str, n_constructed: int, repeats: int) -> dict:
    title = {
        "a": "(a) waveform_noise 20000 x 1000, fitted on the 70 % training split",
        "b": f"(b) waveform 5000 + {n_constructed} F(2D)",
    }[shape]
    log(f"## {title}\n")
    rows = {"serial": [], "parallel": [], "khiops": []}
    for rep in range(repeats):  # interleaved, so that a change of the load hits all three
        for key, method, n_jobs in (
            ("serial", "fnb", 1),
            ("khiops", "khiops", 1),
            ("parallel", "fnb", 2),
        ):
            r = run(method, shape, n_constructed, n_jobs)
            rows[key].append(r)
            log(f"[{rep + 1}/{repeats}] {fmt_row(r)}")
    best = {k: min(v, key=lambda r: r["cpu s"]) for k, v in rows.items()}
    s, p, k = best["serial"], best["parallel"], best["khiops"]
    same = s["weights"] == p["weights"] and s["criterion"] == p["criterion"]
    agree = np.array_equal(np.asarray(s["weights"]) > 0, np.asarray(k["weights"]) > 0)
    same_khiops = np.allclose(s["weights"], k["weights"], rtol=0, atol=1e-9)
    log("")
    log(f"n_jobs=2 weights and criterion identical to n_jobs=1: {same}")
    log(f"selected variables identical to Khiops': {agree}; weights equal to 1e-9: {same_khiops}")
    log(
        "n_jobs=2 vs n_jobs=1: preparation wall "
        f"{s['prep wall s']:.2f} -> {p['prep wall s']:.2f} s (speed-up "
        f"{s['prep wall s'] / p['prep wall s']:.2f}x), fit wall {s['wall s']:.2f} -> "
        f"{p['wall s']:.2f} s ({s['wall s'] / p['wall s']:.2f}x); preparation CPU "
        f"{s['prep cpu s']:.2f} -> {p['prep cpu s']:.2f} s"
    )
    kb = k["child cpu s"]  # the Khiops processes alone, without the Python wrapper
    log(
        f"Khiops CPU: {k['cpu s']:.2f} s = Khiops processes {kb:.2f} s + Python wrapper "
        f"(khiops.sklearn: data frame to file, model read back) {k['main cpu s']:.2f} s"
    )
    for r in (s, p):
        log(
            f"{r['method']}: ours/Khiops CPU {r['cpu s'] / k['cpu s']:.3f} (vs the Khiops "
            f"processes alone {r['cpu s'] / kb:.3f}), wall {r['wall s'] / k['wall s']:.3f}; goal "
            f"CPU <= {GOAL}. Of Khiops' CPU: preparation {r['prep cpu s'] / k['cpu s']:.3f} + "
            f"weights {r['weights cpu s'] / k['cpu s']:.3f} (vs the processes alone: "
            f"{r['prep cpu s'] / kb:.3f} + {r['weights cpu s'] / kb:.3f})"
        )
    for r, n_jobs in ((s, 1), (p, 2)):
        ratio = r["prep cpu s"] / r["argsort floor s"]
        log(
            f"{r['method']}: preparation CPU / sorting floor (one stable argsort per column, "
            f"{r['argsort floor s']:.2f} s CPU) = {ratio:.1f} serial, {ratio / n_jobs:.1f} per "
            f"core (goal <= {GOAL_FLOOR})"
        )
    log("")
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=4, metavar=("METHOD", "SHAPE", "NC", "NJOBS"))
    parser.add_argument("--profile-worker", nargs=2, metavar=("SHAPE", "NC"))
    parser.add_argument("--shapes", nargs="+", default=["a", "b"], choices=["a", "b"])
    parser.add_argument("--n-constructed", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.worker:
        method, shape, nc, n_jobs = args.worker
        print(json.dumps(worker(method, shape, int(nc), int(n_jobs))))
        return
    if args.profile_worker:
        print(profile_preparation(args.profile_worker[0], int(args.profile_worker[1])))
        return
    log = Log(args.out)
    log("# bench_scale: fnb_khiops vs Khiops 11 (issue 16)\n")
    log(
        f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the start (other jobs share the machine: CPU times are the "
        "stable measure)\n"
    )
    for shape in args.shapes:
        shape_section(log, shape, args.n_constructed, args.repeats)
    if not args.no_profile:
        log("## Where the serial fit time goes, shape (a) (cProfile, one fit)\n")
        out = subprocess.run(
            [sys.executable, __file__, "--profile-worker", "a", str(args.n_constructed)],
            check=True,
            capture_output=True,
            text=True,
        )
        log(out.stdout.rstrip())
    log(f"\nfinished {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
