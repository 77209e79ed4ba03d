"""The one-line headline a report command prints last: what the records showed, not which files
were written.

- :func:`row_headline` (``python -m repro.report experiment=NAME``): the data sets used of the
  paper's, the published numbers within their stated rule (of those a rule decides), the claims
  the experiment decides by verdict, the values flagged to read with care;
- :func:`dashboard_headline` (``python -m repro.report all``): the same over every row, the claims
  that no experiment decides included.
"""

from __future__ import annotations

from repro.report.claims.engine import VERDICTS


def _verdicts(claims: list[dict]) -> str:
    counts = {v: sum(c["verdict"] == v for c in claims) for v in VERDICTS}
    return ", ".join(f"{n} {v}" for v, n in counts.items() if n) or "none"


def _numbers(values: list[dict]) -> str:
    compared = sum(v.get("compared", 0) for v in values)
    if not compared:
        return "no published number compared"
    within = sum(v.get("within", 0) for v in values)
    decided = sum(v.get("with_spread", 0) for v in values)
    return f"published numbers {within} of {decided} within the stated rule ({compared} compared)"


def row_headline(row: dict) -> str:
    """``NAME: D of P data sets; published numbers W of R within the stated rule (C compared);
    claims: …; F values flagged`` for one dashboard row."""
    parts = [f"{row['used']} of {row['published']} data sets"]
    parts.append(_numbers([row["values"]] if row.get("values") else []))
    if row["claims"]:
        parts.append(f"claims: {_verdicts(row['claims'])}")
    parts.append(f"{len(row['flags'])} values flagged" if row["flags"] else "no value flagged")
    return f"{row['experiment']}: " + "; ".join(parts)


def dashboard_headline(dashboard: dict) -> str:
    """``dashboard of N experiments: published numbers …; claims: …; F values flagged``."""
    rows = dashboard["experiments"]
    claims = [c for r in rows for c in r["claims"]]
    claims += [c for group in (dashboard.get("paper_claims") or {}).values() for c in group]
    flagged = sum(len(r["flags"]) for r in rows)
    return (
        f"dashboard of {len(rows)} experiments: "
        f"{_numbers([r['values'] for r in rows if r.get('values')])}; "
        f"claims: {_verdicts(claims)}; "
        + (f"{flagged} values flagged" if flagged else "no value flagged")
    )
