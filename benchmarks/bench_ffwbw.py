"""MS(FFWBW) time and memory vs the number of variables K (boulle2007 §3.5).

    python benchmarks/bench_ffwbw.py [--sizes 1000 10000 100000] [--n 4000] [--no-record]

Data: waveform (N = 4000) with K constructed F(2D) features (random sums of two of the 21
waveform features, :class:`repro.datasets.construction.FeatureConstruction`), generated block by
block. What is timed is the search, on the packed training data of the candidates
(:class:`repro.methods.core.engine.EncodedData`): ⌊log2(K·N)⌋ starts, MaxIter 5, recording every
evaluated model (as SNB(BMA)/SNB(CMA) do) and then computing the CMA weights. The univariate
tables are 10-bin equal-frequency partitions with the m-estimate (every variable a candidate,
the worst case of the search); the MODL preprocessing is benchmarked in ``bench_modl.py``.

Each K runs in a fresh subprocess so that its peak memory (``ru_maxrss``, and the tracemalloc
peak of the search alone) is its own. The growth exponent is the slope of log(time) against
log(K) (goal ≤ 1.15: O(K·N·log(K·N)) predicts ≈ 1.06 from K = 10³ to 10⁵).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc

import numpy as np


def build_data(n_variables: int, n_instances: int, block: int = 2000):
    from repro.datasets.construction import FeatureConstruction
    from repro.datasets.generators import waveform
    from repro.methods.core.engine import EncodedData
    from repro.preprocessing.tables import m_estimate_log_table

    X, y = waveform(n_samples=n_instances, seed=0)
    X = X.to_numpy()
    fc = FeatureConstruction(n_features=n_variables, order=2, random_state=0).fit(X)
    n_classes = 3
    codes = np.empty((n_variables, n_instances), dtype=np.uint8)
    tables = np.empty((n_variables, 11, n_classes))
    tables[:, 10] = 0.0
    for start in range(0, n_variables, block):
        stop = min(start + block, n_variables)
        cols = X[:, fc.operands_[start:stop, 0]] + X[:, fc.operands_[start:stop, 1]]
        cuts = np.quantile(cols, np.linspace(0.1, 0.9, 9), axis=0)  # (9, B)
        c = (cols[None, :, :] > cuts[:, None, :]).sum(axis=0)  # (N, B)
        codes[start:stop] = c.T
        flat = (c * n_classes + y[:, None]).T  # (B, N)
        for b in range(stop - start):
            counts = np.bincount(flat[b], minlength=10 * n_classes).reshape(10, n_classes)
            tables[start + b, :10] = m_estimate_log_table(counts, n_instances)
    log_prior = np.log(np.bincount(y, minlength=n_classes) / n_instances)
    offsets = np.arange(n_variables, dtype=np.int64) * 11
    return EncodedData(
        codes,
        offsets,
        tables.reshape(-1, n_classes),
        y.astype(np.int64),
        log_prior,
        np.arange(n_variables, dtype=np.int64),
    )


def run_one(n_variables: int, n_instances: int, record: bool) -> dict:
    from repro.methods.boulle2007.averaging import cma_weights
    from repro.methods.boulle2007.search import ms_ffwbw
    from repro.methods.core.engine import ScoreEngine

    warm = build_data(50, 200)  # compile the kernels outside the timing
    cma_weights(ms_ffwbw(ScoreEngine(warm), 50, n_starts=1, record=True))
    t0 = time.perf_counter()
    data = build_data(n_variables, n_instances)
    build_time = time.perf_counter() - t0
    tracemalloc.start()
    t0 = time.perf_counter()
    engine = ScoreEngine(data)
    result = ms_ffwbw(engine, n_variables, random_state=0, record=record)
    search_time = time.perf_counter() - t0
    weights = cma_weights(result) if record else None
    total_time = time.perf_counter() - t0
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "K": n_variables,
        "N": n_instances,
        "build_s": build_time,
        "search_s": search_time,
        "search_and_cma_s": total_time,
        "n_starts": result.info["n_starts"],
        "iterations": result.info["iterations"],
        "n_evaluations": result.info["n_evaluations"],
        "n_selected_map": int(result.selected.size),
        "cma_weight_sum": None if weights is None else float(weights.sum()),
        "us_per_evaluation": 1e6 * search_time / result.info["n_evaluations"],
        "traced_peak_mb": traced_peak / 2**20,
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "data_mb": (data.codes.nbytes + 3 * data.table.nbytes) / 2**20,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.n, not args.no_record)))
        return
    rows = []
    for k in args.sizes:
        cmd = [sys.executable, __file__, "--one", str(k), "--n", str(args.n)]
        if args.no_record:
            cmd.append("--no-record")
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        rows.append(row)
        print(
            f"K={row['K']:>7}  search {row['search_s']:8.2f} s"
            f"  (+CMA {row['search_and_cma_s']:8.2f} s)"
            f"  starts {row['n_starts']}  evals {row['n_evaluations']:>9}"
            f"  {row['us_per_evaluation']:.1f} µs/eval  MAP |S|={row['n_selected_map']}"
            f"  traced peak {row['traced_peak_mb']:.0f} MB  maxrss {row['maxrss_mb']:.0f} MB",
            flush=True,
        )
    if len(rows) > 1:
        k = np.log([r["K"] for r in rows])
        for key in ("search_s", "search_and_cma_s"):
            slope = np.polyfit(k, np.log([r[key] for r in rows]), 1)[0]
            print(f"growth exponent of {key} in K: {slope:.3f}")
        per_eval = np.log([r["search_s"] / r["n_evaluations"] for r in rows])
        print(f"growth exponent of time per evaluation: {np.polyfit(k, per_eval, 1)[0]:.3f}")


if __name__ == "__main__":
    main()
