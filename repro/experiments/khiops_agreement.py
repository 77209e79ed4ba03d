"""Agreement of ``fnb_khiops`` with Khiops 11 (KHIOPS_NOTES §8).

Protocol of KHIOPS_NOTES §8: stratified 70/30 split (``random_state=0``), Khiops run with
``n_trees=0, n_pairs=0``; data sets over :data:`MAX_ROWS` rows on a seeded sample of that many rows.
The data sets are those of the numeric agreement (:data:`NUMERIC_DATASETS`) and **every** bundled
data set with a nominal variable (:data:`NOMINAL_DATASETS`, issue 11 §1). For each it compares,
variable by variable, the MODL partition (interval bounds, or value groups restricted to the values
Khiops keeps), the class counts of its parts, the Level, the set of informative variables, the SNB
weights and the test probabilities. The oracle tests
(``tests/methods/test_khiops_oracle.py``) assert on these comparisons; :func:`agreement_study`
(``python
-m repro experiment=khiops_agreement``) writes one record unit per data set, from which ``python
-m repro.report experiment=khiops_agreement`` writes the table
(:mod:`repro.report.papers.khiops_agreement.figures`).

Khiops prints the SNB weights with 10 significant digits in its model dictionary and predicts with
those printed weights, so differences up to ~1e-10 are print precision, not algorithm.
"""

from __future__ import annotations

import functools
import json
import time

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.model_selection import train_test_split

from repro.datasets.generators import WAVEFORM_PAIRS, waveform_base
from repro.datasets.local import resolve_data_dir
from repro.evaluation.records import record_frame, unit_hash
from repro.evaluation.runner import run_unit
from repro.experiments.common import log, results_root, run_options, section
from repro.methods.khiops.peer import khiops_snb_weights

#: data sets with numeric variables only (the first agreement table)
NUMERIC_DATASETS = ["waveform", "breast_cancer", "wine", "pima", "vehicle"]
#: every bundled data set with at least one nominal input variable (tested against the data folder)
NOMINAL_DATASETS = [
    "tic_tac_toe",
    "mushroom",
    "abalone19",
    "adult",
    "australian",
    "autos",
    "breast_cancer_ljubljana",
    "census_income_kdd",
    "crx",
    "dna",
    "german",
    "heart_statlog",
    "labor",
    "lymph_binary",
    "soybean",
    "vote",
    "vowel",
    "zoo",
]
DATASETS = NUMERIC_DATASETS + NOMINAL_DATASETS
#: larger data sets are compared on a seeded sample of this many rows
MAX_ROWS = 6000
SAMPLE_SEED = 0
WEIGHT_TOL = 1e-9
#: Khiops prints Levels with 6 significant digits (all Levels are below 1)
LEVEL_TOL = 1e-6
PROBA_TOL = 1e-9
METHOD = "fnb_khiops"
PROTOCOL = "khiops_split70"
#: the numbers of :func:`compare` stored as ``split = "agreement"`` records
AGREEMENT_METRICS = (
    "nominal_variables",
    "informative",
    "same_informative",
    "partitions_identical",
    "part_counts_identical",
    "levels_identical",
    "max_level_diff",
    "selected_khiops",
    "selected_ours",
    "weights_identical",
    "max_weight_diff",
    "max_proba_diff",
)


def waveform(n: int = 5000) -> tuple[pd.DataFrame, pd.Series]:
    """Breiman's waveform exactly as in KHIOPS_NOTES §8 (numpy ``default_rng(0)``).

    The process of :func:`repro.datasets.generators.waveform` with another labelling of the base
    waves (centres 11, 15, 7 instead of 7, 11, 15), the one the Khiops reference numbers used."""
    rng = np.random.default_rng(0)
    waves = waveform_base()[[1, 2, 0]]
    first, second = np.array(WAVEFORM_PAIRS).T
    y = rng.integers(0, 3, n)
    u = rng.random(n)[:, None]
    X = u * waves[first[y]] + (1 - u) * waves[second[y]] + rng.standard_normal((n, 21))
    return pd.DataFrame(X, columns=[f"x{k}" for k in range(1, 22)]), pd.Series(y)


def nominal_datasets() -> list[str]:
    """Bundled data sets (the data folder) with at least one nominal (non-numeric) input."""
    names = []
    for path in sorted(resolve_data_dir().glob("*.parquet")):
        df = pd.read_parquet(path)
        if any(not pd.api.types.is_numeric_dtype(df[c]) for c in df.columns if c != "class"):
            names.append(path.stem)
    return names


def nominal_columns(X: pd.DataFrame) -> list[str]:
    return [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]


def load(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """A data set of the oracle protocol: nominal columns as string categories, labels as str;
    over :data:`MAX_ROWS` rows, the seeded sample ``df.sample(MAX_ROWS, random_state=0)``."""
    if name == "waveform":
        X, y = waveform()
    elif name == "wine":
        X, y = load_wine(return_X_y=True, as_frame=True)
    elif name == "breast_cancer":
        X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    else:
        df = pd.read_parquet(resolve_data_dir() / f"{name}.parquet")
        if len(df) > MAX_ROWS:
            df = df.sample(n=MAX_ROWS, random_state=SAMPLE_SEED)
        y = df.pop("class")
        X = df
    X = X.copy()
    for c in X.columns:
        if not pd.api.types.is_numeric_dtype(X[c]):
            X[c] = X[c].astype(str).where(X[c].notna()).astype("category")
    return X, y.astype(str)


def split(name: str):
    """``train_test_split(test_size=0.3, stratify=y, random_state=0)`` of :func:`load`
    (unstratified when a class has a single row)."""
    X, y = load(name)
    stratify = y if y.value_counts().min() >= 2 else None
    return train_test_split(X, y, test_size=0.3, stratify=stratify, random_state=0)


def khiops_partition(variable_statistics):
    """Khiops' partition of one variable: upper bounds of the intervals but the last (``-inf``
    for the interval of the missing values), or the sorted value groups (the catch-all ``" * "``
    dropped; the missing value is Khiops' empty string); ``None`` if uninformative."""
    if variable_statistics.data_grid is None:
        return None
    dim = variable_statistics.data_grid.dimensions[0]
    if dim.partition_type == "Intervals":
        return [-np.inf if p.is_missing else p.upper_bound for p in dim.partition[:-1]]
    return sorted(sorted(str(v) for v in p.values if v != " * ") for p in dim.partition)


def khiops_part_counts(variable_statistics, y: pd.Series, classes) -> list[tuple[int, ...]]:
    """Class counts of the parts of Khiops' partition of one variable (columns in the order of
    ``classes``), sorted; the single part of the class totals of ``y`` if uninformative."""
    grid = variable_statistics.data_grid
    if grid is None:
        return [tuple(int(v) for v in y.value_counts().reindex(classes, fill_value=0))]
    target = [str(p.value) for p in grid.dimensions[1].partition]
    cols = [target.index(str(k)) for k in classes]
    return sorted(tuple(int(row[j]) for j in cols) for row in grid.part_target_frequencies)


def part_counts(modl) -> list[tuple[int, ...]]:
    """The same view of a fitted MODL discretizer or grouper (``counts_``)."""
    return sorted(tuple(int(v) for v in row) for row in modl.counts_)


def our_partition(model, k: int):
    """The same view of variable ``k`` of a fitted :class:`KhiopsFractionalNaiveBayes`."""
    modl = model.variables_[k].partition.modl_
    if not modl.informative_:
        return None
    if hasattr(modl, "bounds_"):
        return modl.bounds_.tolist()
    return sorted(sorted("" if pd.isna(v) else str(v) for v in g) for g in modl.groups_)


def same_partition(theirs, mine) -> bool:
    """Identical partitions: equal bounds (to 1e-12 relative), or equal groups over the values
    Khiops lists (it prints only the kept values; the rare ones go to its catch-all)."""
    if theirs is None or mine is None:
        return theirs is None and mine is None
    if isinstance(theirs[0], list):
        kept = {v for g in theirs for v in g}
        mine = [g for g in (sorted(v for v in g if v in kept) for g in mine) if g]
        return sorted(mine) == theirs
    return len(mine) == len(theirs) and np.allclose(mine, theirs, rtol=1e-12, atol=0)


def fit_both(name: str) -> dict:
    """Fit Khiops and ``fnb_khiops`` on the training part of ``name``; everything compared."""
    from khiops.sklearn import KhiopsClassifier

    from repro.methods.khiops.fnb_khiops import KhiopsFractionalNaiveBayes

    Xtr, Xte, ytr, yte = split(name)
    t0 = time.perf_counter()
    clf = KhiopsClassifier(n_trees=0, n_pairs=0).fit(Xtr, ytr)
    t1 = time.perf_counter()
    ours = KhiopsFractionalNaiveBayes().fit(Xtr, ytr)
    t2 = time.perf_counter()
    prep = clf.model_report_.preparation_report
    proba = pd.DataFrame(clf.predict_proba(Xte), columns=[str(c) for c in clf.classes_])
    return dict(
        name=name,
        Xtr=Xtr,
        ytr=ytr,
        Xte=Xte,
        vars={c: prep.get_variable_statistics(c) for c in Xtr.columns},
        weights=khiops_snb_weights(clf, Xtr.columns),
        proba=proba,
        ours=ours,
        khiops_fit_time=t1 - t0,
        our_fit_time=t2 - t1,
    )


def compare(run: dict) -> dict:
    """Per-variable and global comparison of a :func:`fit_both` result."""
    ours, cols = run["ours"], list(run["Xtr"].columns)
    partitions = {
        c: same_partition(khiops_partition(run["vars"][c]), our_partition(ours, k))
        for k, c in enumerate(cols)
    }
    classes = [str(c) for c in ours.classes_]
    counts = {
        c: khiops_part_counts(run["vars"][c], run["ytr"], classes)
        == part_counts(ours.variables_[k].partition.modl_)
        for k, c in enumerate(cols)
    }
    level_diff = {c: abs(ours.levels_[k] - run["vars"][c].level) for k, c in enumerate(cols)}
    mine = {c: w for c, w in zip(cols, ours.weights_) if w > 0}
    theirs = run["weights"]
    common = mine.keys() & theirs.keys()
    weight_diff = {c: abs(mine[c] - theirs[c]) for c in common}
    P = ours.predict_proba(run["Xte"])
    Q = run["proba"][[str(c) for c in ours.classes_]].to_numpy()
    informative_ours = {c for k, c in enumerate(cols) if ours.levels_[k] > 0}
    informative_khiops = {c for c in cols if run["vars"][c].level > 0}
    return dict(
        dataset=run["name"],
        n_train=len(run["Xtr"]),
        variables=len(cols),
        nominal_variables=len(nominal_columns(run["Xtr"])),
        informative=len(informative_khiops),
        same_informative=informative_ours == informative_khiops,
        partitions_identical=sum(partitions.values()),
        part_counts_identical=sum(counts.values()),
        levels_identical=sum(d <= LEVEL_TOL for d in level_diff.values()),
        partitions_differing=sorted(
            c for c in cols if not (partitions[c] and counts[c] and level_diff[c] <= LEVEL_TOL)
        ),
        max_level_diff=max(level_diff.values()),
        selected_khiops=len(theirs),
        selected_ours=len(mine),
        weights_identical=sum(d <= WEIGHT_TOL for d in weight_diff.values()),
        selected_differing=sorted(mine.keys() ^ theirs.keys()),
        max_weight_diff=max(weight_diff.values(), default=0.0),
        max_proba_diff=float(np.abs(P - Q).max()),
        khiops_fit_time=run["khiops_fit_time"],
        our_fit_time=run["our_fit_time"],
    )


def khiops_version() -> str:
    import khiops

    return str(khiops.__version__)


#: version of the comparison itself: a new one recomputes the stored units
COMPARISON = 2


def agreement_hash(name: str, version: str) -> str:
    """Configuration hash of one data set's agreement unit (the Khiops version, the sampling and
    the comparison's version are part of it)."""
    context = {"khiops_version": version, "max_rows": MAX_ROWS, "comparison": COMPARISON}
    return unit_hash(METHOD, {}, name, 0, PROTOCOL, context)


def agreement_records(name: str, *, experiment: str, version: str) -> pd.DataFrame:
    """The records of one data set: the :func:`compare` numbers (``split = "agreement"``;
    booleans as 0/1), both fit times (``model``: ``fit_time`` is ours), the differing variables
    as JSON columns."""
    run = fit_both(name)
    row = compare(run)
    rows = [("agreement", k, float(row[k])) for k in AGREEMENT_METRICS]
    rows += [("model", "fit_time", row["our_fit_time"])]
    rows += [("model", "khiops_fit_time", row["khiops_fit_time"])]
    return record_frame(
        rows,
        experiment=experiment,
        method=METHOD,
        params={},
        dataset=name,
        dataset_key=name,
        seed=0,
        protocol=PROTOCOL,
        chash=agreement_hash(name, version),
        n_features=row["variables"],
        n_classes=run["proba"].shape[1],
        n_train=row["n_train"],
        n_test=len(run["Xte"]),
        extra={
            "khiops_version": version,
            "partitions_differing": json.dumps(row["partitions_differing"]),
            "selected_differing": json.dumps(row["selected_differing"]),
        },
    )


def agreement_study(cfg) -> dict:
    """``experiment=khiops_agreement``: one runner unit per data set of
    ``khiops_agreement.datasets``, ``<results>/<experiment>/<data set>/fnb_khiops.parquet``."""
    opts = section(cfg, "khiops_agreement")
    names = list(opts.get("datasets") or DATASETS)
    unknown = sorted(set(names) - set(DATASETS))
    if unknown:
        raise ValueError(f"khiops_agreement: unknown data set(s) {unknown}; valid: {DATASETS}")
    version, root = khiops_version(), results_root(cfg)
    force = run_options(cfg)["force"]
    written = []
    for done, name in enumerate(names, 1):
        path = root / name / f"{METHOD}.parquet"
        compute = functools.partial(
            agreement_records, name, experiment=str(cfg.experiment_name), version=version
        )
        rec, computed = run_unit(path, agreement_hash(name, version), compute, force=force)
        value = rec.set_index("metric")["value"]
        state = "computed" if computed else "already computed"
        log(
            f"[{done}/{len(names)}] {name}: {state}; max |Δweight| {value['max_weight_diff']:.3g}"
            f", max |Δproba| {value['max_proba_diff']:.3g}"
        )
        written.append(str(path))
    return {"written": written}
