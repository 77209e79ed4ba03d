"""Re-running finished work (issue 29): a sweep whose cells are finished, read before the launch
against every cell through Hydra's launcher.

Run as a script (one command; writes ``results/benchmarks/bench_rerun.txt``):

    python benchmarks/bench_rerun.py [--repeats 2]

(1) ``python -m repro experiment=boulle2007_table3 progress=false`` with its 175 cells finished
(the committed records: nothing is computed, no file changes), with the sweeper of
``conf/hydra/sweeper/repro.yaml`` (finished cells read before the launch) and with Hydra's basic
sweeper (``hydra/sweeper=basic``: a composition and a job per cell, the path before issue 29).
(2) A sweep of 16 small cells, ``-m method=nb_gaussian,nb_ef dataset=<8 small data sets>``,
serial, in a scratch results folder: its first run (every cell computed) and its re-run (every
cell finished), with either sweeper. Each figure is the best of ``--repeats`` fresh processes
(wall seconds, and the CPU seconds of the process and its children).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "benchmarks" / "bench_rerun.txt"
TABLE3 = ["experiment=boulle2007_table3", "progress=false"]
SMALL = "iris,wine,pima,sonar,heart_statlog,ionosphere,breast_w,vehicle"
SWEEP16 = ["-m", "method=nb_gaussian,nb_ef", f"dataset={SMALL}", "progress=false"]
#: the two sweepers: this project's (finished cells read first) and Hydra's basic one
SWEEPERS = {"fast path": [], "launcher's path": ["hydra/sweeper=basic"]}


def timed(args: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall s, CPU s of the process and its children, its output) of ``python -m repro args``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "repro", *args], cwd=cwd, capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        raise RuntimeError(
            f"python -m repro {' '.join(args)}: exit {proc.returncode}\n{proc.stderr}"
        )
    return wall, cpu, proc.stdout


def summary(out: str) -> str:
    """The sweep's closing line, without its time."""
    found = re.findall(r"sweep: (\d+ cells: \d+ computed, \d+ read, \d+ failed)", out)
    return found[-1] if found else "no sweep summary"


def best(runs: list[tuple[float, float, str]]) -> tuple[float, float, str]:
    return min(runs, key=lambda r: r[0])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.repeats < 1:
        raise ValueError(f"--repeats must be at least 1, got {args.repeats}")
    lines = [
        "# bench_rerun: finished cells re-read before the launch vs every cell launched (issue 29)",
        "",
        f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}; best of {args.repeats} fresh processes; wall s, CPU s "
        "(process and children)",
        "",
    ]
    table3 = {}
    for name, extra in SWEEPERS.items():
        wall, cpu, out = best([timed([*TABLE3, *extra], ROOT) for _ in range(args.repeats)])
        if "0 computed, 175 read, 0 failed" not in summary(out):
            raise RuntimeError(f"boulle2007_table3 is not finished here: {summary(out)}")
        table3[name] = wall
        lines.append(
            f"boulle2007_table3, 175 finished cells, {name:15s}: {wall:6.1f} s wall, "
            f"{cpu:6.1f} s CPU ({summary(out)})"
        )
    lines.append("")
    sweep = {}
    for name, extra in SWEEPERS.items():
        first, again = [], []
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as scratch:
                cmd = [*SWEEP16, f"results_dir={scratch}", *extra]
                first.append(timed(cmd, Path(scratch)))
                again.append(timed(cmd, Path(scratch)))
        for what, runs in (("first run", first), ("re-run", again)):
            wall, cpu, out = best(runs)
            sweep[name, what] = wall
            lines.append(
                f"16 small cells serial, {what:9s}, {name:15s}: {wall:6.1f} s wall, "
                f"{cpu:6.1f} s CPU ({summary(out)})"
            )
    fast, slow = table3["fast path"], table3["launcher's path"]
    rerun = [sweep[name, "re-run"] for name in SWEEPERS]
    first = [sweep[name, "first run"] for name in SWEEPERS]
    lines += [
        "",
        f"16 small cells, re-run: {rerun[0]:.1f} s (the launcher's path: {rerun[1]:.1f} s); "
        f"first run: {first[0]:.1f} s (the launcher's path: {first[1]:.1f} s)",
        f"re-run boulle2007_table3 (175 finished cells): {fast:.1f} s "
        f"(the launcher's path: {slow:.1f} s, {slow / fast:.1f}x; goal <= 10 s)",
    ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)


if __name__ == "__main__":
    main()
