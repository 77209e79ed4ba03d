"""The command line of ``python -m repro.report compare``: its arguments (one table, the source of
the usage line, of ``--help`` and of the checks), their reading, and the dispatch to the tests:
:mod:`repro.report.compare` (``test=frequentist``, ``test=bayesian``: over data sets) and
:mod:`repro.report.fold_tests` (``test=paired``, ``test=wilcoxon``: over the folds of each data
set, what a single data set allows).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import numpy as np

from repro.report.compare import (
    by_configuration,
    compare_bayesian,
    compare_records,
    default_out,
)
from repro.report.escape import terminal_text
from repro.report.fold_tests import FOLD_TESTS, compare_folds
from repro.stats.bayesian import HIERARCHICAL_OPTIONS
from repro.stats.posthoc import CORRECTIONS

#: the values of ``test=``
TESTS = ("frequentist", "bayesian", *FOLD_TESTS)

#: every argument of ``compare``: name → (default, what it is); the one source of the usage line,
#: of ``--help`` and of the checks of the arguments
OPTIONS = {
    "results": ("(required)", "folder of records (any, e.g. results/boulle2007_table3)"),
    "metric": (
        "(required)",
        "accuracy, auc, compression_rate, error, brier, ece, ... (test split)",
    ),
    "test": (
        "frequentist",
        "frequentist (ranks, Friedman, post-hoc) | bayesian (baycomp) | paired (t-test W/L over "
        "the folds of each data set) | wilcoxon (signed-rank over the folds)",
    ),
    "methods": ("all", "comma-separated method ids or configuration labels (nb_ef__n_bins=3)"),
    "higher_is_better": ("from the metric", "true | false"),
    "out": ("compare/<results name>", "output folder"),
    "split": ("test", "the split of the records (test | train | all)"),
    "correction": ("bergmann", " | ".join(CORRECTIONS) + " (frequentist)"),
    "alpha": ("0.05", "level of the CD diagram (frequentist), of each test (paired, wilcoxon)"),
    "monotone": ("false", "monotone adjusted p-values (frequentist)"),
    "cap": ("true", "adjusted p-values capped at 1 (frequentist)"),
    "reference": (
        "the experiment's",
        "the method compared with every other (bayesian, paired, wilcoxon; else the first)",
    ),
    "rope": ("0.01", "region of practical equivalence, in the metric's units (bayesian)"),
    "seed": ("0", "seed of the posterior samples (bayesian)"),
    "nsamples": ("50000", "posterior samples (bayesian)"),
    "hierarchical": ("false", "add the hierarchical t-test over folds, needs pystan (bayesian)"),
    **{
        f"hierarchical.{name}": ("", "option of the hierarchical test (bayesian)")
        for name in HIERARCHICAL_OPTIONS
    },
}
USAGE = "usage: python -m repro.report compare results=DIR metric=NAME [KEY=VALUE ...]"


def help_text() -> str:
    """``python -m repro.report compare --help``: every argument, its default, what it is."""
    lines = [USAGE, "", "Arguments (KEY=VALUE):"]
    for key, (default, text) in OPTIONS.items():
        if key.startswith("hierarchical."):
            continue
        lines.append(f"  {key:<17} {text}" + (f"  [default: {default}]" if default else ""))
    lines.append(f"  hierarchical.X    X in {', '.join(HIERARCHICAL_OPTIONS)} (bayesian)")
    return "\n".join(lines)


_KEYS = set(OPTIONS)
_FREQUENTIST_KEYS = {"correction", "alpha", "monotone", "cap"}
#: the keys that apply to each test (the shared ones aside)
_BAYESIAN_KEYS = {"rope", "reference", "seed", "nsamples", "hierarchical"} | {
    f"hierarchical.{name}" for name in HIERARCHICAL_OPTIONS
}


def parse_overrides(args: list[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` → ``{"a": "1", "b": "x"}``; a leading ``+`` is accepted (Hydra)."""
    out = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        key = key.lstrip("+").strip()
        if not sep or not key:
            raise ValueError(f"expected key=value, got {arg!r}\n{USAGE}")
        out[key] = value.strip()
    return out


def _as_bool(key: str, value: str | bool | None) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off"):
        return False
    if text in ("", "null", "none", "auto"):
        return None
    raise ValueError(f"{key} must be true or false, got {value!r}")


def _number(key: str, value: str, kind=float):
    try:
        return kind(value)
    except (TypeError, ValueError):
        name = "an integer" if kind is int else "a number"
        raise ValueError(f"{key} must be {name}, got {value!r}") from None


def experiment_reference(results) -> str | None:
    """The reference method of the experiment whose results folder ``results`` is (its
    ``report.bayesian.reference``), None for any other folder."""
    from repro.config import experiment_config, experiment_names

    name = Path(results).resolve().name
    if name not in experiment_names():
        return None
    report = experiment_config(name).get("report") or {}
    return (report.get("bayesian") or {}).get("reference")


def _bayesian_options(kv: dict[str, str]) -> dict:
    """The keyword arguments of :func:`run_bayesian` from the command line's ``key=value``."""
    rope = _number("rope", kv.get("rope", "0.01"))
    if not np.isfinite(rope) or rope < 0:
        raise ValueError(f"rope must be a finite number >= 0 (in the metric's units), got {rope}")
    seed = _number("seed", kv.get("seed", "0"), int)
    nsamples = _number("nsamples", kv.get("nsamples", "50000"), int)
    hopts = {}
    for name in HIERARCHICAL_OPTIONS:
        key = f"hierarchical.{name}"
        if key in kv:
            kind = int if name in ("runs", "chains", "nsamples") else float
            hopts[name] = _number(key, kv[key], kind)
    use_hierarchical = bool(_as_bool("hierarchical", kv.get("hierarchical", "false")))
    if hopts and not use_hierarchical:
        raise ValueError(f"{sorted(hopts)} given without hierarchical=true")
    return dict(
        reference=kv.get("reference") or None,
        rope=rope,
        seed=seed,
        nsamples=nsamples,
        hierarchical_test=use_hierarchical,
        hierarchical_options=hopts,
    )


def main(args: list[str]) -> int:
    """Entry point of ``python -m repro.report compare key=value ...``."""
    if any(a in ("--help", "-h") for a in args):
        print(help_text())
        return 0
    try:
        kv = parse_overrides(args)
        unknown = sorted(set(kv) - _KEYS)
        if unknown:
            close = difflib.get_close_matches(unknown[0], sorted(_KEYS), n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise ValueError(f"unknown argument(s) {unknown}.{hint} Allowed: {sorted(_KEYS)}")
        test = kv.get("test", "frequentist").strip().lower()
        if test not in TESTS:
            raise ValueError(f"test must be one of {list(TESTS)}, got {kv['test']!r}")
        applies = {
            "frequentist": _FREQUENTIST_KEYS,
            "bayesian": _BAYESIAN_KEYS,
        }.get(test, {"alpha", "reference"})
        misplaced = sorted(set(kv) & ((_FREQUENTIST_KEYS | _BAYESIAN_KEYS) - applies))
        if misplaced:
            raise ValueError(f"argument(s) {misplaced} do not apply to test={test}")
        for key in ("results", "metric"):
            if not kv.get(key):
                raise ValueError(f"missing {key}=...")
        bayesian = _bayesian_options(kv) if test == "bayesian" else None
        from repro.evaluation.records import read_records

        results = Path(kv["results"])
        if bayesian is not None and bayesian["reference"] is None:
            bayesian["reference"] = experiment_reference(results)
        if not results.exists():
            raise ValueError(f"results directory {results} does not exist")
        from repro.evaluation.predictions import with_prediction_metrics

        records = with_prediction_metrics(read_records(results))  # metrics the records predate
        split = kv.get("split", "test")
        split = None if split.lower() in ("", "none", "null", "all") else split
        methods = [m.strip() for m in kv.get("methods", "").split(",") if m.strip()] or None
        higher_is_better = _as_bool("higher_is_better", kv.get("higher_is_better"))
        if test in FOLD_TESTS:
            labelled = by_configuration(records)
            names = list(dict.fromkeys(labelled["method"]))
            reference = kv.get("reference") or experiment_reference(results) or names[0]
            paths = compare_folds(
                labelled if not methods else labelled[labelled["method"].isin(methods)],
                metric=kv["metric"],
                test=test,
                reference=reference,
                out=kv.get("out") or default_out(results),
                alpha=_number("alpha", kv.get("alpha", "0.05")),
                higher_is_better=higher_is_better,
                split=split,
                echo=True,
            )
        elif bayesian is not None:
            paths = compare_bayesian(
                records,
                metric=kv["metric"],
                out=kv.get("out") or default_out(results),
                higher_is_better=higher_is_better,
                split=split,
                methods=methods,
                echo=True,
                **bayesian,
            )
        else:
            alpha = float(kv.get("alpha", 0.05))
            if not 0 < alpha < 1:
                raise ValueError(f"alpha must be in (0, 1), got {alpha}")
            paths = compare_records(
                records,
                metric=kv["metric"],
                correction=kv.get("correction", "bergmann"),
                out=kv.get("out") or default_out(results),
                higher_is_better=higher_is_better,
                alpha=alpha,
                split=split,
                monotone=bool(_as_bool("monotone", kv.get("monotone", "false"))),
                cap=_as_bool("cap", kv.get("cap", "true")) is not False,
                methods=methods,
                echo=True,
            )
    except (ValueError, FileNotFoundError, ImportError) as err:
        print(f"error: {terminal_text(err)}\n{USAGE} (--help: every argument)", file=sys.stderr)
        return 2
    except OSError as err:  # a read-only or full output folder: one line
        from repro.datasets.exit_codes import unwritable_message

        if unwritable_message(err) is None:
            raise
        print(f"error: {unwritable_message(err)}", file=sys.stderr)
        return 1
    print("\nWrote:")
    for p in paths:
        print(f"  {p}")
    return 0
