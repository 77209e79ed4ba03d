"""What the two pages of the dashboard (README.md, index.html) share: the layout note, the
columns, the groups and order of the rows, the text of each cell, links relative to the output
folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from repro.report.dashboard.inputs import PAPERS

#: what the claims sections of both pages say first
CLAIMS_NOTE = (
    "Each claim is a sentence of the paper, quoted with its section, decided by a stated rule "
    "from the stored records (`repro/report/claims/<paper>.py`; the table: `claims.csv`). "
    'One rule of significance per kind of claim: "A beats B" by the Wilcoxon signed-rank '
    "test over data sets (paired t-tests over folds below six data sets), at the 5% level."
)

#: the note on the results folder that opens both pages
LAYOUT = [
    "Result records written by `python -m repro` and `repro.evaluate(..., results_dir=...)`:",
    "`results/<experiment>/<dataset>[__params]/<method>[__params].parquet`, one tidy Parquet file",
    "per cell, plus `<cell>.parts/` checkpoints of unfinished cells and `*.error.json`",
    "for failed cells of a sweep. Git-ignored, except the committed reference outputs of the paper",
    "reproductions (`results/<paper>_*/`: records, tables, figures, REPRODUCTION.md;",
    "`results/hue2024_cells/`, the cell store of the hue2024 experiments;",
    "`results/khiops_agreement/`; `results/benchmarks/`, the printed output of `benchmarks/*.py`)",
    "and this dashboard (`README.md`, `index.html`, `dashboard/`). Files from many machines merge",
    'by concatenation: `repro.evaluation.records.read_records("results/<experiment>")`.',
]

#: the columns of the experiments' tables
COLUMNS = [
    "experiment",
    "command",
    "data sets used / published",
    "substitutes",
    "missing",
    "published values compared",
    "agree by the stated rule",
    "claims checked",
    "claims holding",
    "run date",
    "code revision",
    "REPRODUCTION.md and figures",
]


def ordered(rows: list[dict]) -> list[dict]:
    """The rows by paper (:data:`PAPERS`, then the others), then by name."""
    rank = {p: i for i, p in enumerate(PAPERS)}
    return sorted(rows, key=lambda r: (rank.get(r["paper"], len(PAPERS)), r["experiment"]))


def groups(rows: list[dict]):
    """(title, rows) of the paper experiments, then of the others; an empty group left out."""
    for title, group in (
        ("Paper tables and figures", [r for r in rows if r["paper"]]),
        ("Other experiments", [r for r in rows if not r["paper"]]),
    ):
        if group:
            yield title, group


def cell_texts(row: dict) -> dict:
    """The text of a row's cells between the command and the links, by column."""
    values = row["values"]
    published = "not named" if row["published"] is None else str(row["published"])
    holding = sum(c["verdict"] == "holds" for c in row["claims"])
    revision = row["revision"]
    if row["n_revisions"] > 1:
        revision += f" (+{row['n_revisions'] - 1})"
    return {
        "data sets used / published": f"{row['used']} / {published}",
        "substitutes": str(len(row["substitutes"])),
        "missing": str(len(row["missing"])),
        "published values compared": (
            f"{values['compared']} of {values['published']}"
            + (f" ({values['on_standins']} on stand-ins)" if values.get("on_standins") else "")
            if values
            else "—"
        ),
        "agree by the stated rule": (
            f"{values['within']} of {values['with_spread']}"
            if values and values["with_spread"]
            else "—"
        ),
        "claims checked": str(len(row["claims"])) if row["claims"] else "—",
        "claims holding": str(holding) if row["claims"] else "—",
        "run date": row["date"],
        "code revision": revision,
    }


def relative(target: Path, out_dir: Path) -> str:
    """The link from ``out_dir`` to ``target``."""
    return Path(os.path.relpath(target, out_dir)).as_posix()
