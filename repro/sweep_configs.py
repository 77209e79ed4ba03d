"""The configurations of a sweep's jobs from one Hydra composition per swept value, not per job.

A sweep is a grid: every job gives each override key one of its values. Changing one key
(``method=nb`` → ``method=nb_ef``) changes some parts of the composed configuration (the
``method`` node, the ``method`` choice); when the keys change disjoint parts, a job's
configuration is the first job's with each key's parts taken from the composition where only
that key changed. Keys whose parts overlap (``method=...`` and ``method.gamma=...``) are composed
together, one composition per combination of their values. One job is composed in full and
compared with its assembly: when they differ (a composition that is not made of parts), every job
is composed.

For 7 methods × 25 data sets that is 32 compositions instead of 175; what Hydra would
compose for each job is what :func:`job_configs` returns (the ``hydra`` node aside: a job's
``choices`` and ``overrides`` are given beside its configuration).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from omegaconf import DictConfig, OmegaConf

#: the parts of a composed configuration that stand for its config group choices
_CHOICE = "hydra.runtime.choices."


@dataclass(frozen=True)
class JobConfig:
    """A job's configuration without its ``hydra`` node: ``config``; the config group choices
    Hydra made for it (``hydra.runtime.choices``); its task overrides (``hydra.overrides.task``:
    the job's overrides but Hydra's own)."""

    config: DictConfig
    choices: dict
    overrides: list[str]


def _parts(cfg: DictConfig) -> dict:
    """The top-level nodes of a composed configuration (unresolved) and its group choices."""
    content = OmegaConf.to_container(cfg, resolve=False)
    hydra = content.pop("hydra", None) or {}
    choices = (hydra.get("runtime") or {}).get("choices") or {}
    return {**content, **{f"{_CHOICE}{k}": v for k, v in choices.items()}}


def _is_hydra(override: str) -> bool:
    key = override.partition("=")[0].lstrip("+~")
    return key.startswith(("hydra.", "hydra/")) or key == "hydra"


def _job_config(parts: dict, job: Sequence[str], keep: Callable[[str], bool]) -> JobConfig:
    content = {k: v for k, v in parts.items() if not k.startswith(_CHOICE) and keep(k)}
    choices = {k[len(_CHOICE) :]: v for k, v in parts.items() if k.startswith(_CHOICE)}
    overrides = [o for o in job if not _is_hydra(o)]
    return JobConfig(OmegaConf.create(content), choices, overrides)


def job_configs(
    compose: Callable[[list[str]], DictConfig],
    jobs: Sequence[Sequence[str]],
    keys: Sequence[str] | None = None,
) -> list[JobConfig | None]:
    """The configuration of each job of a grid (each a list of overrides, the same keys in the
    same order); ``compose(overrides)``: Hydra's composition of one job. None for a job whose
    configuration could not be composed (Hydra reports the error when it launches it).
    ``keys``: the top-level keys the caller reads (default: all); the others are left out,
    unless an interpolation may refer to them."""
    jobs = [list(job) for job in jobs]
    if not jobs:
        return []
    width = len(jobs[0])
    if any(len(job) != width for job in jobs):
        raise ValueError("the jobs of a sweep must give the same keys in the same order")
    composed: dict[tuple, dict | None] = {}

    def parts_of(job) -> dict | None:
        key = tuple(job)
        if key not in composed:
            try:
                composed[key] = _parts(compose(list(job)))
            except Exception:  # a composition error: Hydra reports it for the job
                composed[key] = None
        return composed[key]

    base = jobs[0]
    if parts_of(base) is None:
        return [None] * len(jobs)
    dims = [i for i in range(width) if len({job[i] for job in jobs}) > 1]
    groups = _groups(dims, base, jobs, parts_of)
    combos = {g: sorted({tuple(job[i] for i in g) for job in jobs}) for g in groups}

    def varied(group, values) -> list[str]:
        job = list(base)
        for i, value in zip(group, values, strict=True):
            job[i] = value
        return job

    def assembled(job) -> dict | None:
        parts = dict(parts_of(base))
        for group, changed in groups.items():
            other = parts_of(varied(group, [job[i] for i in group]))
            if other is None:
                return None
            for key in changed:
                if key in other:
                    parts[key] = other[key]
                else:
                    parts.pop(key, None)
        return parts

    build = assembled
    if sum(len(c) for c in combos.values()) >= len(jobs):  # nothing to save: each job composed
        build = parts_of
    elif assembled(jobs[-1]) != parts_of(jobs[-1]):  # the farthest from the base: all varied
        build = parts_of  # not made of parts: each job composed
    every = [build(job) for job in jobs]
    keep = _kept(keys, [p for p in (*composed.values(), *every) if p is not None])
    return [
        None if p is None else _job_config(p, job, keep) for p, job in zip(every, jobs, strict=True)
    ]


def _kept(keys, configs: list[dict]) -> Callable[[str], bool]:
    """Which top-level keys a job's configuration keeps: ``keys`` and those whose name an
    interpolation of a kept key mentions (repeatedly), in any of ``configs``."""
    if keys is None:
        return lambda key: True
    names = {k for parts in configs for k in parts if not k.startswith(_CHOICE)}
    kept, todo = set(), set(keys)
    while todo:
        kept |= todo
        texts = {t for parts in configs for k in todo if k in parts for t in _texts(parts[k])}
        todo = {
            name
            for name in names - kept
            if any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", t) for t in texts)
        }
    return kept.__contains__


def _texts(node) -> list[str]:
    """The strings of a node that hold an interpolation."""
    if isinstance(node, dict):
        return [t for v in node.values() for t in _texts(v)]
    if isinstance(node, list):
        return [t for v in node for t in _texts(v)]
    return [node] if isinstance(node, str) and "${" in node else []


def _groups(dims, base, jobs, parts_of) -> dict[tuple, set]:
    """The swept positions grouped so that no two groups change the same part: position →
    the parts its values change (relative to the base job), merged while they overlap."""
    changed = {}
    for i in dims:
        keys = set()
        for value in sorted({job[i] for job in jobs} - {base[i]}):
            job = list(base)
            job[i] = value
            parts = parts_of(job)
            if parts is None:
                continue  # the jobs with this value are left for Hydra to report
            base_parts = parts_of(base)
            keys |= {
                k for k in base_parts.keys() | parts.keys() if base_parts.get(k) != parts.get(k)
            }
        changed[(i,)] = keys
    merged = True
    while merged:
        merged = False
        for a, b in itertools.combinations(list(changed), 2):
            if changed[a] & changed[b]:
                changed[tuple(sorted(a + b))] = changed.pop(a) | changed.pop(b)
                merged = True
                break
    return changed


__all__ = ["JobConfig", "job_configs"]
