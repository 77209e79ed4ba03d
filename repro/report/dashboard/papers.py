"""The headline of each paper on the dashboard, from the rows (:mod:`.build`) as records:

- items reproduced / total: the paper's tables and figures of results (the ``items`` of its
  ``experiments/<paper>/paper.yaml``, :func:`~repro.report.paper_data.paper_metadata`); an item
  is reproduced when the results folder holds the records of its experiment. The other
  experiments of a paper are variants (another setting of one of its items) and count for no
  item nor number;
- published numbers compared / within the stated rule: the sums over the items' experiments of
  :func:`~repro.report.dashboard.inputs.published_comparison` (each number once);
- claims holding / partly / not / not testable: every claim of the paper's ``claims.yaml``, and
  the same counts apart for the claims decided on the paper's own data and on stand-ins
  (``claims_by_data``): a stand-in verdict is about our data, not the paper's;
- other readings of an item (``readings``): a variant whose config gives ``report.reading`` (why
  it is at least as faithful a reading of the paper, e.g. boulle2007 Table 3 with Khiops' output
  shrink) has its published numbers counted beside the item's, never added to them;
- the values flagged (:func:`~repro.report.dashboard.points.value_flags`), each once, and the
  lines that show them (:func:`flag_lines`: one line for a data set where every method
  collapses; the counts stay those of the values);
- one figure of the published against the reproduced numbers (:func:`draw_paper_figure`).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from repro.report.claims.engine import VERDICTS
from repro.report.dashboard.inputs import FIGURES
from repro.report.figure_files import save_figure
from repro.report.paper_data import paper_metadata, papers

#: the colour of each verdict (the page's badges and the figures' points)
VERDICT_COLOURS = {
    "holds": "#1a7f37",
    "partly": "#d4a017",
    "does not hold": "#cf222e",
    "not testable": "#8c959f",
}
#: the colour of a published number by its rule's verdict (agrees, disagrees, not decided)
AGREES_COLOURS = {True: "#1a7f37", False: "#cf222e", None: "#8c959f"}


def item_experiments(paper: str) -> set[str]:
    """The experiments that recreate the paper's items."""
    return {i["experiment"] for i in paper_metadata(paper)["items"] if i["experiment"]}


def paper_summaries(dashboard: dict) -> list[dict]:
    """One headline record per paper of :func:`~repro.report.paper_data.papers` on the dashboard
    (module docstring)."""
    rows = {r["experiment"]: r for r in dashboard["experiments"]}
    out = []
    for paper in papers():
        own = [r for r in dashboard["experiments"] if r["paper"] == paper]
        if not own:
            continue
        primary = [r for r in own if r["experiment"] in item_experiments(paper)]
        metadata = paper_metadata(paper)
        items = []
        for i in metadata["items"]:
            present = i["experiment"] in rows
            items.append(
                {
                    "item": i["item"],
                    "experiment": i["experiment"],
                    "reproduced": present and rows[i["experiment"]]["used"] > 0,
                    "why": i["why"] or ("" if present else "not in this results folder"),
                }
            )
        values = [r["values"] for r in primary if r["values"]]
        claims = [c for r in own for c in r["claims"]]
        claims += (dashboard.get("paper_claims") or {}).get(paper, [])
        counts = Counter(c["verdict"] for c in claims)
        by_data = {
            data: {v: sum(c["verdict"] == v and c.get("data", "paper") == data for c in claims)
                   for v in VERDICTS}
            for data in ("paper", "stand-in")
        }  # fmt: skip
        flags = paper_flags(own)
        points = paper_points(primary)
        out.append(
            {
                "paper": paper,
                "title": metadata["title"],
                "items": items,
                "items_reproduced": sum(i["reproduced"] for i in items),
                "items_total": len(items),
                "variants": sorted(r["experiment"] for r in own if r not in primary),
                "numbers": {key: sum(v.get(key, 0) for v in values) for key in NUMBER_KEYS},
                "has_published": bool(values),
                "claims": {v: counts.get(v, 0) for v in VERDICTS},
                "n_claims": len(claims),
                "claims_by_data": by_data,
                "rests_on": rests_on(primary),
                "readings": readings(own),
                "flags": flags,
                "flag_lines": flag_lines(own, flags),
                "figure": f"{FIGURES}/{paper}_published_vs_reproduced.png" if points else None,
            }
        )
    return out


def rests_on(rows: list[dict]) -> str:
    """What a paper's claims on its own data rest on: "25 of the paper's 30 data sets, 9 of them
    in another form", from the row that uses most of them (``paper_used``: its data sets that
    are the paper's; ``other_form``: those of them in another form, e.g. binarized or a damaged
    copy); empty when no row has records."""
    basis = [r for r in rows if r.get("used")]
    if not basis:
        return ""
    row = max(basis, key=lambda r: r.get("paper_used", r["used"]))
    used, published, other = (
        row.get("paper_used", row["used"]),
        row["published"],
        row.get("other_form", 0),
    )
    if published is None:
        return f"{used} data sets; the paper does not name its own"
    text = f"{used} of the paper's {published} data sets"
    return text + (f", {other} of them in another form" if other else "")


#: the published-number counts a headline sums
NUMBER_KEYS = ("published", "compared", "on_standins", "with_spread", "within")


def readings(rows: list[dict]) -> list[dict]:
    """The rows that are another reading of an item (``reading``: why), with their counts."""
    return [
        {
            "experiment": r["experiment"],
            "reading": r["reading"],
            "numbers": {key: (r["values"] or {}).get(key, 0) for key in NUMBER_KEYS},
        }
        for r in rows
        if r.get("reading")
    ]


def paper_points(rows: list[dict]) -> list[dict]:
    """The published numbers of ``rows`` that have a reproduced value (the figure's points)."""
    return [
        p
        for r in rows
        if r["values"]
        for p in r["values"].get("points", [])
        if p["reproduced"] is not None
    ]


def paper_flags(rows: list[dict]) -> list[dict]:
    """The flags of a paper's rows, each once, with the experiments where it occurs."""
    seen: dict[tuple, dict] = {}
    for row in rows:
        for flag in row.get("flags") or []:
            key = (flag["kind"], flag["dataset"], flag["method"], flag["value"])
            entry = seen.setdefault(key, {**flag, "experiments": []})
            entry["experiments"].append(row["experiment"])
    order = {"collapse": 0, "stand-in": 1, "substitute": 2}
    return sorted(
        seen.values(),
        key=lambda f: (order.get(f["kind"], 3), f["dataset"], f["method"] or ""),
    )


def every_method_collapses(rows: list[dict]) -> set[str]:
    """The data sets on which, in each of ``rows`` that flags a collapse there, every method with
    a test accuracy on it collapses (its collapse flags as many as the flags' ``methods``; a flag
    without ``methods`` decides nothing)."""
    verdict: dict[str, bool] = {}
    for row in rows:
        flagged: dict[str, list[dict]] = {}
        for flag in row.get("flags") or []:
            if flag["kind"] == "collapse":
                flagged.setdefault(flag["dataset"], []).append(flag)
        for dataset, flags in flagged.items():
            every = all(f.get("methods") == len(flags) for f in flags)
            verdict[dataset] = verdict.get(dataset, True) and every
    return {d for d, every in verdict.items() if every}


def flag_lines(rows: list[dict], flags: list[dict]) -> list[dict]:
    """The lines of a paper's values to read with care: its ``flags`` (:func:`paper_flags` of
    its ``rows``) one a line, each with ``shown`` (its value as the page prints it), except that
    the collapses on a data set where every method collapses (:func:`every_method_collapses`,
    two methods or more) are one line: method "every method (N)", the range of their values,
    the experiments of them all. Which values are flagged, and their counts, stay those of
    ``flags``."""
    every = every_method_collapses(rows)
    grouped: dict[str, list[dict]] = {}
    for f in flags:
        if f["kind"] == "collapse" and f["dataset"] in every:
            grouped.setdefault(f["dataset"], []).append(f)
    grouped = {d: g for d, g in grouped.items() if len({f["method"] for f in g}) > 1}
    order = [r["experiment"] for r in rows]
    lines, done = [], set()
    for f in flags:
        if f["kind"] != "collapse" or f["dataset"] not in grouped:
            value = f["value"]
            lines.append({**f, "shown": f"{value:.3f}" if value is not None else f["kind"]})
            continue
        if f["dataset"] in done:
            continue
        done.add(f["dataset"])
        group = grouped[f["dataset"]]
        n = len({g["method"] for g in group})
        low, high = min(g["value"] for g in group), max(g["value"] for g in group)
        shown = f"{low:.3f}" if f"{low:.3f}" == f"{high:.3f}" else f"{low:.3f}–{high:.3f}"
        experiments = {e for g in group for e in g["experiments"]}
        lines.append(
            {
                "kind": "collapse",
                "dataset": f["dataset"],
                "method": f"every method ({n})",
                "value": None,
                "majority": f["majority"],
                "note": f"accuracy {shown} ≤ the majority rate {f['majority']:.3f} for every "
                f"method ({n}): no better than always predicting the most frequent class "
                "(a collapse)",
                "experiments": [e for e in order if e in experiments],
                "shown": shown,
                "flags": len(group),
            }
        )
    return lines


#: panel titles of the kinds of published numbers
PANELS = {"rank": "average ranks", "count": "W/L counts (significant wins, losses)"}


def panels(points: list[dict]) -> dict[str, list[dict]]:
    """The points of a paper's figure by panel: one per metric of its values and means (same
    scale), then average ranks, then W/L counts."""
    out: dict[str, list[dict]] = {}
    for p in points:
        title = PANELS.get(p["kind"], p["metric"])
        out.setdefault(title, []).append(p)
    last = list(PANELS.values())
    return dict(
        sorted(out.items(), key=lambda kv: (last.index(kv[0]) if kv[0] in last else -1, kv[0]))
    )


def draw_paper_figure(summary: dict, points: list[dict], path) -> Path:
    """The published against the reproduced numbers of a paper: one panel per kind of number
    (:func:`panels`), the diagonal, each point coloured by its rule's verdict, a horizontal bar
    over the published values that would agree (a point on its bar agrees; for a mean ± SD over
    runs, the 95% intervals of both means instead); stand-in numbers hollow (never judged),
    substitute data sets as triangles."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    groups = panels(points)
    n = len(groups)
    cols = min(n, 2)
    nrows = -(-n // cols)
    side = 3.6 if cols == 2 else 5.0  # one panel: as wide as two
    fig, axes = plt.subplots(
        nrows, cols, figsize=(side * cols, (side - 0.2) * nrows + 1.0), squeeze=False
    )
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    for ax, (title, group) in zip(axes.ravel(), groups.items()):
        values = [v for p in group for v in _extent(p)]
        lo, hi = min(values), max(values)
        pad = 0.05 * (hi - lo or 1.0)
        ax.plot([lo - pad, hi + pad], [lo - pad, hi + pad], color="#57606a", lw=1, zorder=1)
        for p in group:
            colour = "#8c959f" if p["on_standins"] else AGREES_COLOURS[p["agrees"]]
            x, y = p["published"], p["reproduced"]
            if p["published_low"] is not None:  # a mean ± SD: the intervals of both means
                yerr = [[y - p["low"]], [p["high"] - y]] if p["low"] is not None else None
                xerr = [[x - p["published_low"]], [p["published_high"] - x]]
                ax.errorbar(x, y, yerr=yerr, xerr=xerr, fmt="none", ecolor=colour, alpha=0.6,
                            lw=1, zorder=2)  # fmt: skip
            elif p["low"] is not None:  # the published values that agree: on it, it agrees
                ax.hlines(y, p["low"], p["high"], colors=colour, alpha=0.6, lw=1, zorder=2)
            ax.scatter(
                x,
                y,
                s=30,
                marker="^" if p["substitute"] else "o",
                facecolors="none" if p["on_standins"] else colour,
                edgecolors=colour,
                zorder=3,
            )
        ax.set_xlim(lo - pad, hi + pad)
        ax.set_ylim(lo - pad, hi + pad)
        ax.set_aspect("equal", adjustable="box")
        ax.set_title(f"{title} ({len(group)})", fontsize=10)
        ax.set_xlabel("published")
        ax.set_ylabel("reproduced")
        ax.grid(alpha=0.3)
    legend = [
        Line2D([], [], marker="o", ls="", color=AGREES_COLOURS[True], label="agrees by its rule"),
        Line2D([], [], marker="o", ls="", color=AGREES_COLOURS[False], label="does not agree"),
        Line2D([], [], marker="o", ls="", color=AGREES_COLOURS[None], label="not decided"),
        Line2D([], [], marker="o", ls="", mfc="none", color="#8c959f", label="on stand-ins"),
        Line2D([], [], marker="^", ls="", color="#57606a", label="substitute data set"),
    ]
    fig.legend(handles=legend, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle(
        f"{summary['paper']}: published against reproduced, {len(points)} numbers\n"
        "(bars: the published values that would agree; a mean ± SD: both means' 95% intervals)",
        fontsize=10,
    )
    bottom = 0.9 / fig.get_figheight()
    top = 1 - 0.55 / fig.get_figheight()
    fig.tight_layout(rect=(0, bottom, 1, top))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_figure(fig, path, dpi=80)
    plt.close(fig)
    return path


def _extent(p: dict) -> list[float]:
    out = [p["published"], p["reproduced"]]
    out += [p[k] for k in ("low", "high", "published_low", "published_high") if p[k] is not None]
    return out


def paper_figure_jobs(dashboard: dict, out_dir) -> list[tuple[dict, list[dict], Path]]:
    """(summary, points, path) of every paper with compared numbers: the arguments of
    :func:`draw_paper_figure`, the figure into ``<out_dir>/dashboard/``."""
    rows = dashboard["experiments"]
    jobs = []
    for summary in paper_summaries(dashboard):
        if summary["figure"] is None:
            continue
        primary = item_experiments(summary["paper"])
        points = paper_points([r for r in rows if r["experiment"] in primary])
        jobs.append((summary, points, Path(out_dir) / summary["figure"]))
    return jobs


def draw_paper_figures(dashboard: dict, out_dir) -> list[Path]:
    """The figure of every paper with compared numbers, into ``<out_dir>/dashboard/``."""
    return [draw_paper_figure(*job) for job in paper_figure_jobs(dashboard, out_dir)]
