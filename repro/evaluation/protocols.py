"""Resampling protocols: which instances train and test each fold.

Folds depend only on (seed, data set name, repetition): every method sees identical splits, so
paired tests over folds are valid. The random state of repetition r is drawn from
``SeedSequence([seed, crc32(dataset), r])``.

Kind "synthetic" (vidaurre2012 §7.1: N = 300, N_te = 3000, 100 repetitions) draws fresh data
instead of resampling: repetition r calls the data set's generator once with ``n_samples =
n_train + n_test`` and ``seed = synthetic_seed(seed, r)`` (a function of the configuration seed and
r only: every method sees the same samples, and a repetition's data do not depend on the others
or on ``n_repeats``); one call draws the world's parameters and its sample, so the training and
test parts of a repetition share the world. :func:`synthetic_dataset` stacks the R blocks into one
data set; the splits of repetition r are the first ``n_train`` rows of block r (train) and the
next ``n_test`` (test).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit

KINDS = ("kfold", "holdout", "synthetic")


@dataclass(frozen=True)
class Split:
    repetition: int
    fold: int
    train: np.ndarray
    test: np.ndarray


@dataclass(frozen=True)
class Protocol:
    """A stratified resampling scheme.

    kind "kfold": ``n_repeats`` × stratified ``n_splits``-fold CV; kind "holdout": ``n_repeats``
    stratified train/test splits with ``test_size`` of the data in the test part; kind
    "synthetic": ``n_repeats`` fresh samples of a generator, ``n_train`` training and ``n_test``
    test instances each (see the module docstring; ``n_splits`` and ``test_size`` unused).

    ``small_classes``: what to do with a class that has fewer members than folds. "error" (the
    default) refuses with a clear message; "allow" stratifies anyway (scikit-learn's
    StratifiedKFold: some test folds then lack that class, as in Weka-style CV of the papers, e.g.
    boulle2007 on glass). The folds are the same under both settings whenever "error" accepts the
    data, so the setting is not part of a cell's identity (:meth:`identity`).
    """

    name: str = "cv10"
    kind: str = "kfold"
    n_splits: int = 10
    n_repeats: int = 1
    test_size: float = 0.3
    small_classes: str = "error"
    n_train: int | None = None
    n_test: int | None = None

    def __post_init__(self):
        if self.small_classes not in ("error", "allow"):
            raise ValueError(
                f"small_classes must be 'error' or 'allow', got {self.small_classes!r}"
            )
        if self.kind not in KINDS:
            raise ValueError(
                f"protocol kind must be 'kfold', 'holdout' or 'synthetic', got {self.kind!r}"
            )
        if self.kind == "synthetic":
            for key in ("n_train", "n_test"):
                value = getattr(self, key)
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise ValueError(
                        f"protocol {self.name!r} (kind synthetic): {key} must be a positive "
                        f"integer, got {value!r}"
                    )
        elif self.n_train is not None or self.n_test is not None:
            raise ValueError(
                f"protocol {self.name!r}: n_train and n_test apply to kind 'synthetic' only, "
                f"not {self.kind!r}"
            )
        if self.kind == "kfold" and (not isinstance(self.n_splits, int) or self.n_splits < 2):
            raise ValueError(f"n_splits must be an integer ≥ 2, got {self.n_splits!r}")
        if not isinstance(self.n_repeats, int) or self.n_repeats < 1:
            raise ValueError(f"n_repeats must be an integer ≥ 1, got {self.n_repeats!r}")
        if self.kind == "holdout" and not 0 < self.test_size < 1:
            raise ValueError(f"test_size must be in (0, 1), got {self.test_size!r}")

    def identity(self) -> dict:
        """The fields that determine the folds (what a result cell's hash depends on).

        kfold/holdout: name, kind, n_splits, n_repeats, test_size (the fields these protocols had
        before kind "synthetic": their cells keep their hashes); synthetic: name, kind,
        n_repeats, n_train, n_test."""
        if self.kind == "synthetic":
            keys = ("name", "kind", "n_repeats", "n_train", "n_test")
        else:
            keys = ("name", "kind", "n_splits", "n_repeats", "test_size")
        return {k: self.__dict__[k] for k in keys}

    def label(self) -> str:
        """The name, followed by the fields that change the folds and differ from the protocol of
        that name (``cv10``; ``cv10,n_repeats=2``): what records store as ``protocol``."""
        mine = self.identity()
        named = PROTOCOLS.get(self.name)
        ref = named.identity() if named is not None else {}
        fields = [f"{k}={v}" for k, v in mine.items() if k != "name" and ref.get(k) != v]
        return ",".join([self.name, *fields])

    @property
    def n_folds_total(self) -> int:
        return self.n_repeats * (self.n_splits if self.kind == "kfold" else 1)

    @property
    def block_size(self) -> int:
        """Rows of one repetition of a synthetic protocol: ``n_train + n_test``."""
        if self.kind != "synthetic":
            raise ValueError(f"protocol {self.name!r} is not synthetic (kind {self.kind!r})")
        return self.n_train + self.n_test


PROTOCOLS = {
    "cv10": Protocol("cv10", "kfold", 10, 1),
    "cv5": Protocol("cv5", "kfold", 5, 1),
    "cv10x30": Protocol("cv10x30", "kfold", 10, 30),
    "holdout70": Protocol("holdout70", "holdout", n_repeats=1, test_size=0.3),
    "synthetic": Protocol("synthetic", "synthetic", n_repeats=100, n_train=300, n_test=3000),
    "repeated_kfold": Protocol("repeated_kfold", "kfold", 10, 3),
    "resample": Protocol("resample", "holdout", n_repeats=20, test_size=0.1),
}


def get_protocol(protocol) -> Protocol:
    """A :class:`Protocol` from a name of :data:`PROTOCOLS`, a dict of fields, or a Protocol."""
    if isinstance(protocol, Protocol):
        return protocol
    if isinstance(protocol, str):
        if protocol not in PROTOCOLS:
            raise ValueError(
                f"Unknown protocol {protocol!r}; valid protocols: {', '.join(PROTOCOLS)} "
                "(or a dict with kind, n_splits, n_repeats, test_size; n_train, n_test for kind "
                "synthetic)"
            )
        return PROTOCOLS[protocol]
    fields = dict(protocol)
    allowed = set(Protocol.__dataclass_fields__)
    unknown = set(fields) - allowed
    if unknown:
        raise ValueError(f"Unknown protocol field(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
    return Protocol(**fields)


def repetition_seed(seed: int, dataset: str, repetition: int) -> int:
    """The random state of one repetition, a function of (seed, data set, repetition) only."""
    entropy = [int(seed), zlib.crc32(str(dataset).encode()), int(repetition)]
    return int(np.random.SeedSequence(entropy).generate_state(1)[0])


def check_folds_possible(
    y: np.ndarray, n_splits: int, dataset: str = "the data set", protocol: Protocol | None = None
):
    """A ``ValueError`` unless every class has ``n_splits`` members (a k-fold protocol) or 2
    (a holdout: one member for each part); the message says what the data allow instead."""
    labels, counts = np.unique(y, return_counts=True)
    small = counts < n_splits
    if not small.any():
        return
    detail = ", ".join(f"class {lab}: {c}" for lab, c in zip(labels[small].tolist(), counts[small]))
    if protocol is not None and protocol.kind == "holdout":
        raise ValueError(
            f"{dataset}: a stratified train/test split (protocol {protocol.name}) needs at least "
            f"2 instances of every class, one for each part, but some classes have fewer "
            f"({detail}); drop or merge those classes, or use a cross-validation that tolerates "
            "them (protocol=cv10 protocol.small_classes=allow)"
        )
    fewest = int(counts.min())
    hints = []
    if fewest >= 2:
        if n_splits > 5 and fewest >= 5:
            hints.append("protocol=cv5")
        hints.append(f"protocol.n_splits={fewest} (the most folds these classes allow)")
    hints.append("protocol.small_classes=allow (some test folds then lack those classes)")
    raise ValueError(
        f"{dataset}: stratified {n_splits}-fold cross-validation needs at least {n_splits} "
        f"instances of every class, but some classes have fewer ({detail}); use "
        f"{' or '.join(hints)}, or drop those classes"
    )


def make_splits(protocol, y: np.ndarray, seed: int = 0, dataset: str = "data") -> list[Split]:
    """All (repetition, fold, train, test) splits of a protocol on labels ``y``."""
    protocol = get_protocol(protocol)
    y = np.asarray(y)
    if protocol.kind == "synthetic":
        return synthetic_splits(protocol, y.size, dataset)
    splits = []
    for r in range(protocol.n_repeats):
        rs = repetition_seed(seed, dataset, r)
        if protocol.kind == "kfold":
            if protocol.small_classes == "error":
                check_folds_possible(y, protocol.n_splits, dataset, protocol)
            cv = StratifiedKFold(n_splits=protocol.n_splits, shuffle=True, random_state=rs)
        else:
            check_folds_possible(y, 2, dataset, protocol)
            cv = StratifiedShuffleSplit(n_splits=1, test_size=protocol.test_size, random_state=rs)
        for f, (train, test) in enumerate(cv.split(np.zeros((y.size, 1)), y)):
            splits.append(Split(r, f, train, test))
    return splits


# --------------------------------------------------------------------------------------------
# Kind "synthetic": fresh samples per repetition
# --------------------------------------------------------------------------------------------
def synthetic_seed(seed: int, repetition: int) -> int:
    """The generator seed of repetition r of a synthetic protocol: a function of (seed, r) only,
    ``SeedSequence([seed, r])``'s first 32-bit word."""
    return int(np.random.SeedSequence([int(seed), int(repetition)]).generate_state(1)[0])


def synthetic_splits(protocol, n_rows: int, dataset: str = "data") -> list[Split]:
    """Splits of the stacked blocks of :func:`synthetic_dataset`: repetition r trains on the
    first ``n_train`` rows of block r and tests on the next ``n_test`` (fold 0)."""
    protocol = get_protocol(protocol)
    block = protocol.block_size
    if n_rows != protocol.n_repeats * block:
        raise ValueError(
            f"{dataset}: protocol {protocol.name!r} (kind synthetic) expects "
            f"{protocol.n_repeats} blocks of {protocol.n_train} + {protocol.n_test} rows "
            f"({protocol.n_repeats * block} rows), got {n_rows}; build the data with "
            "repro.evaluation.protocols.synthetic_dataset (make_cell/evaluate do)"
        )
    return [
        Split(
            r,
            0,
            np.arange(r * block, r * block + protocol.n_train),
            np.arange(r * block + protocol.n_train, (r + 1) * block),
        )
        for r in range(protocol.n_repeats)
    ]


#: generator parameters a synthetic protocol sets itself
SYNTHETIC_PARAMS = ("n_samples", "seed")


def synthetic_dataset(dataset, protocol, seed: int = 0):
    """The data of a synthetic protocol: ``n_repeats`` blocks of ``n_train + n_test`` rows, block
    r drawn by the generator with ``seed = synthetic_seed(seed, r)``, stacked (a Dataset).

    ``dataset``: a generator's catalog name or ``{"name": ..., **generator parameters}``.
    ``n_samples`` and ``seed`` are the protocol's: given at their catalog defaults (as the
    composed configuration of ``python -m repro`` does) they are ignored, else refused. The
    Dataset's ``meta["params"]`` holds the other effective parameters (what a cell's hash and
    directory key use), ``meta["synthetic"]`` the protocol's sizes and the block seeds.
    """
    from repro.datasets import Dataset, get_entry, load_dataset
    from repro.datasets.generators import GENERATORS
    from repro.evaluation.records import jsonable

    protocol = get_protocol(protocol)
    if protocol.kind != "synthetic":
        raise ValueError(f"protocol {protocol.name!r} is not synthetic (kind {protocol.kind!r})")
    if isinstance(dataset, Dataset):
        raise ValueError(
            f"protocol {protocol.name!r} draws a fresh sample of the generator per repetition: "
            f"give the data set {dataset.name!r} by name or as {{'name': ..., **parameters}}, "
            "not as a loaded Dataset"
        )
    if isinstance(dataset, str):
        name, params = dataset, {}
    elif isinstance(dataset, dict) and "name" in dataset:
        params = dict(dataset)
        name = params.pop("name")
    else:
        raise ValueError(
            f"protocol {protocol.name!r}: the data set must be a generator's name or a dict with "
            f"its 'name', got {dataset!r}"
        )
    entry = get_entry(name)
    if entry.source != "generator":
        raise ValueError(
            f"data set {entry.name!r} is a {entry.source} data set, but protocol "
            f"{protocol.name!r} (kind synthetic) draws fresh samples from a generator; "
            f"generators: {', '.join(sorted(GENERATORS))}"
        )
    for key in SYNTHETIC_PARAMS:
        if key in params and jsonable(params[key]) != jsonable(entry.params.get(key)):
            raise ValueError(
                f"data set {entry.name!r} under protocol {protocol.name!r}: {key} is set by the "
                f"protocol (n_samples = n_train + n_test = {protocol.block_size} per "
                f"repetition; the seed of repetition r from the configuration seed and r), got "
                f"{key}={params[key]!r}; use protocol.n_train / protocol.n_test / seed instead"
            )
        params.pop(key, None)
    seeds = [synthetic_seed(seed, r) for r in range(protocol.n_repeats)]
    first = load_dataset(entry.name, **params, n_samples=protocol.block_size, seed=seeds[0])
    func = GENERATORS[entry.name].func
    blocks = [(first.X, first.y)]
    blocks += [func(**params, n_samples=protocol.block_size, seed=s) for s in seeds[1:]]
    X = pd.concat([b[0] for b in blocks], ignore_index=True) if len(blocks) > 1 else first.X
    y = np.concatenate([np.asarray(b[1]) for b in blocks])
    meta = dict(first.meta)
    meta["params"] = {k: v for k, v in meta["params"].items() if k not in SYNTHETIC_PARAMS}
    meta["synthetic"] = {
        "n_train": protocol.n_train,
        "n_test": protocol.n_test,
        "n_repeats": protocol.n_repeats,
        "seeds": seeds,
    }
    return Dataset(entry.name, X, y, meta)
