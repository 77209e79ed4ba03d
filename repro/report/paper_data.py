"""A paper's metadata, read and checked: ``<paths.published>/<paper>/paper.yaml``.

The file holds the paper's reference (``title``), its place on the dashboard (``order``) and its
tables and figures of results (``items``), each with the experiment that recreates it or, with
none, why not (the keys: ``experiments/README.md``). :func:`paper_metadata` refuses any other key
with a ``ValueError`` naming the file, the key, the closest valid key and every valid one, and a
file that lacks a required key or names an experiment that is not in ``conf/experiment/``.
"""

from __future__ import annotations

import copy
import difflib
from functools import cache
from pathlib import Path

import yaml

from repro.config import experiment_names, paths
from repro.report.schema import refuse_unknown_keys

#: key → what it holds, at the top level of paper.yaml
PAPER_KEYS = {
    "title": "the paper's reference, shown on its headline",
    "order": "the paper's place on the dashboard (an integer, 1 first)",
    "items": "the paper's tables and figures of results",
}
#: key → what it holds, in one item of ``items``
ITEM_KEYS = {
    "item": "the table or figure, as the paper names it (Table 3, Fig. 1)",
    "experiment": "the experiment that recreates it, or null",
    "why": "why no experiment recreates it",
}


def check_keys(path: Path, where: str, entry: dict, valid: dict) -> None:
    """Refuse a key of ``entry`` not in ``valid``: a ValueError such as "…/paper.yaml: unknown
    key 'tittle' (did you mean 'title'?); valid keys: items, order, title"."""
    refuse_unknown_keys(str(path), f"{where}key", entry, valid)


def check_item(path: Path, n: int, entry, known: set[str]) -> dict:
    """One item as ``{item, experiment, why}`` (experiment None, why "" when absent)."""
    if not isinstance(entry, dict):
        raise ValueError(f"{path}: item {n} is not a mapping: {entry!r}")
    check_keys(path, "item ", entry, ITEM_KEYS)
    if not entry.get("item"):
        raise ValueError(f"{path}: item {n} has no 'item' (the table or figure it is)")
    experiment, why = entry.get("experiment"), entry.get("why")
    if not experiment and not why:
        raise ValueError(
            f"{path}: item {entry['item']!r} has neither an 'experiment' nor a 'why' (why none)"
        )
    if experiment and experiment not in known:
        close = difflib.get_close_matches(str(experiment), known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(
            f"{path}: item {entry['item']!r}: unknown experiment {experiment!r}{hint}; "
            "an experiment is a config of conf/experiment/"
        )
    return {"item": str(entry["item"]), "experiment": experiment or None, "why": str(why or "")}


@cache
def _read_paper(paper: str, root: Path | None = None) -> dict:
    """The checked metadata of ``paper`` (cached; :func:`paper_metadata` gives a copy)."""
    path = Path(root if root is not None else paths().published) / paper / "paper.yaml"
    if not path.is_file():
        raise ValueError(f"metadata of {paper!r} not found: no file {path}")
    spec = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(spec, dict):
        raise ValueError(f"{path}: not a mapping of {', '.join(PAPER_KEYS)}")
    check_keys(path, "", spec, PAPER_KEYS)
    for key in PAPER_KEYS:
        if key not in spec:
            raise ValueError(f"{path}: no {key!r} ({PAPER_KEYS[key]})")
    if not isinstance(spec["order"], int) or isinstance(spec["order"], bool):
        raise ValueError(f"{path}: 'order' must be an integer, not {spec['order']!r}")
    if not isinstance(spec["items"], list):
        raise ValueError(f"{path}: 'items' must be a list of tables and figures")
    known = set(experiment_names())
    items = [check_item(path, n, entry, known) for n, entry in enumerate(spec["items"], 1)]
    return {"title": str(spec["title"]), "order": spec["order"], "items": items}


def paper_metadata(paper: str, root: Path | None = None) -> dict:
    """``{title, order, items}`` of ``paper``, items as ``{item, experiment, why}``, read from
    ``<root>/<paper>/paper.yaml`` (root: ``paths.published``); a ValueError if it is not valid."""
    return copy.deepcopy(_read_paper(paper, root))


@cache
def papers(root: Path | None = None) -> tuple[str, ...]:
    """The papers with a ``paper.yaml`` under ``root`` (``paths.published``), by ``order``."""
    folder = Path(root if root is not None else paths().published)
    names = [p.parent.name for p in folder.glob("*/paper.yaml")]
    return tuple(sorted(names, key=lambda name: (_read_paper(name, root)["order"], name)))
