"""hue2024's optimisers and FNB against SNB(CMA), measured in one run (issue 13).

    python benchmarks/bench_hue2024.py [--part evaluation optimisers fnb] [--n-constructed 10000]

Three parts, each method in a fresh subprocess after an untimed warm-up fit (numba compilation):

``evaluation`` — one evaluation of CR(w) and its gradient (hue2024 eq. 11–12,
:func:`repro.methods.hue2024.wnb_opt_criterion.hue2024_criterion`) against N·K on random packed data
(J = 3 classes, 4 parts per variable, w uniform in [0, 1]): best of 5 wall times, time per
N·K·J, and the ratio to a peer in the same process, a plain NumPy implementation of the same
value and gradient (per-variable fancy-index gathers, ``scipy.special.logsumexp``), which
checks the numba kernels' worth. The value alone (line searches) is timed too.

``optimisers`` — each of the eight ``wnb_opt`` algorithms on waveform_noise (5000 × 40, the
paper's WaveformNoise) and letter (20000 × 16, 26 classes), at λ = 1 (the paper's Fig. 1–3)
and λ = 0.25 (its chosen value): criterion, variables, iterations and evaluations to ε = 0.01,
optimisation time (``fit_report_["optimisation_time"]``: the weights alone) against the
search of ``snb_cma`` on the same data (``fit_report_["search_time"]``), the paper's
"SG.CF takes 10 to 20 times SNB's time" (§4.3), and the whole fit times.

``fnb`` — weight optimisation (preparation excluded: ``fit_report_["weighting_time"]``) of
``fnb`` (the paper's Algorithm 2), ``fnb_khiops`` (Khiops 11's schedule) and ``wnb_opt``
(SG.CF) against the MS(FFWBW) + CMA search of ``snb_cma`` on waveform (5000 rows, seed 0) with
``--n-constructed`` F(2D) features (default 10⁴, boulle2007 §8.2), with each process's peak RSS
(``resource.getrusage``: data, preparation and weights).

Output: a plain-text table per part on stdout (results/benchmarks/bench_hue2024.txt holds the
committed run), with the machine's CPU count and the date; CPU time (``time.process_time``)
beside wall time shows whether more than one core worked.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

ALGORITHMS = ("sg", "am", "sg_cf", "sg_ue", "ug_cf", "ug_ue", "cg_cf", "cg_ue")


# ---------------------------------------------------------------------------------------------
# workers (run in a subprocess; print one JSON line)
# ---------------------------------------------------------------------------------------------
def random_data(n, k, n_parts=4, n_classes=3, seed=0):
    from repro.methods.core.engine import EncodedData

    rng = np.random.default_rng(seed)
    tables = [np.log(rng.dirichlet(np.ones(n_parts), size=n_classes).T) for _ in range(k)]
    codes = [rng.integers(0, n_parts, n) for _ in range(k)]
    y = rng.integers(0, n_classes, n)
    return EncodedData.from_tables(codes, tables, y, np.log(np.full(n_classes, 1 / n_classes)))


def numpy_peer(w, data, costs, lam, p, delta):
    """CR and gradient in plain NumPy (the peer): per-variable gathers, logsumexp."""
    from scipy.special import logsumexp

    from repro.methods.hue2024.wnb_opt_criterion import fc_penalty

    cols = [data.table[data.offsets[k] + data.codes[k].astype(np.int64)] for k in range(w.size)]
    S = data.log_prior[None, :] + sum(wk * c for wk, c in zip(w, cols))
    log_q = S - logsumexp(S, axis=1, keepdims=True)
    rows = np.arange(data.n_instances)
    value = -float(log_q[rows, data.y].sum())
    q = np.exp(log_q)
    grad = np.array([float((q * c).sum() - c[rows, data.y].sum()) for c in cols])
    pen, pen_grad = fc_penalty(w, costs, p, delta)
    return value + lam * pen, grad + lam * pen_grad


def best_of(fn, repeats=5):
    walls = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t)
    return min(walls)


def worker_evaluation(n, k):
    from repro.methods.hue2024.wnb_opt_criterion import hue2024_criterion, negative_log_likelihood

    small = random_data(50, 3, seed=1)
    hue2024_criterion(np.full(3, 0.5), small.codes, small.offsets, small.table,
                      small.log_prior, small.y, np.ones(3), 1.0, 0.95, 1e-3)  # fmt: skip
    data = random_data(n, k)
    rng = np.random.default_rng(0)
    w = rng.uniform(0, 1, k)
    costs = np.full(k, np.log(k) + 5.0)
    a = (data.codes, data.offsets, data.table, data.log_prior, data.y)
    mine = hue2024_criterion(w, *a, costs, 1.0, 0.95, 1e-3)
    peer = numpy_peer(w, data, costs, 1.0, 0.95, 1e-3)
    assert abs(mine[0] - peer[0]) <= 1e-9 * abs(peer[0])
    assert np.allclose(mine[1], peer[1], rtol=1e-8, atol=1e-8)
    t_full = best_of(lambda: hue2024_criterion(w, *a, costs, 1.0, 0.95, 1e-3))
    t_value = best_of(lambda: negative_log_likelihood(w, *a, gradient=False))
    t_peer = best_of(lambda: numpy_peer(w, data, costs, 1.0, 0.95, 1e-3), repeats=2)
    return {"N": n, "K": k, "value+grad s": t_full, "value s": t_value, "numpy peer s": t_peer}


def load(name):
    from repro.datasets import load_dataset

    ds = load_dataset(name)
    return ds.X, ds.y


def timed_fit(method, X, y, **params):
    from repro.registry import make_method

    model = make_method(method, **params)
    wall, cpu = time.perf_counter(), time.process_time()
    model.fit(X, y)
    return model, time.perf_counter() - wall, time.process_time() - cpu


def warm_up(methods):
    X, y = load("iris")
    for method, params in methods:
        timed_fit(method, X, y, **params)


def worker_optimisers(dataset, method, algorithm, lam):
    params = {} if method == "snb_cma" else {"algorithm": algorithm, "lambda_": lam}
    warm_up([(method, params)])
    X, y = load(dataset)
    model, wall, cpu = timed_fit(method, X, y, **params)
    r = model.fit_report_
    weights_time = r.get("search_time") if method == "snb_cma" else r.get("optimisation_time")
    return {
        "dataset": dataset,
        "method": method if method == "snb_cma" else algorithm,
        "lambda": lam,
        "criterion": getattr(model, "criterion_", np.nan),
        "n_selected": model.n_selected_features_,
        "iterations": r.get("n_iterations", np.nan),
        "evaluations": r.get("n_evaluations", np.nan),
        "weights s": weights_time,
        "fit wall s": wall,
        "fit cpu s": cpu,
    }


def worker_fnb(method, n_constructed):
    import pandas as pd

    from repro.datasets.construction import FeatureConstruction

    params = {"algorithm": "sg_cf"} if method == "wnb_opt" else {}
    warm_up([(method, params)])
    X, y = load("waveform")
    X = pd.DataFrame(X).iloc[:5000]
    y = np.asarray(y)[:5000]
    Xc = FeatureConstruction(n_features=n_constructed, random_state=0).fit_transform(X)
    model, wall, cpu = timed_fit(method, Xc, y, **params)
    r = model.fit_report_
    return {
        "method": method,
        "K": Xc.shape[1],
        "n_selected": model.n_selected_features_,
        "preparation s": r.get("preparation_time"),
        "weights s": r.get("weighting_time"),
        "fit wall s": wall,
        "fit cpu s": cpu,
        "peak RSS GB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
    }


WORKERS = {"evaluation": worker_evaluation, "optimisers": worker_optimisers, "fnb": worker_fnb}


# ---------------------------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------------------------
def run(kind, *args):
    out = subprocess.run(
        [sys.executable, __file__, "--worker", kind, *map(str, args)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def part_evaluation():
    import pandas as pd

    rows = [run("evaluation", n, k) for n in (1000, 4000, 16000) for k in (100, 1000)]
    df = pd.DataFrame(rows)
    df["ns per N·K·J"] = df["value+grad s"] / (df.N * df.K * 3) * 1e9
    df["peer / ours"] = df["numpy peer s"] / df["value+grad s"]
    slope = np.polyfit(np.log(df.N * df.K), np.log(df["value+grad s"]), 1)[0]
    print("## One evaluation of CR(w) and its gradient (J = 3, 4 parts per variable)\n")
    print(df.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    print(f"\ngrowth exponent of value+grad in N·K: {slope:.2f} (1 = linear)\n", flush=True)


def part_optimisers():
    import pandas as pd

    rows = []
    for dataset in ("waveform_noise", "letter"):
        snb = run("optimisers", dataset, "snb_cma", "-", 0)
        rows.append(snb)
        for lam in (1.0, 0.25):
            for algorithm in ALGORITHMS:
                row = run("optimisers", dataset, "wnb_opt", algorithm, lam)
                row["weights / SNB search"] = row["weights s"] / snb["weights s"]
                row["fit / SNB fit"] = row["fit wall s"] / snb["fit wall s"]
                rows.append(row)
    df = pd.DataFrame(rows)
    print("## The eight optimisers against SNB(CMA)'s search (ε = 0.01, w0 = 0.5)\n")
    print(df.to_string(index=False, float_format=lambda v: f"{v:.4g}"), "\n", flush=True)


def part_fnb(n_constructed):
    import pandas as pd

    rows = [run("fnb", m, n_constructed) for m in ("snb_cma", "fnb", "fnb_khiops", "wnb_opt")]
    df = pd.DataFrame(rows)
    base = df.loc[df.method == "snb_cma", "weights s"].iloc[0]
    df["weights / SNB"] = df["weights s"] / base
    print(f"## Weight optimisation on waveform 5000 + {n_constructed} F(2D)\n")
    print(df.to_string(index=False, float_format=lambda v: f"{v:.4g}"), "\n", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", nargs="+", default=["evaluation", "optimisers", "fnb"])
    parser.add_argument("--n-constructed", type=int, default=10_000)
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        kind, *rest = args.worker
        conv = [float(a) if a.replace(".", "", 1).isdigit() and "." in a else a for a in rest]
        conv = [int(a) if isinstance(a, str) and a.isdigit() else a for a in conv]
        print(json.dumps(WORKERS[kind](*conv), default=float))
        return
    print(f"# bench_hue2024 — {datetime.date.today()}, {os.cpu_count()} CPUs\n", flush=True)
    if "evaluation" in args.part:
        part_evaluation()
    if "optimisers" in args.part:
        part_optimisers()
    if "fnb" in args.part:
        part_fnb(args.n_constructed)


if __name__ == "__main__":
    main()
