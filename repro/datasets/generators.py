"""Synthetic data sets the papers generate themselves (source ``generator``).

Every generator is a pure function of keyword parameters returning ``(X, y)``, seeded through
``numpy.random.default_rng(seed)`` (``seed`` defaults to 0), vectorised so that large samples
(e.g. ``waveform_noise(n_samples=20000, n_noise=979)``, 1000 variables) take well under a second.

- ``waveform`` (Breiman et al. 1984; boulle2007 §5.1): 21 attributes
  ``x_i = u·h_a(i) + (1−u)·h_b(i) + ε_i``, ``u ~ U(0,1)``, ``ε_i ~ N(0, noise²)``, base waves
  ``h_c(i) = max(6 − |i − c|, 0)`` centred at c = 7, 11, 15 for i = 1..21; classes 0, 1, 2 mix
  the wave pairs (1,2), (1,3), (2,3); classes equiprobable. Bayes accuracy ≈ 0.86–0.87
  (boulle2007 quotes 86.8 %), naive Bayes ≈ 0.80.
- ``waveform_noise``: the same plus ``n_noise`` (default 19) pure N(0,1) attributes (hue2024).
- ``led`` (Breiman et al. 1984): the 7 segments of a digit 0–9 shown on a LED display, each
  segment flipped with probability ``flip`` = 0.1; digits equiprobable. The Bayes accuracy is
  0.74002248 (:data:`LED_BAYES_ACCURACY`, exact: :func:`led_bayes_accuracy`).
- ``led17``: ``led`` plus 17 irrelevant random bits (P(1) = 1/2).
- ``twonorm_gen`` (Breiman 1996): 20 attributes N(±a·1, I), a = 2/√20, classes equiprobable.
  The name ``twonorm`` belongs to the fixed 7400-row Delve sample in the local mirror (one name,
  one source; local files win).
- ``madelon_like``: ``sklearn.datasets.make_classification`` with Madelon's design (2600 rows,
  500 variables of which 5 informative and 15 redundant, 16 clusters per class; boulle2007
  Table 2), a stand-in for the NIPS 2003 Madelon data (OpenML 1485).
- vidaurre2012's §7.1 scenarios ``DI``, ``DR``, ``CI``, ``CR`` and its eq. (12) toy world
  (``vidaurre_toy``, ``vidaurre_toy_irrelevant50``, ``vidaurre_toy_redundant50``): module
  :mod:`repro.datasets.vidaurre2012`, registered here.
"""

from __future__ import annotations

import inspect
import itertools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .parameters import check_dataset_float, check_dataset_int
from .vidaurre2012 import VIDAURRE_CATALOG

__all__ = [
    "GENERATORS",
    "LED_BAYES_ACCURACY",
    "LED_SEGMENTS",
    "GeneratorSpec",
    "led",
    "led17",
    "led_bayes_accuracy",
    "led_bayes_predict",
    "madelon_like",
    "twonorm",
    "waveform",
    "waveform_base",
    "waveform_noise",
]

#: wave pairs (0-based indices into the three base waves) of waveform classes 0, 1, 2
WAVEFORM_PAIRS = ((0, 1), (0, 2), (1, 2))
#: centres of the three base waves
WAVEFORM_CENTRES = (7, 11, 15)

#: LED segments (top, upper-left, upper-right, middle, lower-left, lower-right, bottom) lit for
#: the digits 0..9, as in Breiman et al. (1984) and the UCI led-display-creator
LED_SEGMENTS = np.array(
    [
        [1, 1, 1, 0, 1, 1, 1],
        [0, 0, 1, 0, 0, 1, 0],
        [1, 0, 1, 1, 1, 0, 1],
        [1, 0, 1, 1, 0, 1, 1],
        [0, 1, 1, 1, 0, 1, 0],
        [1, 1, 0, 1, 0, 1, 1],
        [1, 1, 0, 1, 1, 1, 1],
        [1, 0, 1, 0, 0, 1, 0],
        [1, 1, 1, 1, 1, 1, 1],
        [1, 1, 1, 1, 0, 1, 1],
    ],
    dtype=np.int8,
)
#: Bayes (optimal) accuracy of the LED problem with 10 % flips
LED_BAYES_ACCURACY = 0.74002248


# --------------------------------------------------------------------------------------------
# Seeds and frames (parameter checks: repro.datasets.parameters)
# --------------------------------------------------------------------------------------------
def _rng(seed, dataset: str) -> np.random.Generator:
    if seed is not None:
        check_dataset_int("seed", seed, 0, dataset=dataset)
    return np.random.default_rng(seed)


def _numeric_frame(values: np.ndarray, names: list[str]) -> pd.DataFrame:
    return pd.DataFrame(values, columns=names, copy=False)


def _bits_frame(bits: np.ndarray, names: list[str], categorical: bool) -> pd.DataFrame:
    if not categorical:
        return _numeric_frame(bits.astype(np.float64), names)
    cols = {
        n: pd.Categorical.from_codes(bits[:, j], categories=["0", "1"]) for j, n in enumerate(names)
    }
    return pd.DataFrame(cols)


# --------------------------------------------------------------------------------------------
# Waveform
# --------------------------------------------------------------------------------------------
def waveform_base() -> np.ndarray:
    """The three base waves ``h_c(i) = max(6 − |i − c|, 0)``, c = 7, 11, 15, i = 1..21: (3, 21)."""
    i = np.arange(1, 22)
    return np.maximum(6 - np.abs(i[None, :] - np.array(WAVEFORM_CENTRES)[:, None]), 0).astype(
        np.float64
    )


def _waveform(n_samples, n_noise, seed, noise, dataset):
    n = check_dataset_int("n_samples", n_samples, 1, dataset=dataset)
    n_noise = check_dataset_int("n_noise", n_noise, 0, dataset=dataset)
    sigma = check_dataset_float("noise", noise, low=0.0, dataset=dataset)
    rng = _rng(seed, dataset)
    y = rng.integers(0, 3, size=n)
    u = rng.random(n)[:, None]
    h = waveform_base()
    pairs = np.array(WAVEFORM_PAIRS)
    X = np.empty((n, 21 + n_noise))
    X[:, :21] = u * h[pairs[y, 0]] + (1.0 - u) * h[pairs[y, 1]]
    X[:, :21] += sigma * rng.standard_normal((n, 21))
    if n_noise:
        X[:, 21:] = rng.standard_normal((n, n_noise))
    names = [f"x{i}" for i in range(1, 22)] + [f"noise{k}" for k in range(1, n_noise + 1)]
    return _numeric_frame(X, names), y


def waveform(*, n_samples: int = 5000, seed: int | None = 0, noise: float = 1.0):
    """Breiman's waveform: 21 numeric attributes, 3 equiprobable classes (see module doc)."""
    return _waveform(n_samples, 0, seed, noise, "waveform")


def waveform_noise(
    *, n_samples: int = 5000, n_noise: int = 19, seed: int | None = 0, noise: float = 1.0
):
    """Waveform plus ``n_noise`` irrelevant N(0,1) attributes ``noise1..`` (21 + 19 = 40)."""
    return _waveform(n_samples, n_noise, seed, noise, "waveform_noise")


# --------------------------------------------------------------------------------------------
# LED
# --------------------------------------------------------------------------------------------
def led_bayes_accuracy(flip: float = 0.1) -> float:
    """Exact Bayes accuracy ``Σ_x max_d P(d) P(x | d)`` over the 2⁷ segment patterns.

    With equiprobable digits and independent flips, ``P(x | d) = flip^h (1 − flip)^(7 − h)``
    where ``h`` is the Hamming distance between ``x`` and the digit's pattern; flip = 0.1 gives
    0.74002248.
    """
    patterns = np.array(list(itertools.product((0, 1), repeat=7)))
    h = (patterns[:, None, :] != LED_SEGMENTS[None, :, :]).sum(axis=2)
    lik = flip**h * (1.0 - flip) ** (7 - h)
    return float(lik.max(axis=1).sum() / len(LED_SEGMENTS))


def led_bayes_predict(segments) -> np.ndarray:
    """Optimal digit for each row of 7 segment values (0/1): the nearest pattern in Hamming
    distance (the Bayes rule for flip < 1/2; ties go to the smaller digit)."""
    bits = np.asarray(pd.DataFrame(segments).astype(float).to_numpy(), dtype=np.int8)
    h = (bits[:, None, :7] != LED_SEGMENTS[None, :, :]).sum(axis=2)
    return h.argmin(axis=1)


def _led(n_samples, n_noise, seed, flip, categorical, dataset):
    n = check_dataset_int("n_samples", n_samples, 1, dataset=dataset)
    n_noise = check_dataset_int("n_noise", n_noise, 0, dataset=dataset)
    p = check_dataset_float("flip", flip, low=0.0, high=1.0, dataset=dataset)
    rng = _rng(seed, dataset)
    y = rng.integers(0, 10, size=n)
    bits = np.empty((n, 7 + n_noise), dtype=np.int8)
    bits[:, :7] = LED_SEGMENTS[y] ^ (rng.random((n, 7)) < p)
    if n_noise:
        bits[:, 7:] = rng.integers(0, 2, size=(n, n_noise), dtype=np.int8)
    names = [f"s{j}" for j in range(1, 8)] + [f"noise{k}" for k in range(1, n_noise + 1)]
    return _bits_frame(bits, names, bool(categorical)), y


def led(
    *, n_samples: int = 1000, seed: int | None = 0, flip: float = 0.1, categorical: bool = True
):
    """LED display: 7 segments ``s1..s7`` flipped with probability ``flip``; 10 classes.

    Attributes are nominal {'0','1'} (``categorical=False``: numeric 0/1, the form of
    boulle2007 Table 1). Bayes accuracy 0.74002248 for flip = 0.1.
    """
    return _led(n_samples, 0, seed, flip, categorical, "led")


def led17(
    *, n_samples: int = 10000, seed: int | None = 0, flip: float = 0.1, categorical: bool = True
):
    """LED plus 17 irrelevant random bits ``noise1..noise17`` (24 attributes)."""
    return _led(n_samples, 17, seed, flip, categorical, "led17")


# --------------------------------------------------------------------------------------------
# Twonorm and Madelon-like
# --------------------------------------------------------------------------------------------
def twonorm(
    *, n_samples: int = 7400, n_features: int = 20, a: float = 2 / np.sqrt(20), seed: int | None = 0
):
    """Breiman's twonorm: class 0 ~ N(a·1, I), class 1 ~ N(−a·1, I); a = 2/√20; equiprobable."""
    ds = "twonorm_gen"
    n = check_dataset_int("n_samples", n_samples, 1, dataset=ds)
    d = check_dataset_int("n_features", n_features, 1, dataset=ds)
    a = check_dataset_float("a", a, low=-np.inf, dataset=ds)
    rng = _rng(seed, ds)
    y = rng.integers(0, 2, size=n)
    X = rng.standard_normal((n, d)) + np.where(y == 0, a, -a)[:, None]
    return _numeric_frame(X, [f"x{j}" for j in range(1, d + 1)]), y


def madelon_like(
    *,
    n_samples: int = 2600,
    n_features: int = 500,
    n_informative: int = 5,
    n_redundant: int = 15,
    n_repeated: int = 0,
    n_clusters_per_class: int = 16,
    flip_y: float = 0.01,
    class_sep: float = 1.0,
    seed: int | None = 0,
):
    """``make_classification`` with Madelon's design (2600 × 500, 5 informative, 15 redundant,
    16 clusters per class, 2 classes)."""
    from sklearn.datasets import make_classification

    ds = "madelon_like"
    kwargs = {
        "n_samples": check_dataset_int("n_samples", n_samples, 1, dataset=ds),
        "n_features": check_dataset_int("n_features", n_features, 1, dataset=ds),
        "n_informative": check_dataset_int("n_informative", n_informative, 1, dataset=ds),
        "n_redundant": check_dataset_int("n_redundant", n_redundant, 0, dataset=ds),
        "n_repeated": check_dataset_int("n_repeated", n_repeated, 0, dataset=ds),
        "n_clusters_per_class": check_dataset_int(
            "n_clusters_per_class", n_clusters_per_class, 1, dataset=ds
        ),
        "flip_y": check_dataset_float("flip_y", flip_y, low=0.0, high=1.0, dataset=ds),
        "class_sep": check_dataset_float("class_sep", class_sep, low=0.0, dataset=ds),
    }
    if seed is not None:
        check_dataset_int("seed", seed, 0, dataset=ds)
    try:
        X, y = make_classification(**kwargs, n_classes=2, random_state=seed)
    except ValueError as exc:
        raise ValueError(f"data set {ds!r}: {exc}") from exc
    return _numeric_frame(X, [f"x{j}" for j in range(1, X.shape[1] + 1)]), y


# --------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GeneratorSpec:
    """A generator and the catalog metadata of its default sample (majority_pct: expected)."""

    func: object
    n_numeric: int
    n_categorical: int
    n_classes: int
    majority_pct: float
    papers: tuple[str, ...] = ()
    notes: str = ""
    defaults: dict = field(default_factory=dict)

    @property
    def n(self) -> int:
        return self.defaults["n_samples"]


def _spec(func, n_classes, n_numeric=0, n_categorical=0, papers=(), notes="") -> GeneratorSpec:
    """Spec of a generator of equiprobable classes (majority_pct = 100 / n_classes)."""
    defaults = {p.name: p.default for p in inspect.signature(func).parameters.values()}
    majority_pct = round(100 / n_classes, 1)
    return GeneratorSpec(
        func, n_numeric, n_categorical, n_classes, majority_pct, papers, notes, defaults
    )


_B_H = ("boulle2007", "hue2024")
GENERATORS: dict[str, GeneratorSpec] = {
    "waveform": _spec(waveform, 3, n_numeric=21, papers=_B_H,
        notes="Breiman waveform, 21 numeric attributes; Bayes accuracy ~0.86, naive Bayes ~0.80."),
    "waveform_noise": _spec(waveform_noise, 3, n_numeric=40, papers=("hue2024",),
        notes="Waveform + n_noise (default 19) N(0,1) attributes."),
    "led": _spec(led, 10, n_categorical=7, papers=_B_H,
        notes="LED digits, 7 segments, 10% flips; Bayes accuracy 0.74002248. "
        "categorical=False gives numeric 0/1 as in boulle2007 Table 1."),
    "led17": _spec(led17, 10, n_categorical=24, papers=_B_H,
        notes="LED + 17 irrelevant random bits."),
    "twonorm_gen": _spec(twonorm, 2, n_numeric=20,
        notes="Fresh twonorm sample N(+-a*1, I_20), a = 2/sqrt(20); 'twonorm' is the fixed "
        "Delve sample (local file)."),
    "madelon_like": _spec(madelon_like, 2, n_numeric=500,
        notes="make_classification with Madelon's design; stand-in for NIPS 2003 madelon "
        "(OpenML 1485)."),
}  # fmt: skip
# vidaurre2012's worlds (DI, DR, CI, CR, vidaurre_toy*) live in their own module
GENERATORS.update(
    {name: _spec(**entry, papers=("vidaurre2012",)) for name, entry in VIDAURRE_CATALOG.items()}
)
