"""Reading ``claims.yaml`` files and deciding each claim from stored records.

A ``claims.yaml`` file::

    paper: vidaurre2012
    claims:
      - id: redundant_noise_fsnb        # unique in the paper
        section: "§7.1"                 # where the quote stands
        quote: "…"                      # the paper's own words, verbatim
        experiment: vidaurre2012_table1 # whose records decide it (none: not testable)
        rule: fsnb_best_on_redundant    # a function of repro.report.papers.<paper>.claims
        params: {metric: error}         # its keyword arguments (optional)
        data: paper                     # "paper" (its data sets) or "stand-in" (ours instead)
        note: "…"                       # why not testable, or what the rule reads (optional)

A rule is ``rule(evidence: Evidence, **params) -> Verdict``; it reads records with
``evidence.records(experiment)`` and never refits. A claim without ``rule`` is "not testable"
and must say why in ``note``. Missing records make a claim "not testable (no records)", never a
failure of the whole table.

The paper's own numbers are a records source too: :mod:`repro.report.claims.published`
(``published_records(paper, tables)``, ``published_evidence(paper, {experiment: tables})``)
builds, from ``experiments/<paper>/reported.csv``, frames in the layout the rules read and serves
them through ``Evidence(results_dir, cache=...)``, so a rule can be run on what the paper printed.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import yaml

from repro.evaluation.store import ResultsStore

#: the verdicts a rule may return
VERDICTS = ("holds", "partly", "does not hold", "not testable")
#: what the data of a claim's experiment are
DATA = ("paper", "stand-in")
#: the columns of ``results/claims.csv``
COLUMNS = [
    "paper", "experiment", "claim_id", "section", "quote", "verdict", "evidence", "data",
]  # fmt: skip


class NoRecords(LookupError):
    """The records a rule needs are not stored (the experiment has not been run)."""


@dataclass(frozen=True)
class Verdict:
    """A rule's decision and the numbers it rests on (one line a reader can check)."""

    verdict: str
    evidence: str

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


@dataclass(frozen=True)
class Claim:
    """One row of a ``claims.yaml`` file."""

    paper: str
    claim_id: str
    section: str
    quote: str
    experiment: str | None = None
    rule: str | None = None
    params: dict = field(default_factory=dict)
    data: str = "paper"
    note: str = ""


class Evidence:
    """The stored records of experiments, read once each from ``results_dir``; ``cache``: folder
    name → its records (None: none), shared with the dashboard's rows so that ``report all``
    reads every folder once. The records are read-only: rules copy before they change a frame."""

    def __init__(self, results_dir, cache: dict | None = None):
        self.results_dir = Path(results_dir)
        self.store = ResultsStore(self.results_dir)
        self._cache: dict[str, pd.DataFrame | None] = {} if cache is None else cache

    def records(self, experiment: str) -> pd.DataFrame:
        """All records of ``<results_dir>/<experiment>/`` (raises :class:`NoRecords`)."""
        if experiment not in self._cache:
            try:
                self._cache[experiment] = self.store.records(experiment)
            except FileNotFoundError:
                self._cache[experiment] = None
        if self._cache[experiment] is None:
            raise NoRecords(f"no records of {experiment} under {self.results_dir}")
        return self._cache[experiment]


def read_claims(path) -> list[Claim]:
    """The claims of one ``claims.yaml``, checked (unique ids, known data kinds, a note where
    no rule decides)."""
    path = Path(path)
    spec = yaml.safe_load(path.read_text()) or {}
    paper = spec.get("paper")
    if not paper:
        raise ValueError(f"{path}: the key 'paper' is missing")
    claims, seen = [], set()
    for item in spec.get("claims") or []:
        unknown = set(item) - {
            "id", "section", "quote", "experiment", "rule", "params", "data", "note",
        }  # fmt: skip
        if unknown:
            raise ValueError(f"{path}: claim {item.get('id')!r} has unknown key(s) {unknown}")
        for key in ("id", "section", "quote"):
            if not item.get(key):
                raise ValueError(f"{path}: a claim has no {key!r}: {item}")
        if item["id"] in seen:
            raise ValueError(f"{path}: claim id {item['id']!r} is used twice")
        seen.add(item["id"])
        data = item.get("data", "paper")
        if data not in DATA:
            raise ValueError(f"{path}: claim {item['id']!r} data {data!r}; valid: {DATA}")
        if not item.get("rule") and not item.get("note"):
            raise ValueError(f"{path}: claim {item['id']!r} has no rule and no note saying why")
        claims.append(
            Claim(
                paper=str(paper),
                claim_id=str(item["id"]),
                section=str(item["section"]),
                quote=" ".join(str(item["quote"]).split()),
                experiment=item.get("experiment"),
                rule=item.get("rule"),
                params=dict(item.get("params") or {}),
                data=data,
                note=str(item.get("note") or ""),
            )
        )
    return claims


def rule_function(paper: str, name: str):
    """The function ``name`` of :mod:`repro.report.papers.<paper>.claims`."""
    module = importlib.import_module(f"repro.report.papers.{paper}.claims")
    try:
        return getattr(module, name)
    except AttributeError:
        raise ValueError(f"claim rule {name!r} is not a function of {module.__name__}") from None


def decide(claim: Claim, evidence: Evidence) -> Verdict:
    """The verdict of one claim: its rule on the records, or "not testable" with the reason."""
    if not claim.rule:
        return Verdict("not testable", claim.note)
    rule = rule_function(claim.paper, claim.rule)
    try:
        return rule(evidence, **claim.params)
    except NoRecords as exc:
        return Verdict("not testable", f"{exc} (run: python -m repro experiment=...)")


def claims_table(claim_files, results_dir, experiments=None, records_cache=None) -> pd.DataFrame:
    """One row per claim of the given ``claims.yaml`` files (:data:`COLUMNS`); ``experiments``:
    only the claims these experiments decide, and those no experiment decides;
    ``records_cache``: see :class:`Evidence`."""
    evidence = Evidence(results_dir, records_cache)
    rows = []
    for path in claim_files:
        for claim in read_claims(path):
            if experiments is not None and claim.experiment and claim.experiment not in experiments:
                continue
            rows.append(claim_row(claim, evidence))
    return pd.DataFrame(rows, columns=COLUMNS)


def claim_row(claim: Claim, evidence: Evidence) -> dict:
    """The row of the claims table (:data:`COLUMNS`) of one claim, decided on ``evidence``."""
    verdict = decide(claim, evidence)
    return {
        "paper": claim.paper,
        "experiment": claim.experiment or "",
        "claim_id": claim.claim_id,
        "section": claim.section,
        "quote": claim.quote,
        "verdict": verdict.verdict,
        "evidence": verdict.evidence,
        "data": claim.data,
    }


def claim_files(published_dir) -> list[Path]:
    """Every ``<published_dir>/<paper>/claims.yaml``, in paper order."""
    return sorted(Path(published_dir).glob("*/claims.yaml"))
