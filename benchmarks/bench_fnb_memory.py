"""Memory (and time) of the FNB weight optimisations on up to 100k constructed features (issue 13).

    python benchmarks/bench_fnb_memory.py [--n 1000] [--sizes 1000 3000 100000]
                                          [--khiops-sizes 1000 3000 10000] [--khiops-trace-max 1000]
                                          [--rows FILE] (report of saved rows)

"``fnb`` and ``fnb_khiops`` on 100k constructed features must stay within the memory of the
engine (no N×K×J)". Data: waveform (N instances, J = 3) with K constructed F(2D) features (sums of
two random waveform features, :class:`repro.datasets.construction.FeatureConstruction`), each cut
at its terciles into 3 parts, with Khiops' tables log((n_ij + ε)/(N_j + 3ε)), ε = 1/(N+1)
(:func:`repro.methods.khiops.prepared.khiops_log_table`), packed as the estimators pack them
(:class:`repro.methods.core.engine.EncodedData`); costs B_k = ln K + 2 ln N (about the MODL cost of
two
cut points). What is measured is the weight optimisation alone, on that data:

- ``fnb``: :func:`repro.methods.hue2024.fnb.paper_fnb_weights` (hue2024 Algorithm 2 on the
  score engine, λ = 0.25, p = 0.95, seed 0);
- ``fnb_khiops``: its objective :class:`repro.methods.khiops.fnb_khiops.KhiopsFNBObjective` with
  :func:`repro.methods.core.optimisers.halving_coordinate_descent` (λ = 0.1, α = 0.95, Park–Miller
  shuffle), as ``KhiopsFractionalNaiveBayes._optimise`` runs them. Each of its trials re-sums the
  prior over the K weights (O(K) Python) and builds a new N × J score matrix: O(K²) per pass, so
  it is run at the ``--khiops-sizes`` only and its time at the largest K extrapolated (with the
  exponent measured between the two largest sizes, and with 2: O(K) trials of O(K) each).

Every (method, K, traced) runs in a fresh subprocess: ``maxrss`` is that process's peak resident
set (``resource.getrusage``: imports, the data and the optimisation), ``+rss`` its rise during the
optimisation; ``traced`` is the tracemalloc peak of the optimisation alone (Python and NumPy
allocations, the data built before the trace starts; numba kernels loaded before), in a separate
run (tracemalloc slows allocation-heavy Python several-fold: its times are not reported; for
``fnb_khiops`` only up to ``--khiops-trace-max``). The data are built by blocks of 500 features
so that building them peaks lower than the optimisation (else ``+rss`` would read 0). The
engine size is that of the arrays the engine works on: codes (K × N, uint8) + the packed tables
(rows × J, float64) + S and Q (2 × N × J float64); ``N×K×J`` is the size of the dense array that
must never be built. Ratios: traced / engine, rise of RSS / engine.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import resource
import subprocess
import sys
import time
import tracemalloc

import numpy as np

LAMBDA_PAPER, LAMBDA_KHIOPS, EXPONENT = 0.25, 0.1, 0.95


def constructed_data(n_variables: int, n_instances: int, block: int = 500):
    """EncodedData of ``n_variables`` F(2D) waveform features cut at their terciles, and B_k."""
    from repro.datasets.construction import FeatureConstruction
    from repro.datasets.generators import waveform
    from repro.methods.core.engine import EncodedData
    from repro.methods.khiops.prepared import khiops_log_table

    X, y = waveform(n_samples=n_instances, seed=0)
    X, y = X.to_numpy(), np.asarray(y, dtype=np.int64)
    n_classes = 3
    pairs = FeatureConstruction(n_features=n_variables, order=2, random_state=0).fit(X).operands_
    codes = np.empty((n_variables, n_instances), dtype=np.uint8)
    counts = np.empty((n_variables, 3, n_classes))
    for lo in range(0, n_variables, block):
        hi = min(lo + block, n_variables)
        feats = (X[:, pairs[lo:hi, 0]] + X[:, pairs[lo:hi, 1]]).T  # (B, N)
        terciles = np.quantile(feats, [1 / 3, 2 / 3], axis=1)  # (2, B)
        part = (feats > terciles[0][:, None]).astype(np.uint8) + (feats > terciles[1][:, None])
        codes[lo:hi] = part
        cell = (np.arange(hi - lo)[:, None] * 3 + part) * n_classes + y[None, :]
        flat = np.bincount(cell.ravel(), minlength=(hi - lo) * 3 * n_classes)
        counts[lo:hi] = flat.reshape(hi - lo, 3, n_classes)
    tables = np.stack([khiops_log_table(c, n_instances) for c in counts])
    log_prior = np.log(np.bincount(y, minlength=n_classes) / n_instances)
    data = EncodedData(
        codes,
        np.arange(n_variables, dtype=np.int64) * 3,
        tables.reshape(-1, n_classes),
        y,
        log_prior,
        np.arange(n_variables, dtype=np.int64),
    )
    costs = np.full(n_variables, math.log(n_variables) + 2 * math.log(n_instances))
    return data, costs


def engine_bytes(data) -> int:
    """codes + packed tables + the N × J score matrix S and its softmax Q."""
    return data.codes.nbytes + data.table.nbytes + 2 * data.n_instances * data.n_classes * 8


def optimiser(method: str):
    """``run(data, costs)`` → (weights dict, value, number of passes/sweeps)."""
    if method == "fnb":
        from repro.methods.hue2024.fnb import paper_fnb_weights

        def run(data, costs):
            rng = np.random.default_rng(0)
            r = paper_fnb_weights(data, costs, LAMBDA_PAPER, EXPONENT, rng)
            return r.weights, r.value, len(r.trace), sum(row["n_trials"] for row in r.trace)

        return run
    from repro.methods.core.optimisers import halving_coordinate_descent
    from repro.methods.khiops.fnb_khiops import KhiopsFNBObjective, ParkMillerRandom

    def run(data, costs):
        objective = KhiopsFNBObjective(data, list(costs), LAMBDA_KHIOPS, EXPONENT)
        trial, trials = objective.trial, [0]

        def counted(k, new_weight):
            trials[0] += 1
            return trial(k, new_weight)

        objective.trial = counted
        n = data.n_instances
        result = halving_coordinate_descent(
            objective,
            [int(k) for k in data.candidates],
            n_steps=int(math.ceil(math.log2(n + 1))),
            tolerance=0.01 * (1 + abs(objective.value)) / (n + 1),
            shuffle=ParkMillerRandom(1).shuffle,
        )
        return result.weights, result.value, len(result.trace), trials[0]

    return run


def run_one(method: str, n_variables: int, n_instances: int, traced: bool) -> dict:
    run = optimiser(method)
    small, small_costs = constructed_data(20, 200)
    run(small, small_costs)  # warm-up: numba kernels, imports
    data, costs = constructed_data(n_variables, n_instances)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if traced:
        tracemalloc.start()
    c0, t0 = time.process_time(), time.perf_counter()
    weights, value, n_passes, n_trials = run(data, costs)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = tracemalloc.get_traced_memory()[1] if traced else None
    if traced:
        tracemalloc.stop()
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "method": method,
        "K": n_variables,
        "N": n_instances,
        "traced": traced,
        "wall_s": wall,
        "cpu_s": cpu,
        "passes": n_passes,
        "trials": n_trials,
        "selected": int(sum(1 for w in weights.values() if w > 0)),
        "value": float(value),
        "engine_mb": engine_bytes(data) / 2**20,
        "nkj_mb": n_instances * n_variables * data.n_classes * 8 / 2**20,
        "traced_mb": None if peak is None else peak / 2**20,
        "maxrss_mb": rss_after / 1024,
        "rss_rise_mb": (rss_after - rss_before) / 1024,
    }


def khiops_probe(n_variables: int, n_instances: int, n_trials: int) -> dict:
    """The first ``n_trials`` moves of fnb_khiops' first forward pass (δ = 1, kept when the score
    drops by more than eps) on K = ``n_variables``, traced: the memory of its objective at a K
    where the whole optimisation is out of reach, and its time per trial there."""
    from repro.methods.khiops.fnb_khiops import KhiopsFNBObjective

    small, small_costs = constructed_data(20, 200)
    KhiopsFNBObjective(small, list(small_costs), LAMBDA_KHIOPS, EXPONENT).trial(0, 1.0)
    data, costs = constructed_data(n_variables, n_instances)
    tracemalloc.start()
    c0 = time.process_time()
    objective = KhiopsFNBObjective(data, list(costs), LAMBDA_KHIOPS, EXPONENT)
    eps = 0.01 * (1 + abs(objective.value)) / (n_instances + 1)
    kept = 0
    for k in range(n_trials):
        if objective.trial(k, 1.0) < objective.value - eps:
            objective.accept()
            kept += 1
    cpu = time.process_time() - c0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {
        "K": n_variables,
        "trials": n_trials,
        "kept": kept,
        "cpu_s_per_trial_traced": cpu / n_trials,
        "engine_mb": engine_bytes(data) / 2**20,
        "traced_mb": peak / 2**20,
    }


def _subprocess(method: str, k: int, n: int, traced: bool) -> dict:
    cmd = [sys.executable, __file__, "--one", method, str(k), str(n), str(int(traced))]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def header(n: int, sizes, khiops_sizes) -> str:
    return (
        f"# python benchmarks/bench_fnb_memory.py --n {n} --sizes {' '.join(map(str, sizes))} "
        f"--khiops-sizes {' '.join(map(str, khiops_sizes))}   ({datetime.date.today()}, 2 "
        "shared cores: other jobs ran on the machine, wall times are inflated (CPU ≪ wall); "
        "ratios are within one run and on CPU time)"
    )


def main(n: int, sizes, khiops_sizes, khiops_trace_max: int) -> None:
    print(header(n, sizes, khiops_sizes))
    rows = []
    for method, ks in (("fnb", sizes), ("fnb_khiops", khiops_sizes)):
        for k in ks:
            timed = _subprocess(method, k, n, False)
            if method == "fnb" or k <= khiops_trace_max:
                traced = _subprocess(method, k, n, True)
                timed["traced_mb"] = traced["traced_mb"]
            rows.append(timed)
            print(json.dumps(timed), file=sys.stderr, flush=True)  # the rows, for --rows
    report(rows, n, sizes, khiops_sizes)
    probe(n, max(sizes))


def probe(n: int, k: int, n_trials: int = 100) -> None:
    cmd = [sys.executable, __file__, "--probe", str(k), str(n), str(n_trials)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    print(
        f"\nfnb_khiops objective at K = {r['K']}, N = {n}: the first {r['trials']} trials of its "
        f"first forward pass ({r['kept']} kept), traced: peak {r['traced_mb']:.1f} MB = "
        f"{r['traced_mb'] / r['engine_mb']:.2f} × the engine's {r['engine_mb']:.1f} MB; "
        f"{r['cpu_s_per_trial_traced'] * 1e3:.0f} ms CPU per trial under tracemalloc"
    )


def report(rows, n: int, sizes, khiops_sizes) -> None:
    print(
        f"\nwaveform F(2D) features cut in 3 parts, N = {n}, J = 3; the optimisation alone "
        "(MB = 2^20 bytes)"
    )
    head = (
        f"{'method':<11}{'K':>8}{'wall s':>9}{'CPU s':>9}{'passes':>7}{'trials':>10}"
        f"{'CPU µs/trial':>13}{'|S|':>6}{'engine':>8}{'N×K×J':>9}{'traced':>8}{'/eng':>6}"
        f"{'maxrss':>8}{'+rss':>7}{'/eng':>6}"
    )
    print(head)
    for r in rows:
        traced, trials, engine = r["traced_mb"], r["trials"], r["engine_mb"]
        per_trial = "-" if not trials else f"{1e6 * r['cpu_s'] / trials:.1f}"
        traced_s = "-" if traced is None else f"{traced:.1f}"
        ratio_s = "-" if traced is None else f"{traced / engine:.2f}"
        print(
            f"{r['method']:<11}{r['K']:>8}{r['wall_s']:>9.2f}{r['cpu_s']:>9.2f}{r['passes']:>7}"
            f"{'-' if trials is None else trials:>10}{per_trial:>13}{r['selected']:>6}"
            f"{engine:>8.1f}{r['nkj_mb']:>9.0f}{traced_s:>8}{ratio_s:>6}"
            f"{r['maxrss_mb']:>8.0f}{r['rss_rise_mb']:>7.0f}{r['rss_rise_mb'] / engine:>6.2f}"
        )
    print("\nratios in the same run (CPU time)")
    by = {(r["method"], r["K"]): r for r in rows}
    for k in khiops_sizes:
        if ("fnb", k) in by:
            f, kh = by[("fnb", k)], by[("fnb_khiops", k)]
            print(f"  K = {k}: fnb_khiops / fnb optimisation {kh['cpu_s'] / f['cpu_s']:.1f}")
    if len(khiops_sizes) > 1:
        a, b = by[("fnb_khiops", khiops_sizes[-2])], by[("fnb_khiops", khiops_sizes[-1])]
        slope = math.log(b["cpu_s"] / a["cpu_s"]) / math.log(b["K"] / a["K"])
        target = max(sizes)
        guess = b["cpu_s"] * (target / b["K"]) ** slope
        quadratic = b["cpu_s"] * (target / b["K"]) ** 2
        print(
            f"  fnb_khiops CPU time exponent in K (K = {a['K']} → {b['K']}): {slope:.2f}; "
            f"extrapolated to K = {target}: {guess:,.0f} s ({guess / 3600:.1f} h) with it, "
            f"{quadratic:,.0f} s ({quadratic / 3600:.1f} h) with the asymptotic exponent 2"
        )
        if ("fnb", target) in by:
            f = by[("fnb", target)]
            print(
                f"  fnb at K = {target}: {f['cpu_s']:.0f} s CPU, "
                f"{guess / f['cpu_s']:.0f}× less than fnb_khiops extrapolated"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 3000, 100_000])
    parser.add_argument("--khiops-sizes", type=int, nargs="+", default=[1000, 3000, 10_000])
    parser.add_argument(
        "--khiops-trace-max",
        type=int,
        default=1000,
        help="largest K of the tracemalloc run of fnb_khiops (its O(K) Python sums per trial "
        "allocate K floats each: traced, it is many times slower)",
    )
    parser.add_argument(
        "--rows", help="print the report of the rows (JSON lines) a run wrote to stderr"
    )
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--probe", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rows:
        with open(args.rows) as f:
            saved = [json.loads(line) for line in f if line.startswith("{")]
        print(header(args.n, args.sizes, args.khiops_sizes))
        report(saved, args.n, args.sizes, args.khiops_sizes)
        probe(args.n, max(args.sizes))
    elif args.probe:
        k, n, trials = map(int, args.probe)
        print(json.dumps(khiops_probe(k, n, trials)))
    elif args.one:
        method, k, n, traced = args.one
        print(json.dumps(run_one(method, int(k), int(n), bool(int(traced)))))
    else:
        main(args.n, args.sizes, args.khiops_sizes, args.khiops_trace_max)
