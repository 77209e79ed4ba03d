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

The runs of a sweep (``hydra.sweeper.runs``, :func:`with_runs`) give each job of the grid once
per method configuration, methods with parameters of their own: jobs of several key lists, each
list one grid.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from omegaconf import DictConfig, ListConfig, OmegaConf

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
    """The configuration of each job of a sweep (each a list of overrides; the jobs that give
    the same keys in the same order are one grid, composed by parts: the runs of a sweep make
    several); ``compose(overrides)``: Hydra's composition of one job. None for a job whose
    configuration could not be composed (Hydra reports the error when it launches it).
    ``keys``: the top-level keys the caller reads (default: all); the others are left out,
    unless an interpolation may refer to them."""
    jobs = [list(job) for job in jobs]
    if not jobs:
        return []
    shapes = [tuple(o.partition("=")[0] for o in job) for job in jobs]
    if len(set(shapes)) > 1:  # the runs of a sweep (hydra.sweeper.runs): one grid per key list
        out: list[JobConfig | None] = [None] * len(jobs)
        for shape in dict.fromkeys(shapes):
            places = [i for i, s in enumerate(shapes) if s == shape]
            grid = job_configs(compose, [jobs[i] for i in places], keys)
            for i, config in zip(places, grid, strict=True):
                out[i] = config
        return out
    width = len(jobs[0])
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


#: a string an override gives unquoted (and Hydra reads back as that string)
_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
#: bare words Hydra reads as another type
_WORDS = {"true", "false", "null", "inf", "nan"}
#: an example of ``hydra.sweeper.runs``, for the messages
_RUNS_EXAMPLE = (
    "[{method: snb_cma}, {method: wnb_opt, params: {p: 0.95}, sweep: {lambda_: [0.25, 1.0]}}]"
)


def override_value(value) -> str:
    """``value`` as Hydra override text that reads back as ``value`` (``0.25``, ``sg_cf``,
    ``true``, ``null``, ``[1,2]``, ``{a:1}``; a string Hydra would read otherwise is quoted)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return repr(float(value))
    if isinstance(value, str):
        if _BARE.fullmatch(value) and value.lower() not in _WORDS:
            return value
        # Hydra's quoted strings: a quote escaped, and the backslashes before it or the end
        text = re.sub(r"(\\*)('|$)", lambda m: m[1] * 2 + ("\\'" if m[2] else ""), value)
        return f"'{text}'"
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{k}:{override_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Sequence):
        return "[" + ",".join(override_value(v) for v in value) + "]"
    raise ValueError(f"{value!r} cannot be written as a Hydra override value")


def run_overrides(method: str, params: Mapping) -> list[str]:
    """The overrides of a method with parameters: ``method=M method.K=V ...`` (each ``K`` a key
    of the method's configuration, ``conf/method/M.yaml``, as on the command line)."""
    return [f"method={method}", *(f"method.{k}={override_value(v)}" for k, v in params.items())]


def expand_runs(runs) -> list[tuple[str, dict]]:
    """``[(method, params)]`` of a sweep's runs (``hydra.sweeper.runs``): each run ``{method,
    params, sweep}`` gives one (method, params) per point of the cartesian product of its
    ``sweep`` lists, in order; one with the overrides of an earlier one is dropped. Values are
    kept as written (``lambda_: 1`` is an integer, as ``method.lambda_=1`` of a multirun).
    A malformed run is a ValueError with an example."""
    if isinstance(runs, DictConfig | ListConfig):
        runs = OmegaConf.to_container(runs, resolve=True)
    if not isinstance(runs, Sequence) or isinstance(runs, str):
        raise ValueError(f"hydra.sweeper.runs must be a list of runs, e.g. {_RUNS_EXAMPLE}")
    out, seen = [], set()
    for run in runs:
        params, sweep = _run_parts(run)
        keys = list(sweep)
        for values in itertools.product(*(sweep[k] for k in keys)):
            item = (str(run["method"]), {**params, **dict(zip(keys, values, strict=True))})
            text = tuple(run_overrides(*item))
            if text not in seen:
                seen.add(text)
                out.append(item)
    return out


def _run_parts(run) -> tuple[dict, dict]:
    """(params, sweep) of one run, checked."""
    fine = isinstance(run, Mapping) and isinstance(run.get("method"), str)
    fine = fine and set(run) <= {"method", "params", "sweep"}
    params, sweep = (run.get(k) or {} for k in ("params", "sweep")) if fine else ({}, {})
    fine = fine and isinstance(params, Mapping) and isinstance(sweep, Mapping)
    if not fine or not all(
        isinstance(v, Sequence) and not isinstance(v, str) for v in sweep.values()
    ):
        raise ValueError(
            "each run of hydra.sweeper.runs is {method: NAME, params: {KEY: VALUE}, sweep: "
            f"{{KEY: [VALUES]}}}} (params and sweep optional), e.g. {_RUNS_EXAMPLE}; got {run!r}"
        )
    return dict(params), {k: list(v) for k, v in sweep.items()}


def with_runs(jobs: Sequence[Sequence[str]], runs) -> list[list[str]]:
    """The jobs of a sweep with runs (:func:`expand_runs`): each job once per (method, params),
    its overrides followed by the run's (:func:`run_overrides`), all runs of a job before the
    next job's. A job that chooses ``method=NAME`` keeps the runs of that method. No runs: the
    jobs as they are."""
    expanded = expand_runs(runs or [])
    if not expanded:
        return [list(job) for job in jobs]
    out = []
    for job in jobs:
        chosen = [o.partition("=")[2] for o in job if o.partition("=")[0] == "method"]
        rest = [o for o in job if o.partition("=")[0] != "method"]
        picked = [(m, p) for m, p in expanded if not chosen or m == chosen[-1]]
        if not picked:
            names = ", ".join(dict.fromkeys(m for m, _ in expanded))
            raise ValueError(
                f"method={chosen[-1]}: no run of hydra.sweeper.runs has this method (its runs' "
                f"methods: {names})"
            )
        out += [[*rest, *run_overrides(m, p)] for m, p in picked]
    return out


__all__ = [
    "JobConfig",
    "expand_runs",
    "job_configs",
    "override_value",
    "run_overrides",
    "with_runs",
]
