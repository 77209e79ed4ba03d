"""The synthetic worlds of vidaurre2012: the §7.1 scenarios and the eq. (12) toy.

Every generator is a pure function of keyword parameters returning ``(X, y)`` (classes 0, 1, 2,
equiprobable, drawn i.i.d.: π = (1/3, 1/3, 1/3) in both worlds), seeded by ``seed``. One call draws
the "true" parameters of one experiment *and* its sample, so that the training and test parts of a
repetition come from the same world: the ``synthetic`` protocol calls the generator once
per repetition with ``n_samples = N + N_te`` and splits the block (first N rows train).

Random streams. The parameters and rows of the relevant/partially redundant predictors and the
labels come from one stream, each noise column from its own stream (``SeedSequence(seed,
spawn_key=...)``), so for a given ``seed`` and ``n_samples``: the scenarios with irrelevant and with
redundant noise (DI/DR, CI/CR) share their labels and their first 10 columns (only the noise
group differs: a paired design), the toy variants share ``y, x1..x3``, and ``n_noise`` only adds
or removes noise columns (the first ones do not change) — both with the default
``neighbours="within"``. The parameters depend on the seed only, not on ``n_samples``.

§7.1 scenarios ``DI``, ``DR`` (discrete, M_i = 3 states) and ``CI``, ``CR`` (continuous)
-----------------------------------------------------------------------------------------
p = 20 predictors in three groups, J = 3 classes; the paper's sizes N = 300 training and
N_te = 3000 test instances per repetition (default ``n_samples`` = 3300, one repetition's block).

- V1, columns ``relevant1..3`` (p1 = 3, "non-noisy"). Discrete: each CPT column θ_ij ~ Dir(c_j),
  "c_j with all components equal except one, which is different for each j": we take
  c_j = ``dirichlet_base`` everywhere and ``dirichlet_peak`` on state j (so class j tends to show
  state j). The paper gives neither value: base 1, peak 3.5 (see :data:`DIRICHLET_PEAK`).
  Continuous: μ_ij ~ Unif(−2, 2) (the paper's, ``mean_range``), σ_ij = ``sd`` = 0.93 for every
  Gaussian predictor (the paper prints σ_ij = 0.75 for V1; see "Calibrated defaults" below).
- V2, columns ``partial1..7`` (p2 = 7, "non-fully redundant, nevertheless carry some
  information"): one CPT (discrete, drawn like a V1 CPT) or one set of class means (continuous,
  σ = ``sd``) shared by all seven. Each instance's value of X_i is first drawn from it; then,
  "with a probability equal to 0.5" (``copy_prob``), it is replaced by the value of X_{i−1} or
  X_{i+1}. Open choices, ours: the neighbour is the left or right one with probability 1/2 each,
  and its *own* draw is copied (before any copying, so chains have length one); the end predictors
  of V2 (``neighbours="within"``, default) copy their only neighbour inside V2 — the paper states
  the redundancy for i ∈ {p1+2, ..., p1+p2−1}, the interior of V2; ``neighbours="adjacent"`` lets
  them copy the adjacent V1 predictor (``relevant3``) / V3 predictor (``noise1``) too. V2's own
  parameters are drawn as V1's ("similarly generated") unless ``partial_peak`` (discrete: the
  Dirichlet peak of V2's CPT) or ``partial_mean_range`` (continuous: the half-width of V2's class
  means) is given.
- V3, columns ``noise1..10`` (p3 = 10, ``n_noise``, "totally noisy"). Irrelevant (DI, CI):
  discrete: one multinomial θ_i ~ Dir(``noise_dirichlet``·1) per predictor, the same for every
  class (the paper: "a Dirichlet distribution with equal hyperparameters", value not given; 1 =
  uniform on the simplex); continuous: μ_ij = m_i ~ Unif(−2, 2) for all j, σ = ``sd`` (the paper
  gives σ only for V1; we keep 0.75). Redundant (DR, CR): the same parameters, but each V3
  predictor is bound to a V1 predictor: with probability 0.9 (``redundant_prob``) an instance takes
  its value (discrete), or its value plus N(0, ``redundant_noise_sd``²) noise (continuous: "plus
  some small noise", size not given; default 0.1, small against σ = 0.75), else its own
  irrelevant draw. Which V1 predictor: the paper says "some randomly selected predictor from V1";
  ``noise_source="shared"`` (default) draws one V1 predictor per data set for all ten (as the toy
  world's copies all copy X1), ``"each"`` one per V3 predictor. With "each" the redundancy spreads
  over the three V1 predictors and barely hurts naive Bayes (MLE NB's mean test error on DR 0.090
  against 0.077 on DI, 300 draws), far from the published 0.152 vs 0.076; with "shared" it is
  0.161 (sd 0.065; published 0.152 ± 0.07), hence the default.

Calibrated defaults (each on published numbers of Table 1; 300 draws with seeds 1000–1299, never
the experiments' seeds 0–99; N = 300 training, 3000 test instances; "NB" is the paper's
maximum-likelihood NB ``nb_ml``, "SNB" its forward selection ``snb_ml``; ± one standard error of
the mean over the draws):

- ``dirichlet_peak`` = 3.5 (:data:`DIRICHLET_PEAK`), on NB's DI error 0.076: NB 0.073 ± 0.003
  (3 gives 0.10, 4 gives 0.063). DR then gives 0.169 ± 0.004 (published 0.152).
- ``sd`` = 0.93 (:data:`SD`), on NB's CI error 0.082 and CR error 0.132 together: NB CI
  0.085 ± 0.004, CR 0.128 ± 0.005. Neighbours: σ = 0.75 (the paper's printed value) gives
  0.050 / 0.082, 0.85 gives 0.069 / 0.108, 0.9 gives 0.079 / 0.121, 0.95 gives 0.089 / 0.134,
  1.0 gives 0.100 / 0.147 (CI / CR). With 0.75 our NB is far more accurate than the paper's,
  with any σ the CR/CI ratio stays near the published 1.6; 0.93 is the σ where both published
  errors lie within one standard error. σ is shared by V1, V2 and V3 (the paper gives it for V1
  only). SNB then: CI error 0.096, CR 0.095 (published 0.083, 0.097), 6.7 and 6.2 selected
  predictors (published 6.0, 5.5).
- ``redundant_noise_sd`` = 0.1 (:data:`REDUNDANT_NOISE_SD`, "plus some small noise"): hardly
  matters, NB's CR error is 0.128 with 0.1 and 0.126 with 0.3 (σ = 0.93).
- ``partial_peak`` / ``partial_mean_range`` = None (V2 drawn as V1, the paper's "similarly
  generated"). Not calibrated: V2's informativeness is not what makes SNB select too many
  predictors. With the paper's SNB (strict increase of the training accuracy, MLE) SNB selects
  7.0 (DI), 6.3 (DR) predictors against the published 6.2, 5.7, and a *less* informative V2
  selects *more* (DI, ``partial_peak`` = 1.5: 7.3 selected, NB error 0.111): at N = 300 a weak
  predictor raises the training accuracy by one or two instances by chance and is added.
The eq. (12) toy world of §4 (Fig. 1–3)
--------------------------------------
X1, X2, X3 discrete with 3 states, CPTs (rows: states, columns: classes) of eq. (12)::

    Θ1 = [[.80, 1/3, 1/3],      Θ2 = Θ3 = [[1/3, .30, .30],
          [.10, 1/3, 1/3],                 [1/3, .10, .60],
          [.10, 1/3, 1/3]]                 [1/3, .60, .10]]

The paper prints 1/3 as 0.33 (those columns then sum to 0.99; normalised they are 1/3).
Default ``n_samples`` = 4000: the paper's N = 1000 training and N_te = 3000 test instances.
``vidaurre_toy_irrelevant50`` adds 50 irrelevant predictors (the paper does not give their
distribution: uniform over ``noise_states`` = 3 states, independent of everything);
``vidaurre_toy_redundant50`` adds 50 exact copies of X1 ("fully redundant", H(X_i|X1) =
H(X1|X_i) = 0, "redundant with regard to the first non-noisy predictor", Fig. 2). ``tie_x2_x3``:
the proportion of instances with x3 set to x2 (Fig. 3b "some proportion", not given; default 0).

Exact quantities of eq. (12), by enumeration of the 27 configurations (:func:`toy_error`):
Bayes error with X1..X3 467/1350 ≈ 0.345926 (= the error of NB on infinite data, with or without
irrelevant predictors); error with X1 alone 23/45 ≈ 0.511111; NB counting X1 51 times (X1 and 50
exact copies) on infinite data 11/30 ≈ 0.366667. The paper prints none of them (Fig. 1 shows
finite-sample boxplots only).
"""

from __future__ import annotations

import itertools
from functools import partial
from statistics import NormalDist

import numpy as np
import pandas as pd

from .parameters import check_dataset_choice, check_dataset_float, check_dataset_int

__all__ = [
    "DIRICHLET_PEAK",
    "N_STATES",
    "TOY_CPTS",
    "VIDAURRE_CATALOG",
    "continuous_scenario",
    "discrete_scenario",
    "scenario_ci",
    "scenario_columns",
    "scenario_cr",
    "scenario_di",
    "scenario_dr",
    "TOY_CONTINUOUS_SHIFTS",
    "toy",
    "toy_continuous",
    "toy_bayes_error",
    "toy_error",
    "toy_irrelevant",
    "toy_joint",
    "toy_nb_copies_error",
    "toy_redundant",
    "toy_x1_error",
]

#: number of classes J of both worlds and number of states M_i of every discrete predictor (§7.1)
N_CLASSES = 3
N_STATES = 3
#: sizes of the groups V1 (relevant) and V2 (partially redundant) of §7.1
N_RELEVANT, N_PARTIAL = 3, 7
#: default of the Dirichlet shape on state j of class j's CPT column (the others: 1). Not in the
#: paper; calibrated on one published number: MLE naive Bayes (N = 300) has mean test error 0.077
#: (sd 0.042) on DI over 300 draws (published: 0.076 ± 0.03); 3 gives 0.10, 4 gives 0.063. The
#: paper's NB (``nb_ml``) on the calibration draws of the module docstring: 0.073 ± 0.003.
DIRICHLET_PEAK = 3.5
#: default Dirichlet peak of the CPT shared by V2 (None: ``dirichlet_peak``, the paper's
#: "similarly generated"). Calibrated, see the module docstring.
PARTIAL_PEAK: float | None = None
#: default σ of every Gaussian predictor (the paper: σ_ij = 0.75 for V1). Calibrated, see the
#: module docstring.
SD = 0.93
#: default half-width of the uniform law of V2's class means (None: ``mean_range``).
PARTIAL_MEAN_RANGE: float | None = None
#: default sd of the noise added to a CR copy ("plus some small noise", size not given).
REDUNDANT_NOISE_SD = 0.1

_THIRD = 1.0 / 3.0
#: eq. (12): TOY_CPTS[i][k, j] = P(X_{i+1} = k | Y = j) (printed 0.33 read as 1/3)
TOY_CPTS = np.array(
    [
        [[0.80, _THIRD, _THIRD], [0.10, _THIRD, _THIRD], [0.10, _THIRD, _THIRD]],
        [[_THIRD, 0.30, 0.30], [_THIRD, 0.10, 0.60], [_THIRD, 0.60, 0.10]],
        [[_THIRD, 0.30, 0.30], [_THIRD, 0.10, 0.60], [_THIRD, 0.60, 0.10]],
    ]
)

_NEIGHBOURS = ("within", "adjacent")
_NOISE_SOURCES = ("shared", "each")


# --------------------------------------------------------------------------------------------
# Helpers (the numeric checks are repro.datasets.parameters)
# --------------------------------------------------------------------------------------------
def _streams(seed, dataset: str):
    """``stream(*key)``: an independent generator per key, all derived from ``seed``."""
    if seed is not None:
        check_dataset_int("seed", seed, 0, dataset=dataset)
    base = np.random.SeedSequence(seed)

    def stream(*key: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(base.entropy, spawn_key=key))

    return stream


def _sample_states(rng: np.random.Generator, theta: np.ndarray, y: np.ndarray) -> np.ndarray:
    """One draw of a discrete predictor per instance: state k with probability θ[k, y]."""
    cum = np.cumsum(theta, axis=0)[:, y]  # (M, n)
    u = rng.random(y.size)
    return np.minimum((u[None, :] > cum).sum(axis=0), theta.shape[0] - 1).astype(np.int8)


def _categorical_frame(codes: np.ndarray, names: list[str], n_states: int) -> pd.DataFrame:
    categories = [str(k) for k in range(n_states)]
    return pd.DataFrame(
        {
            n: pd.Categorical.from_codes(codes[:, j], categories=categories)
            for j, n in enumerate(names)
        }
    )


def _copy_neighbours(rng, own, left, right, prob):
    """Each value of ``own`` (n, m) replaced with probability ``prob`` by the own value of its left
    or right neighbour (1/2 each); ``left``/``right``: the column beyond each end (None: the end
    predictor copies its only inner neighbour)."""
    n, m = own.shape
    copy = rng.random((n, m)) < prob
    go_right = rng.random((n, m)) < 0.5
    ext = np.column_stack(
        [own[:, 0] if left is None else left, own, own[:, -1] if right is None else right]
    )
    k = np.arange(m)[None, :]
    source = np.where(go_right, k + 2, k)  # own k is ext column k + 1
    if left is None:
        source[:, 0] = 2
    if right is None:
        source[:, m - 1] = m - 1
    return np.where(copy, np.take_along_axis(ext, source, axis=1), own)


def scenario_columns(n_noise: int = 10) -> dict[str, list[str]]:
    """Column names of a §7.1 scenario by group: V1 ``relevant``, V2 ``partial``, V3 ``noise``."""
    return {
        "relevant": [f"relevant{k}" for k in range(1, N_RELEVANT + 1)],
        "partial": [f"partial{k}" for k in range(1, N_PARTIAL + 1)],
        "noise": [f"noise{k}" for k in range(1, n_noise + 1)],
    }


# --------------------------------------------------------------------------------------------
# §7.1 scenarios
# --------------------------------------------------------------------------------------------
def _shared_parameters(
    dataset, n_samples, n_noise, copy_prob, neighbours, redundant_prob, noise_source
) -> tuple[int, int, float, bool, float, bool]:
    """The parameters of both kinds of §7.1 world, checked: (n, p3, the copy probability q of V2,
    whether V2's ends copy V1 and V3 (``adjacent``), the copy probability r of V3, whether each V3
    predictor copies its own V1 predictor (``noise_source="each"``))."""
    n = check_dataset_int("n_samples", n_samples, 1, dataset=dataset)
    p3 = check_dataset_int("n_noise", n_noise, 0, dataset=dataset)
    q = check_dataset_float("copy_prob", copy_prob, low=0.0, high=1.0, dataset=dataset)
    neighbours = check_dataset_choice("neighbours", neighbours, _NEIGHBOURS, dataset=dataset)
    r = check_dataset_float("redundant_prob", redundant_prob, low=0.0, high=1.0, dataset=dataset)
    noise_source = check_dataset_choice(
        "noise_source", noise_source, _NOISE_SOURCES, dataset=dataset
    )
    return n, p3, q, neighbours == "adjacent", r, noise_source == "each"


def _scenario_values(core, v1, v2_own, v3, q, adjacent) -> tuple[np.ndarray, list[str]]:
    """The values of V1, V2 (each value of ``v2_own`` copied from a neighbour with probability
    ``q``, drawn from ``core`` after everything else) and V3 side by side, and their names."""
    p3 = v3.shape[1]
    left = v1[:, -1] if adjacent else None
    right = v3[:, 0] if adjacent and p3 else None
    v2 = _copy_neighbours(core, v2_own, left, right, q)
    return np.column_stack([v1, v2, v3]), sum(scenario_columns(p3).values(), [])


def discrete_scenario(
    dataset: str,
    redundant: bool,
    *,
    n_samples: int = 3300,
    n_noise: int = 10,
    seed: int | None = 0,
    dirichlet_base: float = 1.0,
    dirichlet_peak: float = DIRICHLET_PEAK,
    partial_peak: float | None = PARTIAL_PEAK,
    noise_dirichlet: float = 1.0,
    copy_prob: float = 0.5,
    neighbours: str = "within",
    redundant_prob: float = 0.9,
    noise_source: str = "shared",
):
    """A §7.1 world of discrete predictors (3 states, see the module docstring): DI (V3
    irrelevant; ``redundant_prob`` unused, kept so that DI and DR take the same parameters) or,
    ``redundant``, DR (each V3 predictor a 0.9-copy of a V1 predictor). ``dataset``: the name
    in error messages."""
    n, p3, q, adjacent, r, each = _shared_parameters(
        dataset, n_samples, n_noise, copy_prob, neighbours, redundant_prob, noise_source
    )
    base = check_dataset_float("dirichlet_base", dirichlet_base, low=1e-6, dataset=dataset)
    peak = check_dataset_float("dirichlet_peak", dirichlet_peak, low=1e-6, dataset=dataset)
    peak2 = (
        peak
        if partial_peak is None
        else check_dataset_float("partial_peak", partial_peak, low=1e-6, dataset=dataset)
    )
    alpha0 = check_dataset_float("noise_dirichlet", noise_dirichlet, low=1e-6, dataset=dataset)
    stream = _streams(seed, dataset)

    core = stream(0)
    shapes = np.full((N_CLASSES, N_STATES), base)
    shapes[np.arange(N_CLASSES), np.arange(N_CLASSES)] = peak  # c_j: peak on state j

    shapes2 = np.full((N_CLASSES, N_STATES), base)
    shapes2[np.arange(N_CLASSES), np.arange(N_CLASSES)] = peak2

    def cpt(c):
        return np.column_stack([core.dirichlet(c[j]) for j in range(N_CLASSES)])

    theta_v1 = [cpt(shapes) for _ in range(N_RELEVANT)]
    theta_v2 = cpt(shapes2)
    y = core.integers(0, N_CLASSES, size=n)
    v1 = np.column_stack([_sample_states(core, t, y) for t in theta_v1])
    v2_own = np.column_stack([_sample_states(core, theta_v2, y) for _ in range(N_PARTIAL)])

    shared = stream(2).integers(0, N_RELEVANT)
    v3 = np.empty((n, p3), dtype=np.int8)
    for k in range(p3):
        rng = stream(1, k)
        theta = rng.dirichlet(np.full(N_STATES, alpha0))
        source = rng.integers(0, N_RELEVANT) if each else shared
        own = _sample_states(rng, np.repeat(theta[:, None], N_CLASSES, axis=1), y)
        bound = rng.random(n) < r
        v3[:, k] = np.where(bound, v1[:, source], own) if redundant else own

    values, names = _scenario_values(core, v1, v2_own, v3, q, adjacent)
    return _categorical_frame(values, names, N_STATES), y


def continuous_scenario(
    dataset: str,
    redundant: bool,
    *,
    n_samples: int = 3300,
    n_noise: int = 10,
    seed: int | None = 0,
    mean_range: float = 2.0,
    sd: float = SD,
    partial_mean_range: float | None = PARTIAL_MEAN_RANGE,
    copy_prob: float = 0.5,
    neighbours: str = "within",
    redundant_prob: float = 0.9,
    redundant_noise_sd: float = REDUNDANT_NOISE_SD,
    noise_source: str = "shared",
):
    """A §7.1 world of Gaussian predictors (see the module docstring): CI (V3 irrelevant;
    ``redundant_prob`` and ``redundant_noise_sd`` unused, kept so that CI and CR take the same
    parameters) or, ``redundant``, CR (each V3 predictor a noisy 0.9-copy of a V1 predictor).
    ``dataset``: the name in error messages."""
    n, p3, q, adjacent, r, each = _shared_parameters(
        dataset, n_samples, n_noise, copy_prob, neighbours, redundant_prob, noise_source
    )
    a = check_dataset_float("mean_range", mean_range, low=0.0, dataset=dataset)
    sigma = check_dataset_float("sd", sd, low=1e-12, dataset=dataset)
    a2 = (
        a
        if partial_mean_range is None
        else check_dataset_float("partial_mean_range", partial_mean_range, low=0.0, dataset=dataset)
    )
    eps = check_dataset_float("redundant_noise_sd", redundant_noise_sd, low=0.0, dataset=dataset)
    stream = _streams(seed, dataset)

    core = stream(0)
    mu_v1 = core.uniform(-a, a, size=(N_RELEVANT, N_CLASSES))
    mu_v2 = core.uniform(-a2, a2, size=N_CLASSES)
    y = core.integers(0, N_CLASSES, size=n)
    v1 = mu_v1[:, y].T + sigma * core.standard_normal((n, N_RELEVANT))
    v2_own = mu_v2[y][:, None] + sigma * core.standard_normal((n, N_PARTIAL))

    shared = stream(2).integers(0, N_RELEVANT)
    v3 = np.empty((n, p3))
    for k in range(p3):
        rng = stream(1, k)
        m = rng.uniform(-a, a)
        source = rng.integers(0, N_RELEVANT) if each else shared
        own = m + sigma * rng.standard_normal(n)
        if redundant:
            bound = rng.random(n) < r
            copied = v1[:, source] + eps * rng.standard_normal(n)
            own = np.where(bound, copied, own)
        v3[:, k] = own

    values, names = _scenario_values(core, v1, v2_own, v3, q, adjacent)
    return pd.DataFrame(values, columns=names, copy=False), y


#: §7.1 DI: discrete predictors, V3 irrelevant
scenario_di = partial(discrete_scenario, "DI", False)
#: §7.1 DR: discrete predictors, each V3 predictor a 0.9-copy of a V1 predictor
scenario_dr = partial(discrete_scenario, "DR", True)
#: §7.1 CI: Gaussian predictors, V3 irrelevant
scenario_ci = partial(continuous_scenario, "CI", False)
#: §7.1 CR: Gaussian predictors, each V3 predictor a noisy 0.9-copy of a V1 predictor
scenario_cr = partial(continuous_scenario, "CR", True)


# --------------------------------------------------------------------------------------------
# The eq. (12) toy world
# --------------------------------------------------------------------------------------------
def _toy(dataset, kind, n_samples, n_noise, seed, tie_x2_x3, noise_states):
    n = check_dataset_int("n_samples", n_samples, 1, dataset=dataset)
    p3 = check_dataset_int("n_noise", n_noise, 0, dataset=dataset) if kind else 0
    tie = check_dataset_float("tie_x2_x3", tie_x2_x3, low=0.0, high=1.0, dataset=dataset)
    m = check_dataset_int("noise_states", noise_states, 2, dataset=dataset)
    stream = _streams(seed, dataset)

    core = stream(0)
    y = core.integers(0, N_CLASSES, size=n)
    x = np.column_stack([_sample_states(core, TOY_CPTS[i], y) for i in range(3)])
    tied = core.random(n) < tie
    x[tied, 2] = x[tied, 1]
    frame = _categorical_frame(x, ["x1", "x2", "x3"], N_STATES)
    if not p3:
        return frame, y
    if kind == "redundant":
        noise = np.repeat(x[:, :1], p3, axis=1)
    else:
        noise = np.column_stack([stream(1, k).integers(0, m, size=n) for k in range(p3)])
    names = [f"noise{k}" for k in range(1, p3 + 1)]
    states = N_STATES if kind == "redundant" else m
    noise_frame = _categorical_frame(noise.astype(np.int8), names, states)
    return pd.concat([frame, noise_frame], axis=1), y


def toy(*, n_samples: int = 4000, seed: int | None = 0, tie_x2_x3: float = 0.0):
    """The eq. (12) world: ``x1, x2, x3`` (3 states each), 3 equiprobable classes."""
    return _toy("vidaurre_toy", None, n_samples, 0, seed, tie_x2_x3, N_STATES)


def toy_irrelevant(
    *,
    n_samples: int = 4000,
    n_noise: int = 50,
    seed: int | None = 0,
    tie_x2_x3: float = 0.0,
    noise_states: int = 3,
):
    """eq. (12) world + ``n_noise`` irrelevant predictors ``noise1..``, uniform on
    ``noise_states`` states (same ``y, x1..x3`` as :func:`toy` for the same seed and size)."""
    return _toy(
        "vidaurre_toy_irrelevant50", "irrelevant", n_samples, n_noise, seed, tie_x2_x3,
        noise_states,
    )  # fmt: skip


def toy_redundant(
    *, n_samples: int = 4000, n_noise: int = 50, seed: int | None = 0, tie_x2_x3: float = 0.0
):
    """eq. (12) world + ``n_noise`` exact copies ``noise1..`` of ``x1`` (same ``y, x1..x3`` as
    :func:`toy` for the same seed and size)."""
    return _toy(
        "vidaurre_toy_redundant50", "redundant", n_samples, n_noise, seed, tie_x2_x3, N_STATES
    )


# --------------------------------------------------------------------------------------------
# Exact quantities of eq. (12)
# --------------------------------------------------------------------------------------------
def toy_joint(cpts=TOY_CPTS, priors=None) -> np.ndarray:
    """P(Y = j, X1 = k1, X2 = k2, X3 = k3) as an array (J, M, M, M): π_j Π_i θ_i[k_i, j]."""
    cpts = np.asarray(cpts, dtype=np.float64)
    n_classes = cpts.shape[2]
    pi = np.full(n_classes, 1.0 / n_classes) if priors is None else np.asarray(priors, float)
    joint = pi[:, None, None, None] * np.ones((n_classes,) + (cpts.shape[1],) * 3)
    for i in range(3):
        shape = [n_classes, 1, 1, 1]
        shape[i + 1] = cpts.shape[1]
        joint = joint * cpts[i].T.reshape(shape)
    return joint


def toy_error(weights=(1, 1, 1), cpts=TOY_CPTS, priors=None) -> float:
    """Error, on the true distribution of eq. (12), of the naive Bayes rule with the true
    parameters (infinite data) that counts X_i ``weights[i]`` times:
    argmax_j log π_j + Σ_i w_i log θ_i[x_i, j]. w = (1, 1, 1): the Bayes rule (the world is
    naive); (1, 0, 0): X1 alone; (51, 1, 1): X1 and 50 exact copies of it. Tied classes share
    the instance evenly (ties broken at random, as eq. (5) allows), by enumeration of the 27
    configurations."""
    cpts = np.asarray(cpts, dtype=np.float64)
    joint = toy_joint(cpts, priors)
    m = cpts.shape[1]
    pi = joint.sum(axis=(1, 2, 3))
    correct = 0.0
    for ks in itertools.product(range(m), repeat=3):
        score = np.log(pi).copy()
        for i, (k, w) in enumerate(zip(ks, weights)):
            if w:
                score = score + w * np.log(cpts[i, k, :])
        best = np.isclose(score, score.max(), rtol=0.0, atol=1e-9)
        p = joint[(slice(None), *ks)]
        correct += p[best].sum() / best.sum()
    return float(1.0 - correct)


def toy_bayes_error(cpts=TOY_CPTS, priors=None) -> float:
    """Bayes error with X1, X2, X3: 467/1350 ≈ 0.345926 for eq. (12)."""
    return toy_error((1, 1, 1), cpts, priors)


def toy_x1_error(cpts=TOY_CPTS, priors=None) -> float:
    """Error of the Bayes rule using X1 alone: 23/45 ≈ 0.511111 for eq. (12)."""
    return toy_error((1, 0, 0), cpts, priors)


def toy_nb_copies_error(n_copies: int = 50, cpts=TOY_CPTS, priors=None) -> float:
    """Error of NB on infinite data with X1, X2, X3 and ``n_copies`` exact copies of X1 (X1
    counted 1 + n_copies times): 11/30 ≈ 0.366667 for eq. (12) and 50 copies."""
    return toy_error((1 + int(n_copies), 1, 1), cpts, priors)


# --------------------------------------------------------------------------------------------
# A continuous twin of the eq. (12) world (Fig. 4)
# --------------------------------------------------------------------------------------------
def _continuous_shifts() -> tuple[float, float]:
    """(δ1, δ) of :func:`toy_continuous`: the single-predictor Bayes errors of eq. (12)."""
    inv = NormalDist().inv_cdf
    # X1 alone: P(correct) = (2/3)·Φ(δ1/2); X2 alone: P(correct) = (4·Φ(δ/2) − 1)/3
    d1 = 2.0 * inv(1.5 * (1.0 - toy_x1_error()))
    d23 = 2.0 * inv((3.0 * (1.0 - toy_error((0, 1, 0))) + 1.0) / 4.0)
    return d1, d23


#: default class-mean shifts (δ1, δ) ≈ (1.2459, 0.6814) of :func:`toy_continuous`
TOY_CONTINUOUS_SHIFTS = _continuous_shifts()


def toy_continuous(
    *,
    n_samples: int = 4000,
    seed: int | None = 0,
    tie_x2_x3: float = 0.0,
    shift_x1: float = TOY_CONTINUOUS_SHIFTS[0],
    shift_x23: float = TOY_CONTINUOUS_SHIFTS[1],
    sd: float = 1.0,
):
    """A continuous version of the eq. (12) world (Fig. 4): ``x1, x2, x3`` Gaussian, 3
    equiprobable classes. The paper gives no parameters for its Fig. 4 ("the same scenario for
    continuous predictors"); ours mirrors the CPTs' structure: X1 separates class 0 from the
    others, X_i | Y = j ~ N(μ1_j, sd²) with μ1 = (δ1, 0, 0); X2 and X3 separate classes 1 and 2
    and leave class 0 in between, μ2 = μ3 = (0, δ, −δ). δ1 and δ are chosen so that each
    predictor alone has the Bayes error it has in eq. (12): X1 alone 23/45 (δ1 ≈ 1.2459),
    X2 alone 22/45 (δ ≈ 0.6814), sd = 1. ``tie_x2_x3``: the proportion of instances with x3
    set to x2 (Fig. 4b, "somewhat redundant"), as :func:`toy`. For a given seed and size the
    labels are those of :func:`toy`."""
    dataset = "vidaurre_toy_continuous"
    n = check_dataset_int("n_samples", n_samples, 1, dataset=dataset)
    tie = check_dataset_float("tie_x2_x3", tie_x2_x3, low=0.0, high=1.0, dataset=dataset)
    d1 = check_dataset_float("shift_x1", shift_x1, low=0.0, dataset=dataset)
    d23 = check_dataset_float("shift_x23", shift_x23, low=0.0, dataset=dataset)
    sigma = check_dataset_float("sd", sd, low=1e-12, dataset=dataset)
    core = _streams(seed, dataset)(0)
    y = core.integers(0, N_CLASSES, size=n)
    means = np.array([[d1, 0.0, 0.0], [0.0, d23, -d23], [0.0, d23, -d23]])
    x = means[:, y].T + sigma * core.standard_normal((n, 3))
    tied = core.random(n) < tie
    x[tied, 2] = x[tied, 1]
    return pd.DataFrame(x, columns=["x1", "x2", "x3"]), y


# --------------------------------------------------------------------------------------------
# Catalog entries (generators.py registers them in GENERATORS with papers=("vidaurre2012",))
# --------------------------------------------------------------------------------------------
VIDAURRE_CATALOG: dict[str, dict] = {
    "DI": dict(func=scenario_di, n_classes=3, n_categorical=20,
        notes="vidaurre2012 7.1: discrete (3 states), 3 relevant + 7 partially redundant + 10 "
        "irrelevant; one repetition = 300 train + 3000 test (protocol=synthetic)."),
    "DR": dict(func=scenario_dr, n_classes=3, n_categorical=20,
        notes="vidaurre2012 7.1: discrete (3 states), 3 relevant + 7 partially redundant + 10 "
        "redundant (0.9-copies of a relevant one); 300 + 3000 per repetition."),
    "CI": dict(func=scenario_ci, n_classes=3, n_numeric=20,
        notes="vidaurre2012 7.1: Gaussian, 3 relevant + 7 partially redundant + 10 irrelevant; "
        "300 + 3000 per repetition (protocol=synthetic)."),
    "CR": dict(func=scenario_cr, n_classes=3, n_numeric=20,
        notes="vidaurre2012 7.1: Gaussian, 3 relevant + 7 partially redundant + 10 redundant "
        "(noisy 0.9-copies of a relevant one); 300 + 3000 per repetition."),
    "vidaurre_toy": dict(func=toy, n_classes=3, n_categorical=3,
        notes="vidaurre2012 eq. (12) world, x1..x3; Bayes error 0.345926; 1000 train + 3000 "
        "test."),
    "vidaurre_toy_irrelevant50": dict(func=toy_irrelevant, n_classes=3, n_categorical=53,
        notes="eq. (12) world + 50 irrelevant uniform 3-state predictors (Fig. 1, 2)."),
    "vidaurre_toy_redundant50": dict(func=toy_redundant, n_classes=3, n_categorical=53,
        notes="eq. (12) world + 50 exact copies of x1 (Fig. 1, 2); NB error on infinite data "
        "0.366667."),
    "vidaurre_toy_continuous": dict(func=toy_continuous, n_classes=3, n_numeric=3,
        notes="Gaussian twin of the eq. (12) world (Fig. 4): each predictor alone has its "
        "eq. (12) Bayes error; tie_x2_x3 sets x3 = x2 on a proportion of instances."),
}  # fmt: skip
