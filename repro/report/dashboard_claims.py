"""The claims a dashboard row counts (:mod:`repro.report.dashboard`): those of the config's
``report.claims``, else the verdicts a report generator wrote into the experiment's
REPRODUCTION.md (a table with ``claim`` and ``holds`` columns, or ``claim: **for|against|not
shown**`` items under a "Claims" heading).
"""

from __future__ import annotations

import re
from pathlib import Path

from repro.report.dashboard_inputs import DashboardError

#: the verdicts of a claim on the dashboard
VERDICTS = ("holds", "does not hold", "partly", "not testable")
#: verdict words of the generated REPRODUCTION.md files → :data:`VERDICTS`
GENERATED = {
    "yes": "holds",
    "no": "does not hold",
    "for": "holds",
    "against": "does not hold",
    "not shown": "not testable",
}


def _markdown_tables(text: str):
    """Header cells and rows of every Markdown table of ``text``."""
    lines = text.splitlines()
    i = 0
    while i < len(lines) - 1:
        if lines[i].startswith("|") and re.match(r"^\|[-| :]+\|$", lines[i + 1].strip()):
            header = [c.strip() for c in lines[i].strip().strip("|").split("|")]
            rows, i = [], i + 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            yield header, rows
        else:
            i += 1


CLAIM_ITEM = re.compile(r"^(?:\d+\.|-)\s+(.+?):\s+\*\*(for|against|not shown)\*\*")


def generated_claims(text: str, where: str) -> list[dict]:
    """The claims and verdicts a report generator wrote into a REPRODUCTION.md (see above)."""
    claims = []
    for header, rows in _markdown_tables(text):
        lower = [h.lower() for h in header]
        if "claim" in lower and "holds" in lower:
            c, h = lower.index("claim"), lower.index("holds")
            w = lower.index("where") if "where" in lower else None
            for row in rows:
                verdict = GENERATED.get(row[h].lower())
                if verdict is None:
                    raise DashboardError(
                        f"{where}: claim {row[c]!r} has verdict {row[h]!r}; "
                        f"valid: {', '.join(GENERATED)}"
                    )
                place = f"{where}, {row[w]}" if w is not None else where
                claims.append({"claim": row[c], "verdict": verdict, "where": place})
    heading = ""
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lower()
            continue
        match = CLAIM_ITEM.match(line)
        if match and "claims" in heading:
            claims.append({"claim": match[1], "verdict": GENERATED[match[2]], "where": where})
    return claims


def experiment_claims(cfg: dict, name: str, folder: Path) -> list[dict]:
    """``report.claims`` of the config, else those generated into its REPRODUCTION.md."""
    listed = (cfg.get("report") or {}).get("claims")
    if listed:
        claims = []
        for item in listed:
            verdict = item.get("verdict")
            if verdict not in VERDICTS:
                raise DashboardError(
                    f"{name}: report.claims entry {item.get('claim')!r} has verdict {verdict!r}; "
                    f"valid: {', '.join(VERDICTS)}"
                )
            claims.append(
                {"claim": str(item["claim"]), "verdict": verdict, "where": item.get("where", "")}
            )
        return claims
    reproduction = folder / "REPRODUCTION.md"
    if not reproduction.is_file():
        return []
    return generated_claims(reproduction.read_text(), f"{folder.name}/REPRODUCTION.md")
