"""The claims a dashboard row counts: the papers' claims (``<paths.published>/<paper>/
claims.yaml``) decided from the records by :mod:`repro.report.claims`, each on the row of the one
experiment whose records decide it, so that every claim is counted once. Claims that no
experiment can decide (the paper's data are not offline, an intention, …) are listed per paper.
``python -m repro.report all`` also writes the whole table as ``<results>/claims.csv``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from repro.report.claims.engine import VERDICTS, claim_files, claims_table
from repro.report.escape import write_csv

__all__ = ["VERDICTS", "all_claims", "experiment_claims", "paper_claims_without_experiment"]

#: the file of the claims table in the results folder
CLAIMS_CSV = "claims.csv"


def all_claims(published_dir, results_dir, experiments=None, records_cache=None) -> pd.DataFrame:
    """Every claim of every paper with its verdict (``experiments``: only the claims these
    experiments decide, and the claims without an experiment; ``records_cache``: folder →
    records, shared with the dashboard's rows)."""
    return claims_table(
        claim_files(published_dir), results_dir, experiments, records_cache=records_cache
    )


def experiment_claims(table: pd.DataFrame, name: str) -> list[dict]:
    """The claims experiment ``name`` decides, as dashboard entries."""
    rows = table[table["experiment"] == name]
    return [_entry(r) for r in rows.itertuples(index=False)]


def paper_claims_without_experiment(table: pd.DataFrame) -> dict[str, list[dict]]:
    """Per paper, the claims no experiment decides (verdict "not testable", with why)."""
    rows = table[table["experiment"] == ""]
    return {
        paper: [_entry(r) for r in group.itertuples(index=False)]
        for paper, group in rows.groupby("paper", sort=True)
    }


def _entry(row) -> dict:
    stand_in = " (on stand-in data)" if row.data == "stand-in" else ""
    return {
        "claim": f"{row.section}: “{row.quote}”",
        "verdict": row.verdict,
        "where": f"{row.evidence}{stand_in}",
        "id": row.claim_id,
        "paper": row.paper,
        "data": row.data or "paper",
    }


def write_claims_csv(table: pd.DataFrame, out_dir) -> Path:
    """``<out_dir>/claims.csv``: paper, experiment, claim_id, section, quote, verdict, evidence,
    data."""
    path = Path(out_dir) / CLAIMS_CSV
    write_csv(table, path, index=False)
    return path
