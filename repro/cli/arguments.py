"""What ``python -m repro`` says to its user: ``--help``, ``list ...``, and the checks of the
top-level choices and values of a command line, and of the names inside the experiment file it
chooses, each answered in one or two lines with the valid choices (and a did-you-mean), before
Hydra composes anything; and the line for a results folder that cannot be written.

    python -m repro --help
    python -m repro list methods|datasets|experiments|protocols
"""

from __future__ import annotations

import difflib
import errno
import re
from pathlib import Path

from omegaconf import OmegaConf

from repro.config import CONF_DIR, add_config_dir, experiment_names

__all__ = [
    "HELP",
    "LISTS",
    "UsageError",
    "check_experiment_files",
    "check_top_level",
    "close_names",
    "split_config_dirs",
    "unknown_data_sets",
    "use_config_dirs",
    "list_table",
    "resume_hint",
    "results_folder_error",
    "sweep_folder_error",
]

HELP = """\
usage: python -m repro [-m] [KEY=VALUE ...]

Runs one cell (a method on a data set under a protocol) and stores its records, or, with -m, a
sweep of cells (comma-separated values), e.g.

  python -m repro method=cma dataset=waveform
  python -m repro -m method=nb,snb_cma dataset=iris,wine protocol=cv5,cv10
  python -m repro -m method=bma_nb method.gamma=0.5,1.0,1.5 dataset=iris seed=0,1,2
  python -m repro experiment=wu2015_table2          # a paper's experiment (a sweep of its own)

What matters:
  method=ID            the classifier (python -m repro list methods); method.KEY=VALUE its options
                       (every option, its default and meaning: python -m repro list params ID)
  dataset=NAME         the data set (python -m repro list datasets); dataset.KEY=VALUE
  protocol=NAME        how folds are drawn (python -m repro list protocols), default cv10
  experiment=NAME      a paper's table or figure (python -m repro list experiments)
  seed=INT             the base seed of the folds (and of the methods' random choices), default 0
  n_jobs=INT           folds in parallel, default 1 (results do not depend on it)
  timeout=SECONDS      a budget per fold: a fold past it is stopped and recorded as
                       did-not-finish, and the run goes on (default: none)
  results_dir=DIR      where records go: DIR/<experiment>/<data set>/<method>.parquet
                       (default: results)
  force=true           recompute cells whose result file exists (default: read them)
  progress=false       no progress bar
  verbose=true         a sweep prints each cell's summary table (default: one line per cell)
  --config-dir=DIR     your own configs: DIR/method/ID.yaml (a _target_ class of yours),
                       DIR/experiment/NAME.yaml; then method=ID or experiment=NAME as above

An interrupted run keeps every finished fold: the same command resumes it.
Reports: python -m repro.report --help.  Data sets: python -m repro.datasets --help.
Hydra's own help: python -m repro --hydra-help.  The version of repro: python -m repro --version."""

#: what ``python -m repro list`` lists
LISTS = ("methods", "datasets", "experiments", "protocols", "params")

#: top-level keys of conf/config.yaml a user sets, and the type of their value
_TYPED = {"seed": int, "n_jobs": int, "force": bool, "progress": bool, "verbose": bool}
_BOOLEANS = ("true", "false")
#: the integers a typed key takes: (test, what it must be)
_RANGES = {
    "seed": (lambda v: 0 <= v <= 2**32 - 1, "an integer from 0 to 2**32 - 1 = 4294967295"),
    "n_jobs": (lambda v: v >= 1 or v == -1, "an integer ≥ 1, or -1 (one per core)"),
}


class UsageError(Exception):
    """A command line that cannot run (exit code 2, one or two lines, no traceback)."""


def _names(group: str) -> list[str]:
    return sorted(p.stem for p in (CONF_DIR / group).glob("*.yaml"))


def close_names(name: str, valid, n: int = 3) -> list[str]:
    """The valid names closest to ``name``, compared without regard to case (``IRIS`` → ``iris``
    first, then difflib's close matches)."""
    valid = list(valid)
    by_lower: dict[str, list[str]] = {}
    for v in valid:
        by_lower.setdefault(str(v).lower(), []).append(v)
    same = by_lower.get(str(name).lower(), [])
    close = difflib.get_close_matches(str(name).lower(), list(by_lower), n=n)
    out = list(same) + [v for c in close for v in by_lower[c] if v not in same]
    return out[:n]


def _unknown(what: str, name: str, valid: list[str], listing: str) -> UsageError:
    close = close_names(name, valid)
    hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
    return UsageError(f"Unknown {what} {name!r}.{hint}\nValid: {', '.join(valid)} ({listing})")


def top_level_keys() -> list[str]:
    """The keys a command line may set without ``+``: conf/config.yaml's and its groups."""
    keys = [k for k in OmegaConf.load(CONF_DIR / "config.yaml") if k not in ("defaults", "hydra")]
    return sorted({*keys, "method", "dataset", "protocol", "experiment", "paths"})


def check_top_level(args: list[str], experiments: list[str] | None = None) -> None:
    """Every ``KEY=VALUE`` of the command line names a known key (``+KEY`` adds one, ``~KEY``
    removes one, ``hydra.*`` is Hydra's), ``protocol=`` and ``experiment=`` name existing options
    and the typed values parse: else a :class:`UsageError` naming the key and the valid
    choices. ``experiments``: the valid experiment names (default: the package's)."""
    keys = top_level_keys()
    args = split_config_dirs(args)[1]
    for arg in args:
        key, _, value = arg.partition("=")
        if key.lstrip("+") == "experiment":  # the keys an experiment's config adds
            names = override_values(arg)
            names = value.split(",") if names is None else names
            keys = sorted({*keys, *(k for v in names for k in _experiment_keys(v))})
    for arg in args:
        if arg.startswith(("-", "~")) or "=" not in arg:
            continue
        key, _, value = arg.partition("=")
        added = key.startswith("+")
        key = key.lstrip("+")
        root = re.split(r"[./\[]", key, maxsplit=1)[0]
        if root == "hydra":
            continue
        if root not in keys and not added:
            raise _unknown("key", root, keys, "add a new one with +KEY=VALUE")
        values = override_values(arg, names=key in _GROUPS)
        if values is None:  # not Hydra's grammar (a name that is not ASCII): Hydra says so
            values = [v.strip() for v in value.split(",")]
        if key in _GROUPS and _NOT_NAMES in values:
            raise UsageError(
                f"{key}= takes a name ({key}=NAME) or, with -m, names to sweep ({key}=a,b or "
                f"{key}=choice(a,b)), not {value!r}"
            )
        if key not in _TYPED:
            values = [v for v in values if v != _NOT_NAMES]
        if key == "protocol":
            valid = _names("protocol")
            for v in values:
                if v not in valid:
                    raise _unknown("protocol", v, valid, "python -m repro list protocols")
        elif key == "experiment":
            valid = experiments if experiments is not None else experiment_names()
            for v in values:
                if v not in valid:
                    raise _unknown("experiment", v, valid, "python -m repro list experiments")
        elif key in _TYPED:
            for v in values:
                in_range, kind = _RANGES.get(key, (None, "an integer"))
                if _TYPED[key] is bool:
                    kind = "true or false"
                if v == _NOT_NAMES:  # a list, a dictionary, an interval
                    raise UsageError(f"{key} must be {kind}, got {value!r} ({key}={value})")
                if not _parses(v, _TYPED[key]) or (
                    in_range is not None and not v.startswith("${") and not in_range(int(v))
                ):
                    raise UsageError(f"{key} must be {kind}, got {v!r} ({key}={v})")
        elif key == "experiment_name":
            from repro.config import safe_name

            for v in values:
                try:
                    safe_name(v, "experiment_name", folders=True)
                except ValueError as exc:
                    raise UsageError(str(exc)) from exc


#: the config groups a command line chooses by name
_GROUPS = ("method", "dataset", "protocol", "experiment")
#: what :func:`override_values` gives for a value that is not names (a list, a dictionary, an
#: interval)
_NOT_NAMES = "\0"


def override_values(arg: str, names: bool = False) -> list[str] | None:
    """The values of the override ``KEY=VALUE`` as Hydra's own override grammar reads them, as
    text: one for a plain or quoted value (``seed='1'`` is ``1``, ``dataset='a,b'`` is ``a,b``),
    each choice of a sweep (``a,b``, ``choice(a,b)``, ``sort(...)``, ``tag(...)``), the first
    and last of a ``range(...)``, none for a ``glob(...)``; :data:`_NOT_NAMES` for a list, a
    dictionary or an interval (and, with ``names``, for a number, a boolean or null: a config
    group takes names); None when the grammar refuses the value (e.g. a name that is not ASCII,
    unquoted)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.core.override_parser.types import ChoiceSweep, Glob, RangeSweep

    try:
        value = OverridesParser.create().parse_override(arg.lstrip("+")).value()
    except Exception:  # Hydra's grammar error (Hydra says it again, with its message)
        return None
    if isinstance(value, Glob):  # chooses among the existing names: none to check
        return []
    if isinstance(value, ChoiceSweep):
        items = list(value.list)
    elif isinstance(value, RangeSweep):
        start, stop, step = value.start, value.stop, value.step or 1
        if all(isinstance(v, int) for v in (start, stop, step)):
            steps = range(start, stop, step)
            items = [steps[0], steps[-1]] if len(steps) else []
        else:
            items = [start]
    else:
        items = [value]
    return [_text(item, names) for item in items]


def _text(item, names: bool = False) -> str:
    """One parsed override value as the text the checks compare."""
    if names and not isinstance(item, str) and not hasattr(item, "text"):
        return _NOT_NAMES
    if item is None:
        return "null"
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, (str, int, float)):
        return str(item).strip()
    if hasattr(item, "text"):  # a quoted string inside a sweep
        return str(item.text).strip()
    return _NOT_NAMES


def _experiment_keys(name: str) -> list[str]:
    """The top-level keys of an experiment's config file (package or user folder)."""
    from repro.config import config_dirs

    for folder in [CONF_DIR, *config_dirs()]:
        path = folder / "experiment" / f"{name.strip()}.yaml"
        if path.is_file():
            return [str(k) for k in OmegaConf.load(path) if k != "defaults"]
    return []


def unknown_data_sets(unknown: list[str], valid: list[str]) -> str:
    """The line for data set names that are not in the catalog (``valid``), with a did-you-mean
    for the first (the same on the command line and in an experiment file)."""
    close = close_names(unknown[0], valid)
    hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
    return (
        f"Unknown data set(s) {unknown}.{hint} Valid data sets: {', '.join(valid)} "
        "(python -m repro.datasets list)"
    )


#: what an experiment file may choose by name
_FILE_GROUPS = ("method", "dataset", "protocol")


def check_experiment_files(args: list[str]) -> None:
    """The methods, data sets and protocols named inside the experiment file(s) of
    ``experiment=NAME`` (the package's ``conf/experiment/``, then the ``--config-dir`` folders,
    the order Hydra searches) exist: else a :class:`UsageError` of one line naming the file, the
    key, the name and the closest valid names (Hydra would print its config search path and every
    option of the group). Read: the defaults list (``override /method: NAME``), and in a
    ``# @package _global_`` file ``hydra.sweeper.params`` (``method: a,b``, ``choice(a,b)``),
    ``hydra.sweeper.runs[i].method``, ``hydra.sweeper.exclude[i]`` and the top-level
    ``method:`` / ``dataset:`` / ``protocol:``, which hold settings, not a name."""
    for arg in split_config_dirs(args)[1]:
        key, _, value = arg.partition("=")
        if key.lstrip("+") != "experiment" or not value:
            continue
        names = override_values(arg, names=True)
        for name in value.split(",") if names is None else names:
            path = _experiment_file(name)
            if path is not None:
                _check_experiment_file(path)


def _experiment_file(name: str):
    """The file Hydra reads for ``experiment=name`` (None when there is none)."""
    from repro.config import config_dirs

    for folder in [CONF_DIR, *config_dirs()]:
        path = folder / "experiment" / f"{name.strip()}.yaml"
        if path.is_file():
            return path
    return None


def _package(path) -> str | None:
    """The ``# @package NAME`` of a config file's header (None when it has none)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if text and not text.startswith("#"):
            break
        match = re.match(r"#\s*@package\s+(\S+)", text)
        if match:
            return match[1]
    return None


def _check_experiment_file(path) -> None:
    try:
        node = OmegaConf.to_container(OmegaConf.load(path), resolve=False)
    except Exception:  # not YAML, not a mapping: Hydra says what is wrong with it
        return
    if not isinstance(node, dict):
        return
    where = f"experiment file {path}"
    global_package = _package(path) == "_global_"
    for key, group, names in _file_choices(node, global_package):
        try:
            _check_names(group, names)
        except UsageError as exc:
            raise UsageError(f"{where}, {key}: {exc}".replace("\n", " ")) from None
    if not global_package:
        return
    for group in _FILE_GROUPS:
        value = node.get(group)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            raise UsageError(
                f"{where}, {group}: {str(value)!r} is a name, but {group}: at the top of an "
                f"experiment file holds the {group}'s settings ({group}: {{KEY: VALUE}}); "
                f"choose one {group} with `defaults: [override /{group}: NAME]`, or sweep "
                f"several with `hydra: {{mode: MULTIRUN, sweeper: {{params: {{{group}: a,b}}}}}}` "
                f"(hydra.sweeper.params)"
            )


def _file_choices(node: dict, global_package: bool):
    """(key, group, names) of every choice by name in an experiment file's content."""
    for item in node.get("defaults") or []:
        if not isinstance(item, dict):
            continue
        for key, value in item.items():
            group = re.sub(r"^override\s+", "", str(key)).lstrip("/").split("@")[0]
            if group in _FILE_GROUPS and isinstance(value, str):
                yield f"defaults: {key}", group, [value]
    if not global_package:
        return
    for group in _FILE_GROUPS:
        value = node.get(group)
        if isinstance(value, str):  # a name where settings go (said after the names' check)
            yield group, group, _file_names(group, value)
    sweeper = (
        (node.get("hydra") or {}).get("sweeper") if isinstance(node.get("hydra"), dict) else None
    )
    if not isinstance(sweeper, dict):
        return
    for key, value in (sweeper.get("params") or {}).items():
        group = str(key).lstrip("+")
        if group in _FILE_GROUPS and isinstance(value, str):
            yield f"hydra.sweeper.params.{key}", group, _file_names(group, value)
    for i, run in enumerate(sweeper.get("runs") or []):
        if isinstance(run, dict) and isinstance(run.get("method"), str):
            yield f"hydra.sweeper.runs[{i}].method", "method", [run["method"]]
    for i, entry in enumerate(sweeper.get("exclude") or []):
        if not isinstance(entry, dict):
            continue
        for group, value in entry.items():
            values = value if isinstance(value, list) else [value]
            if group in _FILE_GROUPS and all(isinstance(v, str) for v in values):
                yield f"hydra.sweeper.exclude[{i}].{group}", group, list(values)


def _file_names(group: str, value: str) -> list[str]:
    """The names of a sweep's value as Hydra's override grammar reads it (``a,b``,
    ``choice(a,b)``; none for a glob, a value that is not names, or one the grammar refuses)."""
    names = override_values(f"{group}={value}", names=True)
    return [] if names is None else [n for n in names if n != _NOT_NAMES]


def _check_names(group: str, names: list[str]) -> None:
    """Every name is an option of ``group`` as Hydra finds it in a file (no alias, the exact
    case): else a :class:`UsageError` in the command line's words."""
    from repro.config import config_dirs

    names = [n for n in names if n and not n.startswith("${")]  # an interpolation: Hydra's
    own = {p.stem for d in config_dirs() for p in (d / group).glob("*.yaml")}
    if group == "method":
        from repro.registry import ALIASES, implemented_methods

        valid = sorted({*implemented_methods(), *own})
        for name in names:
            if name not in valid:
                close = close_names(name, valid)
                if name in ALIASES:  # the command line's shorthand: a file names the id
                    close = [ALIASES[name], *(c for c in close if c != ALIASES[name])][:3]
                hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
                alias = (
                    f" ({name} is an alias, which only the command line takes)"
                    if name in ALIASES
                    else ""
                )
                raise UsageError(
                    f"Unknown method {name!r}.{hint}{alias} Valid methods: {', '.join(valid)}"
                )
    elif group == "dataset":
        from repro.datasets import catalog

        valid = sorted({*map(str, catalog()), *_names("dataset"), *own})
        unknown = [n for n in names if n not in valid]
        if unknown:
            raise UsageError(unknown_data_sets(unknown, valid))
    else:
        valid = sorted({*_names(group), *own})
        for name in names:
            if name not in valid:
                raise _unknown(group, name, valid, f"python -m repro list {group}s")


def _parses(text: str, kind) -> bool:
    if text.startswith("${"):  # an interpolation, resolved by Hydra
        return True
    if kind is bool:
        return text.lower() in _BOOLEANS
    return re.fullmatch(r"[+-]?\d+", text) is not None


def split_config_dirs(argv: list[str]) -> tuple[list[str], list[str]]:
    """(the folders of ``--config-dir DIR``, ``--config-dir=DIR`` and ``-cd DIR`` (Hydra's flag),
    the other arguments in order)."""
    folders, rest = [], []
    args = iter(argv)
    for arg in args:
        if arg in ("--config-dir", "-cd"):
            folder = next(args, None)
            if folder is None:
                raise UsageError(f"{arg} needs a folder: {arg} DIR")
            folders.append(folder)
        elif arg.startswith("--config-dir="):
            folders.append(arg.partition("=")[2])
        else:
            rest.append(arg)
    return folders, rest


def use_config_dirs(argv: list[str]) -> list[str]:
    """Make the user's config folders of the command line known: their ``experiment/`` files to
    the experiment checks and reports, their ``method/ID.yaml`` files to the method registry
    (each a user method ``ID`` whose ``_target_`` class imports from the working directory or
    from the folder itself), their ``dataset/`` data files (NAME.csv, .arff, .parquet) to the
    catalog. Returns the method ids registered."""
    import sys

    from repro.datasets.local import add_data_path
    from repro.registry import register_method

    registered = []
    for path in split_config_dirs(argv)[0]:
        try:
            folder = add_config_dir(path)
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
        if (folder / "dataset").is_dir():
            add_data_path(folder / "dataset")
        for yaml in sorted((folder / "method").glob("*.yaml")):
            try:
                registered.append(register_method(yaml.stem, yaml, replace=True))
            except (ValueError, ImportError) as exc:
                raise UsageError(f"{yaml}: {exc}") from exc
    return registered


def _first_comment(path, width: int = 90) -> str:
    """The first sentence of a YAML file's leading comment (after ``# @package``), cut at
    ``width`` characters; '' when there is none."""
    lines = []
    for line in path.read_text().splitlines():
        text = line.strip()
        if not text.startswith("#"):
            if text or lines:
                break
            continue
        if "@package" not in text:
            lines.append(text.lstrip("#").strip())
    text = re.split(r"(?<=[a-z0-9)]{3})\. (?=[A-Z])", " ".join(lines), maxsplit=1)[0].rstrip(".:")
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _protocol_line(path) -> str:
    node = OmegaConf.load(path)
    kind = node.get("kind")
    if kind == "kfold":
        text = f"stratified {node.n_splits}-fold cross-validation × {node.n_repeats}"
    elif kind == "holdout":
        text = (
            f"{node.n_repeats} stratified random split(s), {node.test_size:g} of the data to test"
        )
    elif kind == "synthetic":
        text = f"{node.n_repeats} fresh samples of {node.n_train} training, {node.n_test} test rows"
    else:
        text = str(kind)
    comment = _first_comment(path)
    return f"{text} ({comment})" if comment else text


def list_table(what: str) -> str:
    """The table ``python -m repro list WHAT`` prints: one row per name, a one-line description."""
    if what not in LISTS:
        raise _unknown("list", what, list(LISTS), "python -m repro list WHAT")
    if what == "params":
        raise UsageError(
            "list params takes a method: python -m repro list params METHOD (its parameters, "
            "defaults and meaning; the methods: python -m repro list methods)"
        )
    if what == "methods":
        from repro.registry import list_methods

        table = list_methods()
        rows = [
            (r.id, f"{r.display_name} — {r.paper or 'baseline'}, {r.estimator}"
             + (f" (aliases: {r.aliases})" if r.aliases else ""))
            for r in table.itertuples()
        ]  # fmt: skip
    elif what == "datasets":
        from repro.datasets import list_datasets

        table = list_datasets()
        rows = [
            (r.name, f"{r.source}, {_count(r, 'n')} rows, {_count(r, 'n_classes')} classes")
            for r in table.itertuples()
        ]
    elif what == "experiments":
        rows = [
            (n, _first_comment(CONF_DIR / "experiment" / f"{n}.yaml")) for n in experiment_names()
        ]
    else:
        rows = [
            (n, _protocol_line(CONF_DIR / "protocol" / f"{n}.yaml")) for n in _names("protocol")
        ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {text}" for name, text in rows)


def _count(row, field: str) -> str:
    value = getattr(row, field, None)
    try:
        return str(int(value))
    except (TypeError, ValueError):
        return "?"


# -- a results folder that cannot be written (a read-only mount, a folder of another user):
# one line naming the folder and the setting that chooses it, for a run and for a sweep
#: the errors of a folder this process may not write (not a full disk, not a file in the way)
_UNWRITABLE = (errno.EROFS, errno.EACCES, errno.EPERM)


def _unwritable(exc: BaseException) -> OSError | None:
    """The error among ``exc`` and the exceptions it was raised from that says a folder may not
    be written (read-only file system, permission denied); None when there is none."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in _UNWRITABLE:
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def _cannot_write(exc: OSError, key: str, value, where=None, also: str = "") -> str:
    """``cannot write FOLDER: REASON; give a writable folder with KEY=DIR (KEY=VALUE)``; FOLDER
    is ``where``, else the error's file, else ``value``; ``also``: what else helps."""
    if where is None:
        where = exc.filename if exc.filename is not None else value
    reason = exc.strerror or str(exc)
    return (
        f"cannot write {where}: {reason}; give a writable folder with {key}=DIR ({key}={value})"
        + also
    )


def _inside(path, folder) -> bool:
    try:
        Path(path).resolve().relative_to(Path(folder).resolve())
    except (ValueError, OSError, TypeError):
        return False
    return True


def results_folder_error(exc: BaseException, results_dir) -> str | None:
    """The line of :func:`_cannot_write` when ``exc`` is a folder inside ``results_dir`` that may
    not be written (None otherwise: the run's own error says what happened)."""
    error = _unwritable(exc)
    if error is None or error.filename is None or not _inside(error.filename, results_dir):
        return None
    return _cannot_write(error, "results_dir", results_dir)


def sweep_folder_error(exc: OSError, sweep_dir, results_dir) -> str | None:
    """The line of :func:`_cannot_write` for a sweep's directory that may not be created or
    written, named by ``results_dir=`` when it lies inside it (the default
    ``${results_dir}/<experiment>/.multirun``), else by ``hydra.sweep.dir=``; None when the
    error is not about permissions (a file in the way, a full disk)."""
    if exc.errno not in _UNWRITABLE:
        return None
    where = exc.filename
    if where is None or _inside(where, sweep_dir):  # the sweep's own files: its directory
        where = sweep_dir
    if _inside(sweep_dir, results_dir):
        also = (
            ", or hydra.sweep.dir=DIR for the sweep's own files (finished cells are read "
            "from a read-only results_dir)"
        )
        return _cannot_write(exc, "results_dir", results_dir, where, also)
    return _cannot_write(exc, "hydra.sweep.dir", sweep_dir, where)


def resume_hint(argv: list[str]) -> str:
    """The line printed on Ctrl-C: what was kept and the command that resumes the run."""
    command = " ".join(["python -m repro", *argv])
    return (
        f"\ninterrupted: every finished fold is kept (checkpoints beside the results); "
        f"run `{command}` again to resume"
    )
