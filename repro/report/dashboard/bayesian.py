"""The Bayesian comparison of a dashboard row (``report.bayesian: {reference, metric}``): the
Bayesian signed-rank test of the reference against each other method over the data sets every
method ran, and baycomp's simplex plot against the strongest competitor.
"""

from __future__ import annotations

from pathlib import Path

from repro.report.dashboard.inputs import FIGURES, DashboardError
from repro.report.escape import file_stem, short_label
from repro.report.figure_files import save_figure

#: region of practical equivalence of every Bayesian signed-rank test
ROPE = 0.01
#: posterior samples of each Bayesian signed-rank test (probabilities shown to 2 decimals)
NSAMPLES = 10000


def bayesian_comparison(cfg: dict, name: str, records, figures: Path | None) -> dict | None:
    """``report.bayesian``: the reference against each other method (module docstring)."""
    spec = (cfg.get("report") or {}).get("bayesian")
    if not spec or records is None:
        return None
    from repro.stats.bayesian import compare_to_reference, simplex_figure
    from repro.stats.tests import metric_table

    reference, metric = str(spec["reference"]), str(spec["metric"])
    higher = bool(spec.get("higher_is_better", True))
    methods = cfg["sweep"].get("method") or (cfg.get("report") or {}).get("methods")
    table = metric_table(records, metric)
    if methods:
        table = table[[m for m in methods if m in table.columns]]
    table = table.dropna()
    if reference not in table.columns:
        raise DashboardError(
            f"{name}: report.bayesian.reference {reference!r} has no records; "
            f"valid: {', '.join(map(str, table.columns))}"
        )
    result = compare_to_reference(
        table, reference, ROPE, higher_is_better=higher, seed=0, nsamples=NSAMPLES
    )
    rows = [
        {k: (round(float(v), 3) if isinstance(v, float) else v) for k, v in row.items()}
        for row in result.to_dict("records")
    ]
    rival = result.loc[result["p_other_better"].idxmax(), "method"]
    figure = f"{FIGURES}/{file_stem(f'{name}_{reference}_vs_{rival}')}.png"
    if figures is not None:
        import matplotlib.pyplot as plt

        fig = simplex_figure(
            table[reference].to_numpy(),
            table[rival].to_numpy(),
            ROPE,
            (short_label(reference), short_label(rival)),
            higher_is_better=higher,
            seed=0,
            nsamples=NSAMPLES,
        )
        fig.suptitle(f"{name}: test {metric}, {len(table)} data sets, rope {ROPE}")
        (figures.parent / figure).parent.mkdir(parents=True, exist_ok=True)
        save_figure(fig, figures.parent / figure, dpi=80, bbox_inches="tight")
        plt.close(fig)
    return {
        "reference": reference,
        "metric": metric,
        "n_datasets": len(table),
        "rows": rows,
        "figure": figure,
    }
