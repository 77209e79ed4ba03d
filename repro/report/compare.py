"""``python -m repro.report compare results=DIR metric=auc correction=bergmann``.

Statistical comparison of the methods found in any set of stored records: the data
sets × methods table of a metric (test split, mean over repetitions × folds), average ranks,
Friedman χ²_F and Iman–Davenport F_F, and the all-pairs z-test on ranks adjusted by the chosen
correction (bonferroni | nemenyi | holm | shaffer | bergmann). Prints them and writes into
``out`` (default: ``compare/<results folder name>`` in the working directory, so that an ad-hoc
comparison never lands beside committed results)::

    compare_<metric>_<correction>.md         ranks, Friedman line, adjusted p matrix, pair table
    compare_<metric>_<correction>.csv        adjusted p-value matrix (methods × methods)
    compare_<metric>_<correction>_pairs.csv  pairs sorted by raw p, raw and all adjusted p
    compare_<metric>_<correction>_cd.png/.pdf  critical-difference diagram

Only data sets on which every method has the metric are compared (Friedman needs complete
blocks); the others are reported as left out.

Arguments (``key=value``, Hydra-like): ``results`` (required), ``metric`` (required),
``correction`` (bergmann), ``higher_is_better`` (inferred from the metric: false for error,
ILF, BER, times, ...), ``out``, ``alpha`` (0.05), ``split`` (test), ``monotone`` (false),
``cap`` (true), ``methods`` (comma-separated subset).

Several configurations of one method in the records (a sweep of a parameter, of seeds or of
protocols) are never pooled: each is a column of its own, labelled as its result files are named
(``nb_ef__n_bins=3``, ``snb_cma__seed=1``, ``nb__protocol=cv5``); ``methods=`` takes such a label,
or a method id for all its configurations.

``test=bayesian`` (default ``test=frequentist``: the above) runs instead the Bayesian signed-rank
test over data sets (Benavoli et al. 2017, JMLR 18(77); baycomp, :mod:`repro.stats.bayesian`) of
one ``reference`` method (default: the reference of the experiment whose results folder it is,
its ``report.bayesian.reference``; else the first method) against every other: P(reference better),
P(practically equivalent), P(other better) for a region of practical equivalence ``rope`` given in
the metric's units (default 0.01), and writes::

    compare_<metric>_bayesian.md                     the probabilities per method (and test)
    compare_<metric>_bayesian.csv                    the same, one row per (test, method)
    compare_<metric>_bayesian_<reference>_vs_<method>.png  baycomp's simplex plot of the posterior

Its arguments: ``rope``, ``reference``, ``seed`` (0), ``nsamples`` (50000, posterior samples),
and ``hierarchical=true`` to add the hierarchical t-test over the folds (Corani et al. 2017;
needs the package ``pystan``), whose options are ``hierarchical.chains`` (4),
``hierarchical.nsamples`` (10000 per chain), ``hierarchical.runs`` (default: the number of
repetitions in the records) and the priors ``hierarchical.lower_alpha`` ... ``upper_sigma``.
``results``, ``metric``, ``higher_is_better``, ``out``, ``split`` and ``methods`` are shared.

The command line (its arguments, ``--help``, the dispatch, ``test=paired|wilcoxon`` on the folds
of a single data set) is :mod:`repro.report.compare_command`; this module computes and writes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from repro.evaluation.guarded import write_text
from repro.report.escape import (
    file_stem,
    markdown_cell,
    markdown_names,
    say,
    short_label,
    write_csv,
)
from repro.report.figure_files import save_figure
from repro.report.tables import LOWER_IS_BETTER, to_markdown
from repro.stats.bayesian import hierarchical, signed_rank_posterior
from repro.stats.configurations import configuration_labels
from repro.stats.posthoc import CORRECTIONS, pairwise_comparisons, posthoc
from repro.stats.tests import (
    average_ranks,
    friedman,
    metric_table,
    missing_lines,
    missing_values,
)

__all__ = [
    "by_configuration",
    "compare_bayesian",
    "compare_records",
    "run_bayesian",
    "run_compare",
    "select_methods",
]


def _md_alt(text: str) -> str:
    """``text`` for the alt text of a Markdown image: inert, with its brackets escaped."""
    return markdown_cell(text).replace("[", r"\[").replace("]", r"\]")


def _label(method: str) -> str:
    """Display name of a method id (as the papers spell it), the id itself if unknown; a
    configuration label ``id__k=v__...`` reads ``Name (k=v, ...)``."""
    method_id, _, rest = str(method).partition("__")
    try:
        from repro.registry import display_name

        name = display_name(method_id)
    except Exception:  # the statistics must not depend on the registry being importable
        name = method_id
    return short_label(f"{name} ({rest.replace('__', ', ')})" if rest else name)


def _fmt(x: float) -> str:
    if not np.isfinite(x):
        return str(x)
    if x != 0 and abs(x) < 1e-3:
        return f"{x:.3e}"
    return f"{x:.4f}"


def friedman_line(fr: pd.Series) -> str:
    """One-line summary of :func:`repro.stats.tests.friedman`."""
    return (
        f"Friedman chi2_F = {fr['chi2']:.4f} (df = {int(fr['chi2_df'])}, "
        f"p = {fr['chi2_pvalue']:.4g}); Iman-Davenport F_F = {fr['ff']:.4f} "
        f"(df = {int(fr['ff_df1'])}, {int(fr['ff_df2'])}; p = {fr['ff_pvalue']:.4g}); "
        f"N = {int(fr['n_datasets'])} data sets, k = {int(fr['n_methods'])} methods"
    )


def by_configuration(records: pd.DataFrame) -> pd.DataFrame:
    """The records with ``method`` replaced by the label of each distinct configuration
    (:func:`repro.stats.configurations.configuration_labels`): a sweep of a parameter, of seeds
    or of protocols gives one column per configuration, never one pooled column."""
    labels = configuration_labels(records)
    if labels.equals(records["method"].astype(str)):
        return records
    return records.assign(method=labels)


def default_out(results) -> Path:
    """Where a comparison goes without ``out=``: ``compare/<results folder name>`` under the
    working directory, never into the results folder itself (which may be committed)."""
    return Path("compare") / Path(results).resolve().name


def select_methods(available: list[str], methods: list[str]) -> list[str]:
    """The columns named by ``methods``: a configuration label, or a method id standing for all
    its configurations; a ValueError naming the unknown ones and the valid choices."""
    chosen, unknown = [], []
    for name in methods:
        found = [name] if name in available else [m for m in available if m.startswith(f"{name}__")]
        chosen += [m for m in found if m not in chosen]
        if not found:
            unknown.append(name)
    if unknown:
        raise ValueError(f"methods {unknown} not in records; methods: {available}")
    return chosen


def complete_table(records, metric: str, split, methods=None) -> tuple[pd.DataFrame, list]:
    """The data sets × methods table of ``metric`` restricted to the data sets on which every
    method (of ``methods``, default all) has it, and the data sets left out; a ValueError
    below 2 methods or 2 complete data sets. Each configuration of a method is a column of its
    own (:func:`by_configuration`). A cell's mean is over its folds that have a value; the
    table's ``attrs["missing"]`` (:func:`repro.stats.tests.missing_values`) names the folds
    that lack one."""
    labelled = by_configuration(records)
    full = metric_table(labelled, metric, split)
    if methods:
        full = full[select_methods(list(full.columns), list(methods))]
    missing = missing_values(labelled, metric, split)
    missing = missing[missing["method"].isin(full.columns)].reset_index(drop=True)
    table = full.dropna(axis=0, how="any")
    table.attrs["missing"] = missing
    left_out = sorted(set(full.index) - set(table.index))
    if table.shape[1] < 2:
        raise ValueError(f"need at least 2 methods with {metric!r}, got {list(table.columns)}")
    if table.shape[0] < 2:
        raise ValueError(
            f"need at least 2 data sets on which every method has {metric!r}; "
            f"complete: {list(table.index)}, left out: {left_out} (one data set: compare its "
            "folds with test=paired or test=wilcoxon)"
        )
    return table, left_out


def run_compare(
    records: pd.DataFrame,
    metric: str,
    correction: str = "bergmann",
    higher_is_better: bool | None = None,
    alpha: float = 0.05,
    split: str | None = "test",
    monotone: bool = False,
    cap: bool = True,
    methods: list[str] | None = None,
) -> dict:
    """All the numbers of the comparison, without writing anything.

    Returns a dict with ``table`` (complete data sets × methods), ``left_out`` (data sets
    dropped for a missing method), ``higher_is_better``, ``ranks`` (Series, sorted best
    first), ``friedman`` (Series), ``adjusted`` (methods × methods, ``correction``),
    ``pairs`` (long table with raw p and every correction applicable to k) and ``options``
    (``alpha``, ``monotone``, ``cap``: what the adjusted p-values and the CD diagram use).
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {CORRECTIONS}, got {correction!r}")
    if higher_is_better is None:
        higher_is_better = metric not in LOWER_IS_BETTER
    table, left_out = complete_table(records, metric, split, methods)
    ranks = average_ranks(table, higher_is_better).sort_values(kind="stable")
    fr = friedman(table, higher_is_better)
    adjusted = posthoc(table, correction, higher_is_better, monotone=monotone, cap=cap)
    from repro.stats.posthoc import MAX_BERGMANN_K

    corrections = [c for c in CORRECTIONS if c != "bergmann" or table.shape[1] <= MAX_BERGMANN_K]
    pairs = pairwise_comparisons(table, higher_is_better, corrections, monotone, cap)
    return {
        "table": table,
        "left_out": left_out,
        "missing": missing_lines(table.attrs["missing"], metric),
        "higher_is_better": higher_is_better,
        "ranks": ranks,
        "friedman": fr,
        "adjusted": adjusted,
        "pairs": pairs,
        "options": {"alpha": alpha, "monotone": monotone, "cap": cap},
    }


def compare_records(
    records: pd.DataFrame,
    metric: str,
    correction: str = "bergmann",
    out: str | Path = ".",
    echo: bool = False,
    **options,
) -> list[Path]:
    """Run :func:`run_compare` (``options``: its keyword arguments) and write its Markdown, CSVs
    and CD diagram into ``out``. Returns the written paths; prints the report when ``echo``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from repro.stats.plots import cd_diagram

    res = run_compare(records, metric, correction, **options)
    alpha = res["options"]["alpha"]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stem = f"compare_{metric}_{correction}"
    direction = "higher is better" if res["higher_is_better"] else "lower is better"
    ranks = res["ranks"]
    adjusted = res["adjusted"]
    fr_line = friedman_line(res["friedman"])

    rank_frame = pd.DataFrame(
        {
            "name": [_label(m) for m in ranks.index],
            "average rank": ranks.to_numpy(),
            f"mean {metric}": res["table"].mean(axis=0).reindex(ranks.index).to_numpy(),
        },
        index=pd.Index(ranks.index, name="method"),
    )
    order = list(ranks.index)
    matrix = adjusted.loc[order, order]
    pairs = res["pairs"].set_index("i")
    options = ", ".join(f"{k} = {v}" for k, v in res["options"].items())
    text = [
        f"# Comparison of {len(order)} methods on {metric} ({direction}), "
        f"{correction} correction\n",
        f"Data sets ({res['table'].shape[0]}): {markdown_names(res['table'].index)}.\n",
    ]
    if res["left_out"]:
        text.append(f"Left out (a method has no {metric}): {markdown_names(res['left_out'])}.\n")
    if res["missing"]:
        text.append(f"\nFolds without a value of {metric}:\n\n")
        text += [f"- {markdown_cell(line)}\n" for line in res["missing"]]
    text += [
        "\n## Average ranks (1 = best)\n\n",
        to_markdown(rank_frame, index_title="method", float_format=_fmt),
        f"\n## Friedman test\n\n{fr_line}.\n",
        f"\n## Adjusted p-values ({correction}; {options})\n\n",
        to_markdown(matrix, index_title="method", float_format=_fmt),
        "\n## Pairs sorted by raw p (z-test on average ranks)\n\n",
        to_markdown(pairs, index_title="i", float_format=_fmt),
    ]
    md_path = out / f"{stem}.md"
    write_text(md_path, "".join(text))
    csv_path = out / f"{stem}.csv"
    write_csv(matrix, csv_path, index_label="method")
    pairs_path = out / f"{stem}_pairs.csv"
    write_csv(res["pairs"], pairs_path, index=False)

    labelled_ranks = ranks.rename(index=_label)
    labelled_p = adjusted.rename(index=_label, columns=_label)
    fig = cd_diagram(
        labelled_ranks,
        labelled_p,
        alpha=alpha,
        title=f"{metric}: {correction} adjusted p, alpha = {alpha}",
    )
    png, pdf = out / f"{stem}_cd.png", out / f"{stem}_cd.pdf"
    save_figure(fig, png, bbox_inches="tight", dpi=150)
    save_figure(fig, pdf, bbox_inches="tight")
    plt.close(fig)

    if echo:
        with pd.option_context("display.width", 200, "display.max_columns", 50):
            say(f"{metric} ({direction}); {res['table'].shape[0]} data sets", end="")
            say(f"; left out: {', '.join(res['left_out'])}" if res["left_out"] else "")
            for line in res["missing"]:
                say(f"missing: {line}")
            say("\nAverage ranks:")
            say(rank_frame.to_string(float_format=lambda x: f"{x:.4f}"))
            say(f"\n{fr_line}")
            say(f"\nAdjusted p-values ({correction}; {options}):")
            say(matrix.to_string(float_format=_fmt))
    return [md_path, csv_path, pairs_path, png, pdf]


def _fold_scores(records: pd.DataFrame, metric: str, split: str | None, method: str, datasets):
    """Data sets × (repetition, fold) scores of one method, for the hierarchical test."""
    records = by_configuration(records)
    sub = records[(records["metric"] == metric) & (records["method"] == method)]
    if split is not None:
        sub = sub[sub["split"] == split]
    sub = sub[sub["dataset"].isin(list(datasets))]
    folds = sub.pivot_table(
        index="dataset", columns=["repetition", "fold"], values="value", aggfunc="mean"
    )
    return folds.reindex(list(datasets))


def run_bayesian(
    records: pd.DataFrame,
    metric: str,
    reference: str | None = None,
    rope: float = 0.01,
    higher_is_better: bool | None = None,
    split: str | None = "test",
    methods: list[str] | None = None,
    seed: int = 0,
    nsamples: int = 50000,
    hierarchical_test: bool = False,
    hierarchical_options: dict | None = None,
) -> dict:
    """Bayesian comparisons of ``reference`` (default: the first method) with every other method,
    without writing anything (:mod:`repro.stats.bayesian`).

    Returns a dict with ``table`` (complete data sets × methods of mean scores), ``left_out``,
    ``higher_is_better``, ``reference``, ``results`` (one row per test and other method:
    ``test``, ``reference``, ``method``, ``p_reference_better``, ``p_equivalent``,
    ``p_other_better``, ``rope``, ``n_datasets``), ``posteriors`` (method → baycomp's sampled
    signed-rank posterior, for the simplex plots) and ``options``.
    """
    if higher_is_better is None:
        higher_is_better = metric not in LOWER_IS_BETTER
    table, left_out = complete_table(records, metric, split, methods)
    reference = table.columns[0] if reference is None else reference
    if reference not in table.columns:
        raise ValueError(f"reference must be one of {list(table.columns)}, got {reference!r}")
    others = [m for m in table.columns if m != reference]
    rows, posteriors = [], {}
    for method in others:
        post = signed_rank_posterior(
            table[reference], table[method], rope, higher_is_better, seed, nsamples
        )
        posteriors[method] = post
        p_left, p_rope, p_right = post.probs(with_rope=True)
        rows.append(("signed_rank", method, p_left, p_rope, p_right, table.shape[0]))
    options = {"rope": rope, "seed": seed, "nsamples": nsamples}
    if hierarchical_test:
        hopts = dict(hierarchical_options or {})
        ref_folds = _fold_scores(records, metric, split, reference, table.index)
        if "runs" not in hopts:
            hopts["runs"] = int(ref_folds.columns.get_level_values(0).nunique())
        for method in others:
            folds = _fold_scores(records, metric, split, method, table.index)
            if not folds.columns.equals(ref_folds.columns) or (
                ref_folds.isna().to_numpy().any() or folds.isna().to_numpy().any()
            ):
                raise ValueError(
                    f"the hierarchical test needs the same (repetition, fold) scores on every "
                    f"data set for {reference!r} and {method!r}; some are missing"
                )
            res = hierarchical(
                ref_folds.to_numpy(), folds.to_numpy(), rope, higher_is_better, seed, **hopts
            )
            rows.append(("hierarchical", method, *res, table.shape[0]))
        options["hierarchical"] = hopts
    results = pd.DataFrame(
        rows,
        columns=[
            "test",
            "method",
            "p_reference_better",
            "p_equivalent",
            "p_other_better",
            "n_datasets",
        ],
    )
    results.insert(1, "reference", reference)
    results.insert(6, "rope", float(rope))
    return {
        "table": table,
        "left_out": left_out,
        "missing": missing_lines(table.attrs["missing"], metric),
        "higher_is_better": higher_is_better,
        "reference": reference,
        "results": results,
        "posteriors": posteriors,
        "options": options,
    }


def _safe(name: str) -> str:
    return file_stem(name)


def compare_bayesian(
    records: pd.DataFrame,
    metric: str,
    out: str | Path = ".",
    echo: bool = False,
    **options,
) -> list[Path]:
    """Run :func:`run_bayesian` (``options``: its keyword arguments) and write its Markdown, CSV
    and baycomp's simplex plots into ``out``. Returns the written paths; prints when ``echo``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    res = run_bayesian(records, metric, **options)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stem = f"compare_{metric}_bayesian"
    reference, rope = res["reference"], res["options"]["rope"]
    direction = "higher is better" if res["higher_is_better"] else "lower is better"
    results = res["results"]
    ref_label = _label(reference)
    ref_md = markdown_cell(ref_label)
    text = [
        f"# Bayesian comparison of {ref_md} with {results['method'].nunique()} methods on "
        f"{metric} ({direction})\n",
        f"\nBenavoli et al. (2017, JMLR 18(77)), computed by baycomp: P({ref_md} better), "
        f"P(practically equivalent: within the rope of {rope:g} {metric}), P(other better); "
        f"each is the share of posterior samples in which that region is the most probable "
        f"(seed = {res['options']['seed']}, {res['options']['nsamples']} samples).\n",
        f"\nData sets ({res['table'].shape[0]}): {markdown_names(res['table'].index)}.\n",
    ]
    if res["left_out"]:
        text.append(f"Left out (a method has no {metric}): {markdown_names(res['left_out'])}.\n")
    if res["missing"]:
        text.append(f"\nFolds without a value of {metric}:\n\n")
        text += [f"- {markdown_cell(line)}\n" for line in res["missing"]]
    titles = {
        "signed_rank": "Bayesian signed-rank test over data sets (mean scores)",
        "hierarchical": "Bayesian hierarchical t-test over the folds "
        f"(Corani et al. 2017; options {res['options'].get('hierarchical')})",
    }
    for test, part in results.groupby("test", sort=False):
        frame = pd.DataFrame(
            {
                "name": [_label(m) for m in part["method"]],
                f"P({ref_label} better)": part["p_reference_better"].to_numpy(),
                "P(equivalent)": part["p_equivalent"].to_numpy(),
                "P(other better)": part["p_other_better"].to_numpy(),
            },
            index=pd.Index(part["method"], name="method"),
        )
        text += [f"\n## {titles[test]}\n\n", to_markdown(frame, index_title="method")]
    figures = []
    for method, post in res["posteriors"].items():
        fig = post.plot_simplex((ref_label, _label(method)))
        png = out / f"{stem}_{_safe(reference)}_vs_{_safe(method)}.png"
        save_figure(fig, png, bbox_inches="tight", dpi=150)
        plt.close(fig)
        figures.append(png)
        if len(figures) == 1:
            text.append("\n## Simplex plots of the signed-rank posterior (baycomp)\n\n")
        text.append(f"![{_md_alt(ref_label)} vs {_md_alt(_label(method))}]({png.name})\n")
    md_path = out / f"{stem}.md"
    write_text(md_path, "".join(text))
    csv_path = out / f"{stem}.csv"
    write_csv(results, csv_path, index=False)
    paths = [md_path, csv_path, *figures]
    if echo:
        with pd.option_context("display.width", 200, "display.max_columns", 50):
            say(f"{metric} ({direction}); {res['table'].shape[0]} data sets", end="")
            say(f"; left out: {', '.join(res['left_out'])}" if res["left_out"] else "")
            for line in res["missing"]:
                say(f"missing: {line}")
            say(f"Bayesian comparison of {reference} (rope = {rope:g}):")
            say(results.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    return paths
