"""The keys an experiment's ``report:`` section may hold, and the check that refuses any other.

A misspelt key (``reported_table:`` for ``reported_tables:``) would otherwise do nothing: the
report would silently leave out what the key asks for. :func:`check_report_section` raises a
``ValueError`` naming the experiment, the key, the closest valid key and every valid one.
"""

from __future__ import annotations

import difflib

#: key → what it asks for (the generic keys read by ``python -m repro.report`` and the
#: dashboard, then the keys a paper's figure functions read)
REPORT_KEYS = {
    # what every report reads
    "paper": "the paper whose published numbers (reported.csv) the report compares",
    "title": "the report's title",
    "caption": "the caption of a paper-layout table or figure",
    "tables": "paper-layout tables: name, metrics, reference, caption",
    "figures": "figure functions, module:function(records, out_dir, report_cfg)",
    "stats": "Friedman and post-hoc tests with a critical-difference diagram, per metric",
    "notes": "closing notes of REPRODUCTION.md",
    "caveat": "the first sentence of REPRODUCTION.md",
    "sources": "experiments whose stored records the report reads instead of its own",
    "methods": "the methods shown (default: those of the sweep)",
    "datasets": "the paper's data sets when the sweep does not list them",
    "metrics": "the metrics shown",
    # published against reproduced
    "reported_tables": "the tables of reported.csv that this experiment reproduces",
    "comparison": "module:function giving the judged published-vs-reproduced frame",
    "published_runs": "table → the number of runs a published SD is over",
    "published_table_datasets": "table → the data sets its means, ranks and W/L counts are over",
    "published_datasets": "the number of the paper's data sets (null: the paper names none)",
    "not_offline": "the paper's data sets that are not available offline",
    "substitutes": "data sets that are the paper's in another form",
    "substitutions": "paper's data set → what stands in for it, as REPRODUCTION.md says",
    # other readings and variants
    "variants": "label → a stored experiment of the same cells, shown side by side",
    "variant_label": "this experiment's label among its variants",
    "variant_metrics": "metrics whose per-data-set values the variants show",
    "reading": "why this experiment is another reading of a paper's item (the dashboard)",
    "dashboard": "false: leave the experiment off the dashboard",
    "bayesian": "the dashboard's Bayesian signed-rank comparison: reference, metric",
    "rope": "the region of practical equivalence of a Bayesian comparison",
    # read by a paper's figure functions
    "baseline": "the baseline experiment a figure compares with",
    "bound": "the stated bound of an experiment (what it leaves out and why)",
    "cd_metrics": "metrics with a critical-difference diagram",
    "experiment": "the experiment a variant's page names",
    "left_out": "data sets left out of a figure, with the reason",
    "min_share": "the least share of data sets a figure's summary needs",
}


def check_report_section(experiment: str, report) -> None:
    """Refuse a ``report:`` key that no report reads: a ValueError such as "experiment 'x':
    unknown report key 'reported_table' (did you mean 'reported_tables'?); valid keys: …"."""
    if report:
        refuse_unknown_keys(f"experiment {experiment!r}", "report key", report, REPORT_KEYS)


def refuse_unknown_keys(owner: str, what: str, entry, valid) -> None:
    """A ValueError "<owner>: unknown <what> 'x' (did you mean 'y'?); valid keys: …" for the
    first key of ``entry`` not in ``valid``; nothing when every key is valid."""
    unknown = [str(key) for key in entry if key not in valid]
    if not unknown:
        return
    key = unknown[0]
    close = difflib.get_close_matches(key, list(valid), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    listing = ", ".join(sorted(valid))
    raise ValueError(f"{owner}: unknown {what} {key!r}{hint}; valid keys: {listing}")
