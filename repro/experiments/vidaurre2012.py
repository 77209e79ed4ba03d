"""vidaurre2012 studies (Vidaurre, Bielza, Larrañaga 2012): what the Tables 1–2 sweeps keep of each
fitted fold, and the illustrative studies of Figures 1–6 (§4–§6; task functions; records only).

Tables 1 and 2 are plain method × data set sweeps (``conf/experiment/vidaurre2012_table1.yaml``,
``..._table2.yaml``; protocol ``synthetic`` for Table 1, ``cv10`` for Table 2). Their configs name
:func:`selected_variables` as the artefact hook (``artefacts:`` key), so that the report can count
the selected variables of each group of the §7.1 scenarios (V1 relevant, V2 redundant, V3 noise)
from the stored records alone.

Each figure is one experiment (``conf/experiment/vidaurre2012_figN.yaml``, ``task:`` the function
below) whose sizes come from its config section (``fig1:`` … ``fig6:``), so that the tests run tiny
versions. The data of repetition r come from the world's generator
(:mod:`repro.datasets.vidaurre2012`) called once with ``n_samples = n_train + n_test`` and
``seed = synthetic_seed(seed, r)`` (the ``synthetic`` protocol's seeding: a function of the
configuration seed and r only; the first ``n_train`` rows train, the rest test). For one seed the
toy worlds share ``y, x1..x3``, so the comparisons between worlds are paired. Nothing else is
random (naive Bayes and fsNB are deterministic).

Every unit of work (a world, a panel) is a runner unit (:func:`repro.evaluation.runner.run_unit`):
one Parquet file ``<results>/<experiment>/<unit>.parquet`` of tidy records whose
configuration hash covers the study's options, skipped when current unless ``force``. Rows that
are not (split, metric) values — the fsNB trace, the population surfaces, the α state of Fig. 5 —
are artefact rows (``split = "artefact"``). ``python -m repro.report experiment=vidaurre2012_figN``
draws the figure and writes REPRODUCTION.md from these records alone
(:mod:`repro.report.papers.vidaurre2012.figures_noise` for Figs 1–2, ``…_grid`` for 3–4,
``…_fsnb`` for 5–6).

The model. "NB" below is naive Bayes over the interpolated per-variable models of eq. (13)
(:class:`FixedAlphaNaiveBayes`, α_i = 1 for all i: the class-conditional tables with pseudo-count
``pseudo_count``, 1 by default as fsNB's; the paper's MLE is the limit 0, indistinguishable at
N = 1000 where every cell of eq. (12) holds ≥ 30 instances). Its tables are those of the
registry's ``nb_laplace`` on nominal data (which also smooths the class prior).
:func:`alpha_scores` evaluates a fitted interpolated model (this one or fsNB) at any α vectors
without refitting: a model with α_i = 0 is the model without X_i (Ω_i^(0) is the same for every
class), so "NB on the first k predictors" (Fig. 2) is α = (1, …, 1, 0, …, 0). Predictions take
the first class of maximal score on ties (``argmax``).

- :func:`fig1_study`: NB's test error on the toy world, with ``n_noise`` irrelevant and with
  ``n_noise`` redundant copies of X1 (100 repetitions, N = 1000, N_te = 3000: §4).
- :func:`fig2_study`: test error (overall and per class) of NB on the first k predictors,
  k = 1..3 + ``n_noise`` (the paper: one experiment of Fig. 1's data; we keep every repetition).
- :func:`fig3_study` / :func:`fig4_study`: the error of NB with α = (1, α2, α3) over a grid of
  (α2, α3), X2 and X3 independent (panel a) or tied on a proportion ``tie`` of instances (panel
  b); Fig. 3 on the discrete toy world, with the exact surface on the true distribution
  (:func:`toy_population_errors`), Fig. 4 on its continuous twin
  (``vidaurre_toy_continuous``), with a large-sample surface.
- :func:`fig5_study`: training and test error along α of one relevant and one irrelevant
  predictor, the others at fsNB's state after ``step`` iterations.
- :func:`fig6_study`: fsNB's path (the ``fit_report_["trace"]`` of
  :class:`repro.methods.vidaurre2012.stagewise_nb.ForwardStagewiseNaiveBayes`): training and test
  error, Q,
  2d/N and AIC per step.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from repro.datasets import load_dataset
from repro.datasets.vidaurre2012 import TOY_CPTS
from repro.evaluation.protocols import synthetic_seed
from repro.evaluation.records import artefact_frame, record_frame, unit_hash
from repro.evaluation.runner import FoldData, run_unit
from repro.experiments.common import log, results_root, run_options, section
from repro.methods.core.checks import check_predict_input
from repro.methods.vidaurre2012.interpolated import InterpolatedNaiveBayes
from repro.methods.vidaurre2012.stagewise_nb import ForwardStagewiseNaiveBayes
from repro.preprocessing.interpolation import check_alphas

#: the ``method`` of the NB records (NB over the interpolated models at α = 1)
NB_METHOD = "interpolated_nb"
#: the relevant predictors of the toy worlds
RELEVANT = ("x1", "x2", "x3")


# ---------------------------------------------------------------------------------------------
# The model and its evaluation at given α
# ---------------------------------------------------------------------------------------------
class FixedAlphaNaiveBayes(InterpolatedNaiveBayes):
    """Naive Bayes over the interpolated per-variable models with fixed α (eq. 13).

    ``alphas`` None (default) sets every α_i = 1: the class-conditional model, i.e. naive Bayes
    (with Laplace pseudo-count ``alpha`` on nominal tables, MLE Gaussians with ``ddof`` 0).
    Other parameters as :class:`repro.methods.vidaurre2012.interpolated.InterpolatedNaiveBayes`.
    """

    def __init__(
        self, *, alphas=None, alpha=1.0, ddof=0, var_smoothing=1e-9, categorical_features="auto"
    ):
        super().__init__(
            alpha=alpha,
            ddof=ddof,
            var_smoothing=var_smoothing,
            categorical_features=categorical_features,
        )
        self.alphas = alphas

    def _fit_alphas(self, columns, candidates, y):
        if self.alphas is None:
            return np.ones(len(columns))
        alphas = check_alphas(self.alphas)
        if alphas.size != len(columns):
            raise ValueError(f"alphas must hold {len(columns)} values, got {alphas.size}")
        return alphas


def alpha_scores(model, X, y, alphas) -> pd.DataFrame:
    """Errors of a fitted interpolated naive Bayes (fsNB, L1/L2-NB, :class:`FixedAlphaNaiveBayes`)
    evaluated on (X, y) at each row of ``alphas`` (T × K), without refitting.

    Returns one row per α vector: ``error`` (0/1 error rate, first class of maximal score on
    ties), ``log_loss`` (−mean log P(y | x)) and ``error_class<j>`` (the error rate among the
    instances of the j-th class of ``model.classes_``). log P(x_k | y; Ω_k(α)) is computed once
    per (k, distinct α)."""
    A = np.atleast_2d(np.asarray(alphas, dtype=np.float64))
    if A.shape[1] != len(model.variables_):
        raise ValueError(f"alphas must have {len(model.variables_)} columns, got {A.shape[1]}")
    check_alphas(A.ravel())
    Z = check_predict_input(model, X)
    y = np.asarray(y)
    idx = np.searchsorted(model.classes_, y)
    if np.any(idx >= model.classes_.size) or np.any(model.classes_[idx] != y):
        raise ValueError("y holds labels the model was not fitted on")
    n, n_classes = idx.size, model.classes_.size
    counts = np.bincount(idx, minlength=n_classes)
    cache: dict[tuple[int, float], np.ndarray] = {}
    rows = []
    for vector in A:
        jll = np.repeat(model.class_log_prior_[None, :], n, axis=0)
        for k in np.flatnonzero(vector > 0):
            key = (int(k), float(vector[k]))
            if key not in cache:
                cache[key] = model.variables_[k].log_likelihood(Z[:, k], key[1])
            jll += cache[key]
        top = jll.max(axis=1)
        wrong = np.argmax(jll, axis=1) != idx
        lse = top + np.log(np.exp(jll - top[:, None]).sum(axis=1))
        nll = float(np.sum(lse - jll[np.arange(n), idx]))
        row = {"error": float(wrong.mean()), "log_loss": nll / n}
        per_class = np.bincount(idx, weights=wrong, minlength=n_classes)
        for j in range(n_classes):
            row[f"error_class{j}"] = float(per_class[j] / counts[j]) if counts[j] else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def toy_population_errors(grid_rows, tie: float = 0.0, cpts=TOY_CPTS) -> np.ndarray:
    """Error on the true distribution of the eq. (12) world (X3 set to X2 with probability
    ``tie``) of the interpolated naive Bayes with the *true* parameters (infinite data):
    θ_i(α) = α·θ_i + (1 − α)·θ_i^(0), θ_i^(0)[k] = Σ_j π_j θ_i[k, j], π uniform; one value per
    row (α1, α2, α3) of ``grid_rows``. Classes tied for the maximal score share the instance
    evenly (ties broken at random, eq. (5)). With ``tie`` = q, P(x2, x3 | y) =
    θ2[x2, y]·((1 − q)·θ3[x3, y] + q·1[x3 = x2]); X3's class-conditional law stays θ3 = θ2."""
    cpts = np.asarray(cpts, dtype=np.float64)
    n_classes, m = cpts.shape[2], cpts.shape[1]
    pi = np.full(n_classes, 1.0 / n_classes)
    marginal = cpts @ pi  # (3, M)
    configs = list(itertools.product(range(m), repeat=3))
    joint = np.empty((len(configs), n_classes))
    for c, (a, b, d) in enumerate(configs):
        x3 = (1.0 - tie) * cpts[2, d, :] + tie * float(d == b)
        joint[c] = pi * cpts[0, a, :] * cpts[1, b, :] * x3
    out = []
    for alphas in np.atleast_2d(grid_rows):
        correct = 0.0
        for c, ks in enumerate(configs):
            score = np.log(pi).copy()
            for i, (k, a) in enumerate(zip(ks, alphas)):
                score += np.log(a * cpts[i, k, :] + (1.0 - a) * marginal[i, k])
            best = np.isclose(score, score.max(), rtol=0.0, atol=1e-9)
            correct += joint[c][best].sum() / best.sum()
        out.append(1.0 - correct)
    return np.array(out)


# ---------------------------------------------------------------------------------------------
# Common pieces
# ---------------------------------------------------------------------------------------------
#: the design of every figure's study (§4): 100 repetitions of N = 1000 training and N_te = 3000
#: test instances, the tables' Laplace pseudo-count 1 (fsNB's)
TOY_DESIGN = {"repetitions": 100, "n_train": 1000, "n_test": 3000, "pseudo_count": 1.0}


def draw(dataset: str, params: dict, n_train: int, n_test: int, seed: int, repetition: int):
    """Repetition r's (X_train, y_train, X_test, y_test) of a generator (first rows train)."""
    if n_train < 1 or n_test < 1:
        raise ValueError(f"n_train and n_test must be ≥ 1, got {n_train}, {n_test}")
    ds = load_dataset(
        dataset,
        **params,
        n_samples=n_train + n_test,
        seed=synthetic_seed(seed, repetition),
    )
    y = np.asarray(ds.y)
    return ds.X.iloc[:n_train], y[:n_train], ds.X.iloc[n_train:], y[n_train:]


def _int_opt(opts: dict, key: str, default: int, minimum: int = 1) -> int:
    value = int(opts.get(key, default))
    if value < minimum:
        raise ValueError(f"{key} must be ≥ {minimum}, got {value}")
    return value


class Study:
    """What the units of one figure share: the configuration, its hash context and the log."""

    def __init__(self, cfg, figure: str, defaults: dict):
        self.figure = figure
        self.opts = {**defaults, **section(cfg, figure)}
        self.repetitions = _int_opt(self.opts, "repetitions", 100)
        self.n_train, self.n_test = int(self.opts["n_train"]), int(self.opts["n_test"])
        self.seed = int(cfg.seed)
        self.experiment = str(cfg.experiment_name)
        self.root = results_root(cfg)
        self.force = run_options(cfg)["force"]
        self.start = time.perf_counter()
        self.written: list[str] = []

    def context(self, method: str, params: dict, dataset: str, unit: str, n_features: int):
        """record_frame's keyword arguments (and the unit's hash) for one unit."""
        key = f"{dataset}/{self.figure}/{unit}"
        extra = {"figure": self.figure, "unit": unit, "options": self.opts}
        chash = unit_hash(method, params, key, self.seed, f"{self.figure}_synthetic", extra)
        return {
            "experiment": self.experiment,
            "method": method,
            "params": params,
            "dataset": dataset,
            "dataset_key": key,
            "seed": self.seed,
            "protocol": f"{self.figure}_synthetic",
            "chash": chash,
            "n_features": n_features,
            "n_classes": 3,
            "n_train": self.n_train,
            "n_test": self.n_test,
        }

    def unit(self, name: str, chash: str, compute: Callable[[], pd.DataFrame]) -> pd.DataFrame:
        path = self.root / f"{name}.parquet"
        frame, computed = run_unit(path, chash, compute, force=self.force)
        self.written.append(str(path))
        state = "computed" if computed else "already computed"
        log(f"[{self.figure}] {name}: {state} ({time.perf_counter() - self.start:.0f}s)")
        return frame

    def draw(self, dataset: str, params: dict, repetition: int):
        """:func:`draw` of the study's sizes and seed."""
        return draw(dataset, params, self.n_train, self.n_test, self.seed, repetition)

    def progress(self, name: str, done: int) -> None:
        total = self.repetitions
        if done == total or done % max(1, total // 10) == 0:
            elapsed = time.perf_counter() - self.start
            log(f"[{self.figure}] {name}: {done}/{total} repetitions ({elapsed:.0f}s)")


def _with_columns(frame: pd.DataFrame, columns: dict) -> pd.DataFrame:
    """``frame`` with per-row study columns inserted before ``timestamp``."""
    at = frame.columns.get_loc("timestamp")
    for offset, (name, values) in enumerate(columns.items()):
        frame.insert(at + offset, name, values)
    return frame


def _nb(opts: dict) -> tuple[dict, FixedAlphaNaiveBayes]:
    params = {"alpha": float(opts.get("pseudo_count", 1.0))}
    return params, FixedAlphaNaiveBayes(**params)


def _fsnb(opts: dict) -> tuple[dict, ForwardStagewiseNaiveBayes]:
    params = {"alpha": float(opts.get("pseudo_count", 1.0)), **(opts.get("fsnb") or {})}
    return params, ForwardStagewiseNaiveBayes(**params)


# ---------------------------------------------------------------------------------------------
# Figure 1: NB with irrelevant vs redundant copies
# ---------------------------------------------------------------------------------------------
FIG1_DEFAULTS = {
    **TOY_DESIGN,
    "n_noise": 50,
    "worlds": {
        "base": "vidaurre_toy",
        "irrelevant": "vidaurre_toy_irrelevant50",
        "redundant": "vidaurre_toy_redundant50",
    },
}


def _world_params(dataset: str, n_noise: int) -> dict:
    return {} if dataset == "vidaurre_toy" else {"n_noise": n_noise}


def fig1_study(cfg) -> dict:
    """Fig. 1: NB's test error (and training error, per-class test error, test log-loss) on the
    toy world without noise, with ``n_noise`` irrelevant and with ``n_noise`` redundant
    predictors, ``repetitions`` × (``n_train`` + ``n_test``). One unit per world."""
    study = Study(cfg, "fig1", FIG1_DEFAULTS)
    opts = study.opts
    n_noise = _int_opt(opts, "n_noise", 50, minimum=0)
    params, nb = _nb(opts)
    for world, dataset in opts["worlds"].items():
        gen = _world_params(dataset, n_noise)
        n_features = 3 if dataset == "vidaurre_toy" else 3 + n_noise
        ctx = study.context(NB_METHOD, params, dataset, world, n_features)

        def compute(world=world, dataset=dataset, gen=gen, ctx=ctx):
            frames = []
            for r in range(study.repetitions):
                Xtr, ytr, Xte, yte = study.draw(dataset, gen, r)
                model = nb.fit(Xtr, ytr)
                ones = np.ones((1, Xtr.shape[1]))
                test = alpha_scores(model, Xte, yte, ones).iloc[0]
                train = alpha_scores(model, Xtr, ytr, ones).iloc[0]
                rows = [("test", k, v) for k, v in test.items()]
                rows += [("train", k, train[k]) for k in ("error", "log_loss")]
                rows.append(("test", "predict_error", float(np.mean(model.predict(Xte) != yte))))
                frames.append(
                    record_frame(
                        rows, repetition=r, extra={"world": world, "n_noise": n_noise}, **ctx
                    )
                )
                study.progress(world, r + 1)
            return pd.concat(frames, ignore_index=True)

        study.unit(world, ctx["chash"], compute)
    return {"written": study.written}


# ---------------------------------------------------------------------------------------------
# Figure 2: error against the number of predictors
# ---------------------------------------------------------------------------------------------
FIG2_DEFAULTS = {
    **TOY_DESIGN,
    "n_noise": 50,
    "worlds": {"irrelevant": "vidaurre_toy_irrelevant50", "redundant": "vidaurre_toy_redundant50"},
}


def fig2_study(cfg) -> dict:
    """Fig. 2: test error (overall and per class) of NB on the first k predictors, k = 1 ..
    3 + ``n_noise`` (X1, X2, X3, then the noise predictors in order), with irrelevant and with
    redundant noise; every repetition kept (the paper shows one). One unit per world; column
    ``n_predictors`` = k."""
    study = Study(cfg, "fig2", FIG2_DEFAULTS)
    opts = study.opts
    n_noise = _int_opt(opts, "n_noise", 50, minimum=0)
    params, nb = _nb(opts)
    p = 3 + n_noise
    prefixes = np.tril(np.ones((p, p)))  # row k − 1: α = 1 on the first k predictors
    for world, dataset in opts["worlds"].items():
        ctx = study.context(NB_METHOD, params, dataset, world, p)

        def compute(world=world, dataset=dataset, ctx=ctx):
            frames = []
            for r in range(study.repetitions):
                Xtr, ytr, Xte, yte = study.draw(dataset, {"n_noise": n_noise}, r)
                model = nb.fit(Xtr, ytr)
                scores = alpha_scores(model, Xte, yte, prefixes)
                scores.insert(0, "n_predictors", np.arange(1, p + 1))
                long = scores.melt(id_vars="n_predictors", var_name="metric")
                rows = [("test", m, v) for m, v in zip(long["metric"], long["value"])]
                frame = record_frame(rows, repetition=r, **ctx)
                frames.append(
                    _with_columns(
                        frame,
                        {"world": world, "n_noise": n_noise, "n_predictors": long["n_predictors"]},
                    )
                )
                study.progress(world, r + 1)
            return pd.concat(frames, ignore_index=True)

        study.unit(world, ctx["chash"], compute)
    return {"written": study.written}


# ---------------------------------------------------------------------------------------------
# Figures 3 and 4: the (α2, α3) grid with X1 in the model
# ---------------------------------------------------------------------------------------------
FIG3_DEFAULTS = {
    **TOY_DESIGN,
    "dataset": "vidaurre_toy",
    "grid_points": 21,
    "panels": {"a": 0.0, "b": 0.5},
    "population": "exact",
}
FIG4_DEFAULTS = {**FIG3_DEFAULTS, "dataset": "vidaurre_toy_continuous", "population": 100000}


def alpha_grid(points: int) -> np.ndarray:
    """(α1 = 1, α2, α3) for α2, α3 on ``points`` evenly spaced values of [0, 1] (α2 slowest)."""
    values = np.linspace(0.0, 1.0, points)
    a2, a3 = np.meshgrid(values, values, indexing="ij")
    return np.column_stack([np.ones(a2.size), a2.ravel(), a3.ravel()])


def _grid_study(cfg, figure: str, defaults: dict) -> dict:
    study = Study(cfg, figure, defaults)
    opts = study.opts
    dataset = str(opts["dataset"])
    grid = alpha_grid(_int_opt(opts, "grid_points", 21, minimum=2))
    population = opts.get("population")
    params, nb = _nb(opts)
    for panel, tie in opts["panels"].items():
        tie = float(tie)
        ctx = study.context(NB_METHOD, params, dataset, f"panel_{panel}", 3)
        extra = {"panel": str(panel), "tie": tie}

        def compute(tie=tie, ctx=ctx, extra=extra, panel=panel):
            frames = []
            for r in range(study.repetitions):
                Xtr, ytr, Xte, yte = study.draw(dataset, {"tie_x2_x3": tie}, r)
                model = nb.fit(Xtr, ytr)
                columns = {"alpha2": [], "alpha3": []}
                rows = []
                for split, (X, y) in (("test", (Xte, yte)), ("train", (Xtr, ytr))):
                    scores = alpha_scores(model, X, y, grid)
                    rows += [(split, "error", v) for v in scores["error"]]
                    columns["alpha2"] += list(grid[:, 1])
                    columns["alpha3"] += list(grid[:, 2])
                rows.append(("test", "nb_error", float(np.mean(model.predict(Xte) != yte))))
                columns["alpha2"].append(np.nan)
                columns["alpha3"].append(np.nan)
                frame = record_frame(rows, repetition=r, extra=extra, **ctx)
                frames.append(_with_columns(frame, columns))
                study.progress(f"panel {panel}", r + 1)
            frames.append(_population(population, dataset, tie, grid, nb, study, ctx, extra))
            return pd.concat(frames, ignore_index=True)

        study.unit(f"panel_{panel}", ctx["chash"], compute)
    return {"written": study.written}


def _population(population, dataset, tie, grid, nb, study, ctx, extra) -> pd.DataFrame:
    """Artefact rows of the surface on the true distribution: ``"exact"`` (the discrete toy
    world, by enumeration, :func:`toy_population_errors`) or an integer n (NB fitted on n fresh
    instances and tested on n others, drawn as repetition 10⁶, not one of the repetitions)."""
    if population in (None, False, 0):
        return pd.DataFrame()
    if population == "exact":
        kind = "population_exact"
        values = toy_population_errors(grid, tie)
    else:
        n = int(population)
        kind = "population_large_sample"
        Xtr, ytr, Xte, yte = draw(dataset, {"tie_x2_x3": tie}, n, n, study.seed, 10**6)
        values = alpha_scores(nb.fit(Xtr, ytr), Xte, yte, grid)["error"].to_numpy()
    rows = [{"alpha2": a2, "alpha3": a3, "value": v} for (_, a2, a3), v in zip(grid, values)]
    context = {k: ctx[k] for k in ("experiment", "method", "dataset", "seed")}
    return artefact_frame(
        kind,
        rows,
        **context,
        **extra,
        n_population=0 if population == "exact" else int(population),
        config_hash=ctx["chash"],
    )


def fig3_study(cfg) -> dict:
    """Fig. 3: the test and training error of NB with α = (1, α2, α3) on the grid, per panel
    (``panels``: name → proportion of instances with x3 = x2; a: 0, b: 0.5), and the exact
    surface on the true distribution (``population: exact``). One unit per panel."""
    return _grid_study(cfg, "fig3", FIG3_DEFAULTS)


def fig4_study(cfg) -> dict:
    """Fig. 4: as Fig. 3 on the continuous twin ``vidaurre_toy_continuous`` (Gaussian NB with
    interpolated means and standard deviations); ``population: n`` adds the surface of NB
    fitted and tested on n fresh instances each."""
    return _grid_study(cfg, "fig4", FIG4_DEFAULTS)


# ---------------------------------------------------------------------------------------------
# Figure 5: error along α of one relevant and one irrelevant predictor
# ---------------------------------------------------------------------------------------------
FIG5_DEFAULTS = {
    **TOY_DESIGN,
    "dataset": "vidaurre_toy_irrelevant50",
    "n_noise": 12,
    "step": 1,
    "relevant": "auto",
    "irrelevant": "noise1",
    "grid_points": 41,
    "fsnb": {"epsilon": 0.025, "n_steps": 20, "patience": 1},
}


def _relevant_at(state: np.ndarray, names: list[str], choice: str) -> str:
    """``choice``, or with "auto" the first of x1..x3 still out of the model (α = 0) at the
    state (else the relevant one with the lowest α)."""
    if choice != "auto":
        if choice not in names:
            raise ValueError(f"fig5.relevant: no predictor {choice!r} in {names}")
        return choice
    relevant = [n for n in RELEVANT if n in names]
    alphas = [state[names.index(n)] for n in relevant]
    return relevant[int(np.argmin(alphas))]


def fig5_study(cfg) -> dict:
    """Fig. 5: fsNB is fitted; at its state after ``step`` iterations (the α vector of trace row
    ``step``), the α of one relevant predictor (``relevant``; "auto": the first of x1..x3 still
    at α = 0) and of one irrelevant predictor (``irrelevant``) is moved over ``grid_points``
    values of [0, 1], the others held; training and test error (and log-loss) at each value.
    Records: metric ``error``/``log_loss`` per split with columns ``role``, ``variable``,
    ``alpha``; artefact ``state`` (the α of every predictor at the state). One unit."""
    study = Study(cfg, "fig5", FIG5_DEFAULTS)
    opts = study.opts
    dataset = str(opts["dataset"])
    n_noise = _int_opt(opts, "n_noise", 12, minimum=1)
    step = _int_opt(opts, "step", 1, minimum=0)
    values = np.linspace(0.0, 1.0, _int_opt(opts, "grid_points", 41, minimum=2))
    params, fsnb = _fsnb(opts)
    ctx = study.context("fsnb", params, dataset, "curves", 3 + n_noise)

    def compute():
        frames = []
        for r in range(study.repetitions):
            Xtr, ytr, Xte, yte = study.draw(dataset, {"n_noise": n_noise}, r)
            model = fsnb.fit(Xtr, ytr)
            names = [str(c) for c in Xtr.columns]
            path = model.fit_report_["alpha_path"]
            state = path[min(step, path.shape[0] - 1)]
            chosen = {
                "relevant": _relevant_at(state, names, str(opts["relevant"])),
                "irrelevant": str(opts["irrelevant"]),
            }
            rows, columns = [], {"role": [], "variable": [], "alpha": []}
            for role, name in chosen.items():
                if name not in names:
                    raise ValueError(f"fig5.{role}: no predictor {name!r} in {names}")
                A = np.repeat(state[None, :], values.size, axis=0)
                A[:, names.index(name)] = values
                for split, (X, y) in (("train", (Xtr, ytr)), ("test", (Xte, yte))):
                    scores = alpha_scores(model, X, y, A)
                    for metric in ("error", "log_loss"):
                        rows += [(split, metric, v) for v in scores[metric]]
                        columns["role"] += [role] * values.size
                        columns["variable"] += [name] * values.size
                        columns["alpha"] += list(values)
            frame = _with_columns(record_frame(rows, repetition=r, **ctx), columns)
            art = artefact_frame(
                "state",
                [{"variable": n, "value": float(a)} for n, a in zip(names, state)],
                **{k: ctx[k] for k in ("experiment", "method", "dataset", "seed")},
                repetition=r,
                step=min(step, path.shape[0] - 1),
                config_hash=ctx["chash"],
            )
            frames += [frame, art]
            study.progress("curves", r + 1)
        return pd.concat(frames, ignore_index=True)

    study.unit("curves", ctx["chash"], compute)
    return {"written": study.written}


# ---------------------------------------------------------------------------------------------
# Figure 6: fsNB's path, training/test error and the AIC decomposition
# ---------------------------------------------------------------------------------------------
FIG6_DEFAULTS = {
    **TOY_DESIGN,
    "dataset": "vidaurre_toy_irrelevant50",
    "n_noise": 12,
    "fsnb": {"epsilon": 0.025, "n_steps": 20, "patience": 5},
}

#: the trace columns kept in the fig6 artefact rows
TRACE_COLUMNS = ("step", "feature", "t", "alpha", "errors", "error", "log_loss", "Q", "d", "aic",
                 "n_evaluations")  # fmt: skip


def fig6_study(cfg) -> dict:
    """Fig. 6: fsNB on a world of 3 relevant and ``n_noise`` irrelevant predictors (the toy
    world + 12 uniform ones by default: "three relevant variables and twelve irrelevant
    variables", §6). Per repetition: the trace (artefact ``trace``: the columns
    :data:`TRACE_COLUMNS` of ``fit_report_["trace"]`` with ``train_error`` = its ``error``,
    ``test_error`` and ``test_log_loss`` of each visited model, ``penalty`` = 2d/N) and records
    of the selected (minimal AIC) model: test error, the path's minimal test error, their steps,
    and NB's test error (every α = 1, the same tables). One unit."""
    study = Study(cfg, "fig6", FIG6_DEFAULTS)
    opts = study.opts
    dataset = str(opts["dataset"])
    n_noise = _int_opt(opts, "n_noise", 12, minimum=0)
    params, fsnb = _fsnb(opts)
    ctx = study.context("fsnb", params, dataset, "path", 3 + n_noise)

    def compute():
        frames = []
        for r in range(study.repetitions):
            Xtr, ytr, Xte, yte = study.draw(dataset, {"n_noise": n_noise}, r)
            t0 = time.perf_counter()
            model = fsnb.fit(Xtr, ytr)
            fit_time = time.perf_counter() - t0
            report = model.fit_report_
            trace = report["trace"]
            test = alpha_scores(model, Xte, yte, np.vstack(trace["alphas"].to_list()))
            ones = np.ones((1, Xtr.shape[1]))  # NB: every α = 1
            rows = trace[list(TRACE_COLUMNS)].rename(columns={"error": "train_error"})
            rows = rows.assign(
                test_error=test["error"].to_numpy(),
                test_log_loss=test["log_loss"].to_numpy(),
                penalty=2.0 * trace["d"].to_numpy() / study.n_train,
                n_train=study.n_train,
                value=trace["aic"].to_numpy(),
            )
            rows["feature"] = rows["feature"].fillna("")
            best = int(report["best_step"])
            test_best = int(np.argmin(test["error"].to_numpy()))
            records = [
                ("test", "error", float(test["error"].iloc[best])),
                ("test", "log_loss", float(test["log_loss"].iloc[best])),
                ("test", "path_min_error", float(test["error"].iloc[test_best])),
                ("test", "final_error", float(test["error"].iloc[-1])),
                ("test", "nb_error", float(alpha_scores(model, Xte, yte, ones)["error"].iloc[0])),
                ("train", "error", float(trace["error"].iloc[best])),
                ("model", "aic_step", best),
                ("model", "test_min_step", test_best),
                ("model", "n_steps", len(trace) - 1),
                ("model", "n_evaluations", int(report["n_evaluations"])),
                ("model", "n_selected_features", int(model.n_selected_features_)),
                ("model", "fit_time", fit_time),
            ]
            art = artefact_frame(
                "trace",
                rows.to_dict("records"),
                **{k: ctx[k] for k in ("experiment", "method", "dataset", "seed")},
                repetition=r,
                config_hash=ctx["chash"],
            )
            frames += [record_frame(records, repetition=r, **ctx), art]
            study.progress("path", r + 1)
        return pd.concat(frames, ignore_index=True)

    study.unit("path", ctx["chash"], compute)
    return {"written": study.written}


def selection_mask(model, n_features: int) -> np.ndarray:
    """The variables a fitted model uses: ``selected_`` (a mask or indices), else all."""
    selected = getattr(model, "selected_", None)
    if selected is None:
        return np.ones(n_features, dtype=bool)
    selected = np.asarray(selected)
    if selected.dtype == bool:
        return selected
    mask = np.zeros(n_features, dtype=bool)
    mask[selected.astype(int)] = True
    return mask


def selected_variables(fold: FoldData) -> dict[str, list[dict]]:
    """Artefact hook: one row per input variable, ``selected`` ∈ {0, 1} and its weight (or α)."""
    names = [str(c) for c in fold.X_train.columns]
    mask = selection_mask(fold.model, len(names))
    weights = getattr(fold.model, "weights_", None)
    if weights is None:
        weights = getattr(fold.model, "alphas_", None)
    weights = np.ones(len(names)) if weights is None else np.asarray(weights, dtype=float)
    return {
        "selected": [
            {"variable": name, "selected": int(mask[k]), "value": float(weights[k])}
            for k, name in enumerate(names)
        ]
    }
