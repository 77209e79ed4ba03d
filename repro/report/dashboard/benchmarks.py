"""The benchmark rows of the dashboard: one per ``<results>/benchmarks/*.txt``, its headline
ratio against its peer read by the pattern of :data:`BENCHMARKS` (the last match: the latest
run).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from repro.report.dashboard.inputs import DashboardError


@dataclass(frozen=True)
class Headline:
    """How a benchmark log states its headline ratio: ``pattern``'s group 1, last match."""

    what: str
    peer: str
    pattern: str


BENCHMARKS = {
    "bench_bma_nb": Headline(
        "bma_nb / nb_laplace fit time, letter 20000×16",
        "nb_laplace",
        r"bma_nb / nb_laplace: letter \S+: ([0-9.]+)",
    ),
    "bench_busy": Headline(
        "snb_cma n_jobs=2 / n_jobs=1 wall time beside one CPU-bound process per core, 4000×321",
        "n_jobs=1 on the same busy machine",
        r"busy machine, snb_cma \S+: n_jobs=2 / n_jobs=1 wall ([0-9.]+)",
    ),
    "bench_ffwbw": Headline(
        "growth exponent of the MS(FFWBW) search time in K",
        "linear growth (1)",
        r"growth exponent of search_s in K: ([0-9.]+)",
    ),
    "bench_first_run": Headline(
        "the README's main job in a fresh clone / its second run",
        "the second run",
        r"fresh clone / second run: ([0-9.]+)",
    ),
    "bench_fit_memory": Headline(
        "peak RSS of one fit above the baseline / the input's size, snb_cma or fnb_khiops (worst), "
        "waveform 4000 + 100k F(2D)",
        "the input's own size (goal: at most 2)",
        r"F\(2D\): \(peak - baseline\) / input, worst method ([0-9.]+)",
    ),
    "bench_fnb_memory": Headline(
        "fnb_khiops / fnb weight-optimisation CPU time, K = 3000",
        "fnb_khiops",
        r"K = 3000: fnb_khiops / fnb optimisation ([0-9.]+)",
    ),
    "bench_fsnb": Headline(
        "fsNB / snb_acc fit wall time, p = 2000",
        "snb_acc",
        r"^\s*2000\s+([0-9.]+)\s",
    ),
    "bench_grouping": Headline(
        "fnb_khiops / Khiops CPU time on census_income_kdd (nominal variables, full data)",
        "Khiops 11",
        r"census_income_kdd: CPU ours/Khiops ([0-9.]+)",
    ),
    "bench_histograms": Headline(
        "nb_mdlh / nb_gaussian 10-fold CV wall time on letter",
        "nb_gaussian",
        # part 2's line (wall, cpu, accuracy, ratio, RSS), not part 3's (bound, n, wall, ...)
        r"^nb_mdlh\s+\S+\s+\S+\s+0\.\d+\s+([0-9.]+)\s+\S+\s*$",
    ),
    "bench_hue2024": Headline(
        "wnb_opt / snb_cma weight time, waveform 5000 + 10k F(2D)",
        "snb_cma",
        r"^\s*wnb_opt\s+\d+(?:\s+\S+){6}\s+([0-9.]+)\s*$",
    ),
    "bench_modl": Headline(
        "fnb_khiops / Khiops fit time, N = 5000, K = 40",
        "Khiops 11",
        r"\{'N': 5000, 'K': 40, .*'ratio': ([0-9.]+)",
    ),
    "bench_rerun": Headline(
        "wall seconds to re-run boulle2007_table3 with its 175 cells finished",
        "the goal, 10 s (every cell through Hydra's launcher, hydra/sweeper=basic: in the log)",
        r"re-run boulle2007_table3 \(175 finished cells\): ([0-9.]+) s",
    ),
    "bench_snb_scale": Headline(
        "snb_cma preparation CPU per core / the sorting floor, largest K, waveform + F(2D)",
        "one stable argsort per column",
        r"floor = [0-9.]+ serial, ([0-9.]+) per core",
    ),
    "bench_report_all": Headline(
        "python -m repro.report all, packed results / one file per cell (wall)",
        "the code and results before packing",
        r"= ratio ([0-9.]+)",
    ),
    "bench_scale": Headline(
        "fnb_khiops (n_jobs=1) / Khiops CPU time, waveform 5000 + 10k F(2D)",
        "Khiops 11",
        r"fnb_khiops n_jobs=1: ours/Khiops CPU ([0-9.]+)",
    ),
}


def benchmark_rows(results_dir) -> list[dict]:
    """One row per ``benchmarks/*.txt``: its headline ratio (:data:`BENCHMARKS`) and date."""
    rows = []
    for path in sorted((Path(results_dir) / "benchmarks").glob("*.txt")):
        headline = BENCHMARKS.get(path.stem)
        if headline is None:
            raise DashboardError(
                f"no headline ratio known for benchmark {path.name}: add it to "
                f"repro.report.dashboard.benchmarks.BENCHMARKS (known: {', '.join(BENCHMARKS)})"
            )
        text = path.read_text()
        found = list(re.finditer(headline.pattern, text, flags=re.MULTILINE))
        if not found:
            raise DashboardError(
                f"{path}: the headline pattern {headline.pattern!r} of BENCHMARKS matches nothing"
            )
        # the date of the run that printed the last headline: the last date above it
        dates = re.findall(r"\d{4}-\d{2}-\d{2}", text[: found[-1].start()])
        date = dates[-1] if dates else "unknown"
        rows.append(
            {
                "benchmark": path.stem,
                "what": headline.what,
                "peer": headline.peer,
                "ratio": float(found[-1][1]),
                "date": date,
                "log": f"benchmarks/{path.name}",
            }
        )
    return rows
