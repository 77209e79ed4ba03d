"""The two pages of the dashboard, ``README.md`` and ``index.html``, rendered by jinja2 from
the package's templates (``repro/report/templates/dashboard.md.j2``, ``dashboard.html.j2``)
over one context of records (:func:`page_context`): the papers' headlines
(:func:`~.papers.paper_summaries`), their experiments, flagged values, figures and claims, the
Bayesian comparisons and the benchmarks. Links are relative to the output folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import markupsafe

from repro.report.claims.engine import VERDICTS
from repro.report.dashboard.bayesian import ROPE
from repro.report.dashboard.papers import VERDICT_COLOURS, paper_summaries
from repro.report.escape import CONTROL, markdown_cell, markdown_code
from repro.report.paper_data import papers

#: one mark per verdict in the Markdown page (it has no colours)
VERDICT_MARKS = {"holds": "🟢", "partly": "🟠", "does not hold": "🔴", "not testable": "⚪"}


def relative(target: Path, out_dir: Path) -> str:
    """The link from ``out_dir`` to ``target``."""
    return Path(os.path.relpath(target, out_dir)).as_posix()


def ordered(rows: list[dict]) -> list[dict]:
    """The rows by paper (:func:`~repro.report.paper_data.papers`, then the others), then by
    name."""
    rank = {p: i for i, p in enumerate(papers())}
    return sorted(rows, key=lambda r: (rank.get(r["paper"], len(rank)), r["experiment"]))


def _row_view(row: dict, results_dir: Path, out_dir: Path) -> dict:
    """What the pages show of one experiment row."""
    values = row["values"]
    folder = results_dir / row["folder"]
    revision = row["revision"]
    if row["n_revisions"] > 1:
        revision += f" (+{row['n_revisions'] - 1})"
    published = "not named" if row["published"] is None else str(row["published"])
    return {
        **row,
        "datasets": f"{row['used']} / {published}",
        "compared": (
            f"{values['compared']} of {values['published']}"
            + (f" ({values['on_standins']} on stand-ins)" if values.get("on_standins") else "")
            if values
            else "—"
        ),
        "agree": (
            f"{values['within']} of {values['with_spread']}"
            if values and values["with_spread"]
            else "—"
        ),
        "verdicts": {v: sum(c["verdict"] == v for c in row["claims"]) for v in VERDICTS},
        "revision_text": revision,
        "files": [
            {"name": name, "href": relative(folder / name, out_dir)}
            for name in row["links"]
            if not name.endswith(".png")
        ],
        "images": [
            {"name": name, "href": relative(folder / name, out_dir)}
            for name in row["links"]
            if name.endswith(".png")
        ],
    }


def page_context(dashboard: dict, results_dir, out_dir) -> dict:
    """Everything the two templates show, as records."""
    results_dir, out_dir = Path(results_dir), Path(out_dir)
    rows = [_row_view(r, results_dir, out_dir) for r in ordered(dashboard["experiments"])]
    summaries = paper_summaries(dashboard)
    paper_claims = dashboard.get("paper_claims") or {}
    papers = []
    for summary in summaries:
        own = [r for r in rows if r["paper"] == summary["paper"]]
        papers.append(
            {
                **summary,
                "rows": own,
                "claim_groups": [(r["experiment"], r["claims"]) for r in own if r["claims"]]
                + (
                    [("no experiment decides", paper_claims[summary["paper"]])]
                    if paper_claims.get(summary["paper"])
                    else []
                ),
                "images": [{**i, "experiment": r["experiment"]} for r in own for i in r["images"]],
            }
        )
    benchmarks = [
        {**b, "href": relative(results_dir / b["log"], out_dir)} for b in dashboard["benchmarks"]
    ]
    leaderboard = results_dir / "nb_benchmark" / "LEADERBOARD.md"
    return {
        "papers": papers,
        "leaderboard": relative(leaderboard, out_dir) if leaderboard.is_file() else None,
        "others": [r for r in rows if not r["paper"]],
        "bayesian": [r for r in rows if r["bayesian"]],
        "benchmarks": benchmarks,
        "other_results": dashboard.get("other_results") or [],
        "verdicts": VERDICTS,
        "colours": VERDICT_COLOURS,
        "marks": VERDICT_MARKS,
        "rope": ROPE,
        "n_claims": sum(p["n_claims"] for p in papers),
    }


def _md_quote(text) -> str:
    """A paper's words as text: its link and emphasis marks (``[5,](#page-19-0)``) not rendered."""
    return _Inert(markdown_cell(text).replace("[", "\\[").replace("]", "\\]").replace("*", "\\*"))


def _slug(text) -> str:
    return "".join(c if c.isalnum() else "-" for c in str(text).lower()).strip("-")


class _Inert(str):
    """Markdown text already made inert by a filter (not escaped a second time)."""


def _md(text) -> _Inert:
    return _Inert(markdown_cell(text))


def _code(text) -> _Inert:
    return _Inert(markdown_code(text))


def _finalize_markdown(value):
    """Every ``{{ }}`` of a Markdown template made inert (:func:`markdown_cell`) unless a filter
    already did it: a name from the records cannot inject HTML, a table column or a heading."""
    if isinstance(value, _Inert | bool | int | float):
        return value
    return markdown_cell(value)


def _finalize_html(value):
    """Every ``{{ }}`` of the HTML template without control characters (a NUL, an escape
    sequence's ESC from a record's name); Jinja's autoescape then escapes the markup."""
    if isinstance(value, markupsafe.Markup):
        return markupsafe.Markup(CONTROL.sub("", value))
    return CONTROL.sub("", value) if isinstance(value, str) else value


def environment(markdown: bool = False) -> jinja2.Environment:
    """The templates' environment: HTML autoescaped by Jinja; Markdown (``markdown``) with every
    expression made inert (:func:`_finalize_markdown`); filters ``md`` (a table cell), ``quote``
    (a paper's words in Markdown), ``code`` (inside a code span), ``slug`` (an anchor)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("repro.report", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",)),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        finalize=_finalize_markdown if markdown else _finalize_html,
    )
    env.filters.update(md=_md, code=_code, quote=_md_quote, slug=_slug)
    return env


def render_markdown(dashboard: dict, results_dir, out_dir) -> str:
    """README.md of the dashboard; links relative to ``out_dir``."""
    context = page_context(dashboard, results_dir, out_dir)
    return environment(markdown=True).get_template("dashboard.md.j2").render(**context)


def render_html(dashboard: dict, results_dir, out_dir) -> str:
    """index.html of the dashboard (static, inline CSS, no script); links relative to
    ``out_dir``."""
    context = page_context(dashboard, results_dir, out_dir)
    return environment().get_template("dashboard.html.j2").render(**context)
