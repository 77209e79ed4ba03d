"""``python -m repro.report all`` on the committed results: packed results against loose files.

Two checkouts of the repository, made with ``git worktree`` in a temporary folder: ``--old``
(default: the commit before the results were packed, one file per cell) and ``--new`` (default:
``HEAD``, the results packed into one file per experiment). Each runs ``python -m repro.report
all out=<temporary folder>`` on its own ``results/`` with its own code (``PYTHONPATH``), the two
alternating ``--runs`` times. Printed: wall and CPU seconds and peak RSS of each run, the number
and size of the record files read, and the ratio new / old of the best wall times.

    python benchmarks/bench_report_all.py [--old REV] [--new REV] [--runs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the last commit before the results store and packed results (one file per cell in results/)
OLD = "514bdc3"

MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - start
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": proc.returncode, "wall": wall, "cpu": use.ru_utime + use.ru_stime,
                  "rss_mb": use.ru_maxrss / 1024, "err": proc.stderr[-2000:]}))
"""


def record_files(tree: Path) -> tuple[int, float]:
    files = [p for p in (tree / "results").rglob("*.parquet") if ".parts" not in str(p)]
    return len(files), sum(p.stat().st_size for p in files) / 1e6


def run_once(tree: Path, out: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-m", "repro.report", "all", f"out={out}"]
    proc = subprocess.run(
        [sys.executable, "-c", MEASURE, *command],
        cwd=tree, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if result["rc"] != 0:
        raise RuntimeError(f"report all failed in {tree}: {result['err']}")
    return result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default=OLD)
    parser.add_argument("--new", default="HEAD")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        for label, rev in (("old", args.old), ("new", args.new)):
            tree = Path(tmp) / label
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
                check=True, capture_output=True,
            )  # fmt: skip
            trees[label] = tree
        try:
            best = {}
            for label, tree in trees.items():
                n, mb = record_files(tree)
                print(
                    f"{label} ({args.old if label == 'old' else args.new}): "
                    f"{n} record files, {mb:.1f} MB"
                )
            for run in range(args.runs):
                for label, tree in trees.items():
                    r = run_once(tree, Path(tmp) / f"out_{label}_{run}")
                    best[label] = min(best.get(label, float("inf")), r["wall"])
                    print(
                        f"run {run + 1} {label}: wall {r['wall']:.1f} s, CPU {r['cpu']:.1f} s, "
                        f"peak RSS {r['rss_mb']:.0f} MB",
                        flush=True,
                    )
            print(
                f"report all, packed / loose results: best wall {best['new']:.1f} s / "
                f"{best['old']:.1f} s = ratio {best['new'] / best['old']:.2f}  (goal ≤ 0.5)"
            )
        finally:
            for tree in trees.values():
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                    capture_output=True,
                )  # fmt: skip


if __name__ == "__main__":
    start = time.strftime("%Y-%m-%d")
    print(f"# python benchmarks/bench_report_all.py   ({start}, {os.cpu_count()} cores)")
    main()
