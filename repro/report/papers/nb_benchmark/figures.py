"""The report of the head-to-head benchmark (``experiment=nb_benchmark``), from stored records.

``python -m repro.report experiment=nb_benchmark`` calls :func:`benchmark` (the ``figures:``
entry of its config), which writes into the report folder:

- ``LEADERBOARD.md``: how complete the store is; a leaderboard per metric (average rank, wins,
  mean; :mod:`repro.report.leaderboard`); the Friedman test and the post-hoc correction of each
  critical-difference diagram (Bergmann–Hommel up to 11 methods, Shaffer beyond); the Bayesian
  signed-rank test of the accuracy leader against every other method (rope 0.01); the Pareto
  front of accuracy and compression rate against fit time; the leaderboard by kind of data; a
  "which method when" section whose every sentence is generated from the numbers it cites; the
  failed, unfinished and did-not-finish cells, per data set;
- ``leaderboard_<metric>.csv``, ``by_kind.csv``, ``bayesian_accuracy.csv``,
  ``completeness.csv``, ``failures.csv``: the same numbers;
- ``compare_<metric>_<correction>.md/.csv/_pairs.csv/_cd.png/_cd.pdf`` for the metrics of
  ``report.cd_metrics`` (:func:`repro.report.compare.compare_records` on the ranked block);
- ``pareto.png/.pdf``;

and closes ``LEADERBOARD.md`` with the papers' claims of superiority
(``experiments/nb_benchmark/claims.yaml``) decided on these records.

Everything works on a partial store (a sweep still running): the leaderboards rank the methods
on the data sets where all of them have records (a method with records on fewer than
``report.min_share`` of the data sets is shown unranked), and the completeness section says how
many of the planned cells (methods × data sets of the config's sweep, ``report.datasets`` or the
experiment's sweep) are done.

Keys of the ``report:`` section (beside the generic ones): ``metrics`` (default: every metric of
:data:`~repro.report.leaderboard.METRICS`), ``cd_metrics`` ([accuracy, auc,
compression_rate]), ``min_share`` (0.5), ``rope`` (0.01), ``nsamples`` (50000),
``datasets`` (the planned data sets; default: the experiment's sweep), ``n_folds`` (10),
``bound`` (a sentence: how the run was bounded, printed in the report), ``exclude`` (the cells
the bound leaves out; default: the experiment's ``hydra.sweeper.exclude``, which the sweep skips:
they are neither planned nor ranked, and are listed), ``left_out`` ({data set
or group: why}, printed in the report), ``substitutes`` (data sets that stand in for a paper's,
named in the report).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from repro.evaluation.guarded import write_text
from repro.registry import display_name
from repro.report import leaderboard as lb
from repro.report.escape import write_csv
from repro.report.figure_common import save, sweep_plan
from repro.report.tables import to_markdown

EXPERIMENT = "nb_benchmark"
TITLES = {
    "accuracy": "accuracy",
    "auc": "AUC",
    "compression_rate": "compression rate",
    "balanced_error_rate": "balanced error rate",
    "fit_time": "fit time (s)",
    "n_selected": "number of variables used",
}


def _name(method: str) -> str:
    return display_name(method) if method != "all" else "all"


def _fmt(x) -> str:
    if isinstance(x, float | np.floating):
        if not np.isfinite(x):
            return ""
        if x != 0 and abs(x) < 1e-3:
            return f"{x:.2e}"
        return f"{x:.4g}" if abs(x) >= 100 else f"{x:.4f}"
    return str(x)


def _table(frame: pd.DataFrame, index_title: str = "method") -> str:
    return to_markdown(frame, index_title=index_title, float_format=_fmt)


def records_folder(out_dir, report_cfg) -> Path:
    """Where the cells' records and error files lie: ``<paths.results>/<experiment>``, or
    ``report.results_folder``, else the report folder."""
    if report_cfg.get("results_folder"):
        return Path(report_cfg["results_folder"])
    where = report_cfg.get("paths")
    if where is not None:
        folder = Path(where.results) / report_cfg.get("experiment", EXPERIMENT)
        if folder.is_dir():
            return folder
    return Path(out_dir)


# --- sections -----------------------------------------------------------------------------
def completeness_section(
    comp: pd.DataFrame, fails: pd.DataFrame, bound: str | None, bound_out=()
) -> str:
    """``bound``: how the run was bounded (a sentence); ``bound_out``: the (method, data set)
    cells the bound leaves out, listed per data set."""
    total = comp.loc["all"]
    share = total["done"] / total["planned"] if total["planned"] else 0.0
    lines = [
        "## How complete the store is\n\n",
        (
            f"Cells of the methods × data sets grid left out by the bound: {total['bound']} "
            "(listed below); the others are planned. "
            if total["bound"]
            else ""
        )
        + f"Cells done: {total['done']} of {total['planned']} planned ({share:.0%}); "
        f"did not finish (over the time budget): {total['dnf']}; failed: {total['failed']}; "
        f"partial (some folds stored): {total['partial']}; unfinished (checkpoints only): "
        f"{total['unfinished']}; not run yet: {total['missing']}.\n",
    ]
    if bound:
        lines.append(f"\nBound of the run: {bound}\n")
    if bound_out:
        per_set: dict[str, list[str]] = {}
        for m, d in sorted(bound_out):
            per_set.setdefault(d, []).append(_name(m))
        lines.append("\nLeft out by the bound (`hydra.sweeper.exclude=[]` runs them too):\n\n")
        lines += [f"- {d}: {', '.join(names)}\n" for d, names in sorted(per_set.items())]
    if total["done"] < total["planned"]:
        lines.append(
            "\nEvery number below is over the cells stored so far: the leaderboards rank the "
            "methods on the data sets where all the ranked methods have records.\n"
        )
    frame = comp.rename(index=_name)
    if not total["bound"]:
        frame = frame.drop(columns="bound")
    lines += ["\n", _table(frame)]
    if len(fails):
        lines += [
            "\n### Failed, did-not-finish and unfinished cells, per data set\n\n",
            "Listed, never dropped: a cell here has no entry in the leaderboards until it is "
            "done (dnf: over its time budget; failed: an error, first line shown; unfinished: "
            "checkpoints of a cell that is running or was interrupted).\n\n",
        ]
        view = fails.assign(
            method=fails["method"].map(_name),
            folds_done=[f"{int(k)}" if pd.notna(k) else "" for k in fails["folds_done"]],
        )
        view = view[["dataset", "method", "status", "folds_done", "error"]]
        view = view.rename(columns={"folds_done": "folds done", "error": "first line of the error"})
        lines.append(_table(view.set_index("dataset"), index_title="data set"))
    return "".join(lines)


def leaderboard_section(board: pd.DataFrame, metric: str) -> str:
    attrs = board.attrs
    direction = "higher is better" if attrs["higher_is_better"] else "lower is better"
    n = len(attrs["ranked_datasets"])
    unranked = [_name(m) for m in attrs["excluded"] if board.loc[m, "datasets"] > 0]
    lines = [
        f"### {TITLES.get(metric, metric)} ({direction})\n\n",
        f"Ranked over {n} data sets on which every ranked method has records"
        + (f"; left out (a ranked method lacks them): {', '.join(attrs['left_out'])}" if
           attrs["left_out"] else "")
        + (f"; unranked (records on too few data sets): {', '.join(unranked)}" if unranked
           else "")
        + ". Wins: the data sets on which a method is best (a tie for the best counts for each "
        "tied method). Mean: over the ranked data sets; own mean: over the method's own data "
        "sets.\n\n",
    ]  # fmt: skip
    shown = board[board["datasets"] > 0]
    frame = shown.rename(index=_name)[
        ["average_rank", "wins", "mean", "mean_own", "datasets", "ranked"]
    ].astype(object)
    frame.loc[~shown["ranked"].to_numpy(), "wins"] = ""
    names = {"average_rank": "average rank", "mean_own": "own mean", "datasets": "data sets"}
    lines.append(_table(frame.rename(columns=names)))
    none = [_name(m) for m in board.index[board["datasets"] == 0]]
    if none:
        lines.append(f"\nNo records yet: {', '.join(none)}.\n")
    return "".join(lines)


def compare_section(records, board, metric, out_dir) -> tuple[str, list[Path], float]:
    """Friedman, post-hoc and the CD diagram of ``metric`` on the ranked block."""
    from repro.report.compare import compare_records, friedman_line, run_compare

    ranked = [m for m in board.index if board.loc[m, "ranked"]]
    sets = board.attrs["ranked_datasets"]
    if len(ranked) < 2 or len(sets) < 2:
        line = f"- {TITLES.get(metric, metric)}: too few complete data sets for Friedman.\n"
        return line, [], float("nan")
    sub = lb.metric_records(records, metric)
    sub = sub[sub["method"].isin(ranked) & sub["dataset"].isin(sets)]
    correction = lb.correction_for(len(ranked))
    higher = lb.higher_is_better(metric)
    res = run_compare(sub, metric, correction, higher_is_better=higher)
    paths = compare_records(sub, metric, correction, out=out_dir, higher_is_better=higher)
    if correction == "bergmann":
        why = f"Bergmann–Hommel, {len(ranked)} methods"
    else:
        why = f"Shaffer's static procedure: {len(ranked)} methods, too many for Bergmann–Hommel"
    line = (
        f"- {TITLES.get(metric, metric)}: {friedman_line(res['friedman'])}. Post-hoc: "
        f"{correction} ({why}); CD diagram `{paths[3].name}`, adjusted p-values "
        f"`{paths[0].name}`.\n"
    )
    return line, paths, float(res["friedman"]["ff_pvalue"])


def bayesian_section(records, board, rope, nsamples) -> tuple[str, pd.DataFrame | None]:
    ranked = [m for m in board.index if board.loc[m, "ranked"]]
    sets = board.attrs["ranked_datasets"]
    if len(ranked) < 2 or len(sets) < 2:
        return "Too few complete data sets for the Bayesian signed-rank test.\n", None
    leader = ranked[0]
    block = lb.score_table(records, "accuracy").loc[sets, ranked]
    res = lb.bayesian_vs_leader(block, leader, True, rope, 0, nsamples)
    text = (
        f"Bayesian signed-rank test (Benavoli et al. 2017, baycomp) of the accuracy leader, "
        f"{_name(leader)}, against every other ranked method over {len(sets)} data sets; "
        f"region of practical equivalence ±{rope:g} accuracy.\n\n"
    )
    frame = res.rename(index=_name)
    frame.columns = [f"P({_name(leader)} better)", "P(equivalent)", "P(other better)"]
    return text + _table(frame), res


def pareto_figure(records, boards: dict, out_dir) -> tuple[list[Path], dict]:
    """Mean accuracy and compression rate (ranked block) against the geometric mean of the
    fit time over the same data sets; the Pareto front joined."""
    panels = [m for m in ("accuracy", "compression_rate") if m in boards]
    times = lb.score_table(records, "fit_time")
    if not panels or times.empty:
        return [], {}
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 5.2), squeeze=False)
    fronts = {}
    for ax, metric in zip(axes[0], panels, strict=True):
        board = boards[metric]
        ranked = [m for m in board.index if board.loc[m, "ranked"]]
        sets = board.attrs["ranked_datasets"]
        ranked = [m for m in ranked if m in times.columns]
        if not ranked or not sets:
            ax.set_axis_off()
            continue
        t = times.reindex(index=sets, columns=ranked).clip(lower=1e-6)
        cost = np.exp(np.log(t).mean(axis=0))
        score = board.loc[ranked, "mean"].astype(float)
        front = lb.pareto_front(score, cost, lb.higher_is_better(metric))
        fronts[metric] = pd.DataFrame({"score": score, "fit_time": cost, "front": front})
        ax.scatter(cost[~front], score[~front], color="0.6", s=22)
        ax.scatter(cost[front], score[front], color="C3", s=30)
        order = cost[front].sort_values().index
        ax.step(cost[order], score[order], where="post", color="C3", lw=1)
        for m in ranked:
            ax.annotate(_name(m), (cost[m], score[m]), fontsize=7, xytext=(3, 2),
                        textcoords="offset points", color="C3" if front[m] else "0.3")  # fmt: skip
        ax.set_xscale("log")
        ax.set_xlabel("fit time per fold, geometric mean over the data sets (s)")
        ax.set_ylabel(f"mean {TITLES[metric]} over {len(sets)} data sets")
        ax.set_title(f"{TITLES[metric]} against fit time (red: Pareto front)")
        ax.grid(alpha=0.3)
    return save(fig, out_dir, "pareto"), fronts


def kind_section(kinds: pd.DataFrame, table: pd.DataFrame, metric: str, top: int = 3) -> str:
    if table.empty:
        return f"No kind of data has a complete block of {metric} records yet.\n"
    lines = [
        f"Leaderboard of {TITLES.get(metric, metric)} within each kind of data (the first {top} "
        f"by average rank; all in `by_kind.csv`). Kinds: attributes numeric / nominal / mixed; "
        f"small (< {lb.SMALL_ROWS} rows) / large; two-class / multi-class.\n\n",
        "| kind | data sets | first | second | third |\n|---|---|---|---|---|\n",
    ]
    for (grouping, group), part in table.groupby(["grouping", "group"], sort=False):
        part = part.sort_values("average_rank", kind="stable").head(top)
        cells = [f"{_name(r.method)} ({r.average_rank:.2f})" for r in part.itertuples()]
        cells += [""] * (top - len(cells))
        lines.append(f"| {grouping}: {group} | {int(part['n'].iloc[0])} | " +
                     " | ".join(cells) + " |\n")  # fmt: skip
    counts = [
        f"{group} {int(k)}"
        for grouping in ("type", "size", "classes")
        for group, k in kinds[grouping].value_counts().sort_index().items()
    ] if len(kinds) else []  # fmt: skip
    lines.append(f"\nPlanned data sets by kind: {', '.join(counts) or 'none'}.\n")
    return "".join(lines)


def which_method_when(
    boards: dict, kind_table, fronts: dict, bayes, friedman_p: dict | None = None
) -> list[str]:
    """Sentences generated from the numbers, each citing the number it rests on."""
    out = []
    for metric, p in (friedman_p or {}).items():
        if not np.isfinite(p):
            continue
        if p < 0.05:
            out.append(
                f"The methods' {TITLES[metric]} ranks differ significantly (Iman–Davenport "
                f"p = {p:.3g} < 0.05): the CD diagram says which pairs."
            )
        else:
            out.append(
                f"The methods' {TITLES[metric]} ranks do not differ significantly (Iman–Davenport "
                f"p = {p:.3g} ≥ 0.05): the {TITLES[metric]} recommendations below are not "
                f"evidence of a difference."
            )

    def first(board):
        ranked = board[board["ranked"]]
        return (ranked.index[0], ranked.iloc[0]) if len(ranked) else (None, None)

    phrases = {
        "accuracy": "For the most accurate predictions",
        "auc": "For ranking the instances by class (AUC)",
        "compression_rate": "For the best class probability estimates (compression rate)",
        "balanced_error_rate": "For imbalanced classes (balanced error rate)",
        "fit_time": "For the fastest fit",
        "n_selected": "For the smallest models (fewest variables used)",
    }
    for metric, board in boards.items():
        m, row = first(board)
        if m is None:
            continue
        n = len(board.attrs["ranked_datasets"])
        out.append(
            f"{phrases.get(metric, metric)}, use {_name(m)}: average rank "
            f"{row['average_rank']:.2f} of {int(board['ranked'].sum())} methods over {n} data "
            f"sets, best on {int(row['wins'])} of them, mean {_fmt(float(row['mean']))}."
        )
    if kind_table is not None and not kind_table.empty:
        for (grouping, group), part in kind_table.groupby(["grouping", "group"], sort=False):
            part = part.sort_values("average_rank", kind="stable")
            best = part.iloc[0]
            tied = part["method"][np.isclose(part["average_rank"], best["average_rank"])]
            ties = [_name(m) for m in tied.iloc[1:]]
            out.append(
                f"On {group} data ({grouping}, {int(best['n'])} data sets), "
                f"{_name(best['method'])} ranks first on accuracy (average rank "
                f"{best['average_rank']:.2f}"
                + (f", tied with {', '.join(ties)}" if ties else "")
                + ")."
            )
    front = fronts.get("accuracy")
    if front is not None and front["front"].any():
        on = front[front["front"]].sort_values("fit_time")
        fast, top = on.index[0], on["score"].idxmax()
        out.append(
            f"On a time budget, the fastest method on the accuracy–time Pareto front is "
            f"{_name(fast)} (geometric-mean fit time {on.loc[fast, 'fit_time']:.3g} s, mean "
            f"accuracy {on.loc[fast, 'score']:.4f}); the most accurate one on it, {_name(top)}, "
            f"takes {on.loc[top, 'fit_time']:.3g} s for {on.loc[top, 'score']:.4f}."
        )
    if bayes is not None and len(bayes):
        leader, rope = bayes.attrs["leader"], bayes.attrs["rope"]
        equiv = bayes[bayes["p_equivalent"] > 0.5].sort_values("p_equivalent", ascending=False)
        better = bayes[bayes["p_leader_better"] > 0.95]
        if len(equiv):
            listing = ", ".join(
                f"{_name(m)} (P = {p:.2f})" for m, p in equiv["p_equivalent"].head(5).items()
            )
            out.append(
                f"{_name(leader)} is probably practically equivalent (within ±{rope:g} "
                f"accuracy) to {listing}: any of these will do as well."
            )
        out.append(
            f"{_name(leader)} is better than {len(better)} of the {len(bayes)} other methods "
            f"with posterior probability above 0.95 (Bayesian signed-rank, rope ±{rope:g})."
        )
    return out


def claims_section(records: pd.DataFrame, report_cfg) -> str:
    """The papers' claims of superiority (``<paths.published>/nb_benchmark/claims.yaml``), each
    with its rule's verdict and evidence on these records; empty without the file."""
    from repro.report.claims.engine import Evidence, Verdict, decide, read_claims

    path = report_cfg.get("claims_file")
    if path is None and report_cfg.get("paths") is not None:
        path = Path(report_cfg["paths"].published) / EXPERIMENT / "claims.yaml"
    if path is None or not Path(path).is_file():
        return ""
    evidence = Evidence(".")
    evidence._cache[EXPERIMENT] = records
    lines = [
        "\n## The papers' claims of superiority, against the other papers' methods\n\n",
        "Each paper's sentence, quoted verbatim (`experiments/nb_benchmark/claims.yaml`), "
        "decided by its rule (`repro.report.papers.nb_benchmark.claims`) on these records; on our "
        "data sets, not the papers'.\n\n",
    ]
    for claim in read_claims(path):
        try:
            v = decide(claim, evidence)
        except (ValueError, KeyError, IndexError, ZeroDivisionError) as exc:
            v = Verdict("not testable", f"not decidable on these records ({exc})")
        lines.append(
            f"- **{claim.section}**: “{claim.quote}” — **{v.verdict}** "
            f"({claim.rule}). {v.evidence}\n"
        )
    return "".join(lines)


# --- the report ---------------------------------------------------------------------------
def benchmark(records: pd.DataFrame, out_dir, report_cfg) -> list[Path]:
    """Write the benchmark's report (module docstring); returns the written paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    methods = [m for m in report_cfg.get("methods") or sorted(records["method"].unique())]
    datasets, bound = sweep_plan(report_cfg, methods, EXPERIMENT)
    metrics = [m for m in report_cfg.get("metrics") or list(lb.METRICS)]
    metrics = [m for m in metrics if (records["metric"] == m).any()]
    min_share = float(report_cfg.get("min_share", 0.5))
    records = records[records["method"].isin(methods) & records["dataset"].isin(datasets)]
    if bound:  # the bound's cells are not in the plan: their records, if any, are not ranked
        cell = pd.MultiIndex.from_frame(records[["method", "dataset"]])
        records = records[~cell.isin(list(bound))]
    written: list[Path] = []

    fails = lb.failures(records_folder(out_dir, report_cfg))
    late = lb.dnf_cells(records)
    if len(late):
        rows = late.assign(
            status="dnf",
            folds_done=late["folds"] - late["dnf_folds"],
            error=[
                f"{int(k)} of {int(n)} folds stopped at the time budget (ran {t:.0f} s)"
                for k, n, t in zip(late["dnf_folds"], late["folds"], late["ran_s"], strict=True)
            ],
            file="records",
        )
        fails = pd.concat([fails, rows[fails.columns]], ignore_index=True)
    fails = fails[fails["method"].isin(methods)].sort_values(["dataset", "method"])
    kept = [(m, d) not in bound for m, d in zip(fails["method"], fails["dataset"], strict=True)]
    fails = fails[np.array(kept, dtype=bool)]  # a boolean mask, also when there is no row
    n_folds = int(report_cfg.get("n_folds", 10))
    comp = lb.completeness(records, methods, datasets, n_folds, fails, excluded=bound)
    write_csv(comp, out_dir / "completeness.csv")
    write_csv(fails, out_dir / "failures.csv", index=False)
    written += [out_dir / "completeness.csv", out_dir / "failures.csv"]

    title = report_cfg.get("title", "Head-to-head benchmark")
    text = [f"# {title}\n\n"]
    if report_cfg.get("caveat"):
        text.append(f"{report_cfg['caveat']}\n\n")
    if report_cfg.get("substitutes"):
        subs = [d for d in report_cfg["substitutes"] if d in datasets]
        text.append(
            f"Substitutes among the {len(datasets)} planned data sets (another form of a "
            f"paper's set, or a stand-in): {', '.join(subs)}.\n\n"
        )
    text.append(completeness_section(comp, fails, report_cfg.get("bound"), bound))
    if report_cfg.get("left_out"):
        text.append("\n### Data sets left out of the plan\n\n")
        text += [f"- {k}: {v}\n" for k, v in dict(report_cfg["left_out"]).items()]

    boards = {}
    for metric in metrics:
        board = lb.leaderboard(records, metric, methods, min_share)
        if not board["ranked"].any():
            continue
        boards[metric] = board
        write_csv(board.rename_axis("method"), out_dir / f"leaderboard_{metric}.csv")
        written.append(out_dir / f"leaderboard_{metric}.csv")
    text.append("\n## Leaderboards\n\n")
    if not boards:
        text.append("No metric has a complete block of two methods on a data set yet.\n")
    text += [leaderboard_section(b, m) + "\n" for m, b in boards.items()]

    text.append("\n## Friedman tests and critical-difference diagrams\n\n")
    friedman_p: dict[str, float] = {}
    for metric in report_cfg.get("cd_metrics") or ["accuracy", "auc", "compression_rate"]:
        if metric in boards:
            line, paths, p = compare_section(records, boards[metric], metric, out_dir)
            text.append(line)
            written += paths
            friedman_p[metric] = p

    bayes = None
    if "accuracy" in boards:
        text.append("\n## The accuracy leader against every other method\n\n")
        rope = float(report_cfg.get("rope", 0.01))
        section, bayes = bayesian_section(
            records, boards["accuracy"], rope, int(report_cfg.get("nsamples", 50000))
        )
        text.append(section)
        if bayes is not None:
            write_csv(bayes, out_dir / "bayesian_accuracy.csv")
            written.append(out_dir / "bayesian_accuracy.csv")

    paths, fronts = pareto_figure(records, boards, out_dir)
    if paths:
        written += paths
        text.append(
            "\n## Accuracy and compression rate against fit time\n\n![Pareto](pareto.png)\n\n"
        )
        for metric, front in fronts.items():
            on = front[front["front"]].sort_values("fit_time")
            listing = ", ".join(
                f"{_name(m)} ({r.fit_time:.3g} s, {r.score:.4f})" for m, r in on.iterrows()
            )
            text.append(f"Pareto front of {TITLES[metric]}: {listing}.\n\n")

    kinds = lb.dataset_kinds(datasets, records)
    kind_table = None
    if "accuracy" in boards:
        kind_table = lb.by_kind(records, "accuracy", kinds, methods, min_share)
        write_csv(kind_table, out_dir / "by_kind.csv", index=False)
        written.append(out_dir / "by_kind.csv")
        text += ["\n## By kind of data\n\n", kind_section(kinds, kind_table, "accuracy")]

    sentences = which_method_when(boards, kind_table, fronts, bayes, friedman_p)
    text.append("\n## Which method when\n\n")
    text.append(
        "Generated from the numbers above (each sentence cites the number it rests on); "
        "they hold for these data sets and this store"
        + (" (incomplete: see the top)" if comp.loc["all", "done"] < comp.loc["all", "planned"]
           else "") + ".\n\n"
    )  # fmt: skip
    text += [f"- {s}\n" for s in sentences] or ["- Not enough records yet.\n"]
    text.append(claims_section(records, report_cfg))
    if report_cfg.get("notes"):
        text.append("\n## Notes\n\n")
        text += [f"- {n}\n" for n in report_cfg["notes"]]
    md = out_dir / "LEADERBOARD.md"
    write_text(md, "".join(text))
    return [md, *written]
