"""Task functions of the boulle2007 experiments that are not a plain grid of cells, on the runner.

- :func:`waveform_study` (``experiment=boulle2007_waveform``): §5.3 and §6.3 of the paper, one
  stratified 70/30 split of waveform; NB, SNB(ACC), SNB(AUC), SNB(MAP), SNB(BMA), SNB(CMA), the
  selection methods searching all 2^K subsets of the informative variables. One runner cell per
  method; its artefact hook (:func:`waveform_artefacts`) keeps what Figs 3, 5, 6 and 7 need (the
  variable weights, the most probable models, the repartition of the log posteriors).
- :func:`table4_study` (``experiment=boulle2007_table4``): the seven methods of Table 4 under
  stratified 10-fold CV on the challenge data sets available here (OpenML cache), and on
  labelled stand-ins built from generators with constructed features.
- :func:`challenge_study` (``experiment=boulle2007_challenge``): the offline form of §8: SNB(CMA)
  with and without BER threshold post-optimisation, the BER guess by an inner stratified 10-fold
  CV on the training part, feature construction (F(2D)/F(3D)), Table 5's layout, and the training
  time against the data size (Fig. 12). Each entry and timing point is a runner unit.

Every task is resumable (a finished cell or unit is a Parquet file, skipped unless ``force``),
writes atomically, and takes its sizes from the configuration so that the tests run it on tiny
data. Artefact rows carry ``split = "artefact"`` and ``metric = "artefact:<kind>"``: they live
beside the records (``python -m repro.report`` reads everything under the experiment's folder)
without entering the metric tables, which only read ``split = "test"`` rows.
"""

from __future__ import annotations

import functools
import json
import math
import re
import time

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from repro.datasets import Dataset, DatasetUnavailableError, load_dataset
from repro.datasets.construction import FeatureConstruction
from repro.evaluation.metrics import predictive_metrics
from repro.evaluation.protocols import Protocol, get_protocol, make_splits
from repro.evaluation.records import is_current, jsonable, record_frame, unit_hash
from repro.evaluation.runner import (
    FoldData,
    aligned_proba,
    evaluate,
    make_cell,
    model_metrics,
    run_cell,
    run_unit,
)
from repro.evaluation.store import ResultsStore
from repro.experiments.common import log, results_root, run_options, section
from repro.methods.boulle2007.threshold import BERThreshold, balanced_error_rate
from repro.registry import make_method
from repro.runtime.cores import resolve_n_jobs

WAVEFORM_METHODS = ("nb", "snb_acc", "snb_auc", "snb_map", "snb_bma", "snb_cma")
#: fit_report entries recorded as model metrics besides the times and the criterion
REPORT_KEYS = ("n_candidates",)


def variable_label(name: str) -> str:
    """Display name of a variable: waveform's ``x5`` is the paper's ``V5``."""
    match = re.fullmatch(r"x(\d+)", str(name))
    return f"V{match.group(1)}" if match else str(name)


# ---------------------------------------------------------------------------------------------
# The waveform study (§5.3, §6.1, §6.3; Figs 3–8)
# ---------------------------------------------------------------------------------------------
def waveform_method_params(method: str, opts: dict) -> dict:
    """Parameters of one method of the waveform study (the search protocol of §5.3)."""
    if method in ("snb_acc", "snb_auc"):
        key = "acc_search" if method == "snb_acc" else "auc_search"
        return {"search": opts.get(key, "exhaustive")}
    if method in ("snb_map", "snb_bma", "snb_cma"):
        return {"search": opts.get("search", "exhaustive"), "keep_models": method == "snb_map"}
    return {}


def _informative(model) -> np.ndarray:
    return np.array([bool(getattr(v, "informative_", True)) for v in model.variables_])


def _weight_rows(model, names, search: str) -> list[dict]:
    informative = _informative(model)
    return [
        {
            "variable": variable_label(n),
            "variable_index": k + 1,
            "value": float(w),
            "informative": bool(informative[k]),
            "search": search,
        }
        for k, (n, w) in enumerate(zip(names, model.weights_))
    ]


def _ordered_models(result) -> np.ndarray:
    """Indices of the distinct evaluated models, most probable (lowest cost) first."""
    models = result.models
    keep = np.flatnonzero(models.first_occurrences())
    return keep[np.argsort(models.cost[keep], kind="stable")]


def posterior_artefacts(model, names, n_top: int = 200, n_points: int = 2001) -> dict:
    """Top models, repartition of the log posteriors and summary of a MAP search.

    ``model`` is a fitted SNB(MAP) with ``keep_models=True``. The posterior of model M relative
    to another is exp(cost(other) − cost(M)) (criterion (4) in nats); values are stored in log10.
    """
    result = model.search_result_
    models = result.models
    cand_cols = np.flatnonzero(_informative(model))
    labels = [variable_label(names[k]) for k in cand_cols]
    order = _ordered_models(result)
    cost = models.cost[order]
    ln10 = math.log(10.0)
    best = float(cost[0])
    top = order[:n_top]
    subsets = models.subsets(top)
    top_rows = [
        {
            "rank": r + 1,
            "variable": labels[i],
            "variable_index": int(cand_cols[i]) + 1,
            "value": float(subsets[r, i]),
            "n_selected": int(subsets[r].sum()),
            "log10_ratio_to_map": float((best - models.cost[top[r]]) / ln10),
        }
        for r in range(top.size)
        for i in range(len(labels))
    ]
    # repartition: sorted by increasing posterior (the paper's Fig. 6), evenly spaced points plus
    # the most probable models exactly
    m = order.size
    asc = cost[::-1]  # increasing posterior = decreasing cost
    pos = np.unique(
        np.concatenate(
            [
                np.round(np.linspace(0, m - 1, min(n_points, m))).astype(np.int64),
                np.arange(max(0, m - n_top), m),
            ]
        )
    )
    null = float(result.null_cost)
    post_rows = [
        {
            "position": int(p),
            "fraction": float(p / max(m - 1, 1)),
            "rank_from_top": int(m - p),
            "value": float((null - asc[p]) / ln10),
        }
        for p in pos
    ]
    # summary: first rank at which each variable appears, sizes of the good models
    first_rank = np.full(len(labels), -1)
    sizes_top_half = []
    half = max(1, m // 2)
    for start in range(0, m, 1 << 14):
        chunk = order[start : start + (1 << 14)]
        sub = models.subsets(chunk)
        if start < half:
            sizes_top_half.append(sub[: max(0, half - start)].sum(axis=1))
        missing = np.flatnonzero(first_rank < 0)
        if missing.size:
            hit = sub[:, missing]
            found = hit.any(axis=0)
            first_rank[missing[found]] = start + np.argmax(hit[:, found], axis=0) + 1
        if (first_rank >= 0).all() and start + chunk.size >= half:
            break
    sizes_top_half = np.concatenate(sizes_top_half) if sizes_top_half else np.zeros(1)
    summary = [
        {"key": "n_models", "value": float(m)},
        {"key": "n_candidates", "value": float(len(labels))},
        {"key": "null_cost", "value": null},
        {"key": "map_cost", "value": best},
        {"key": "log10_map_vs_null", "value": (null - best) / ln10},
        {"key": "log10_map_vs_worst", "value": float((cost[-1] - best) / ln10)},
        {"key": "mean_size_top_half", "value": float(sizes_top_half.mean())},
        {"key": "n_compressing_models", "value": float((cost < null).sum())},
    ]
    for i, label in enumerate(labels):
        r = int(first_rank[i])
        ratio = (models.cost[order[r - 1]] - best) / ln10 if r > 0 else np.nan
        summary.append(
            {
                "key": "first_rank",
                "variable": label,
                "value": float(r),
                "log10_map_over_model": float(ratio),
            }
        )
    return {"top_models": top_rows, "log_posterior": post_rows, "summary": summary}


def waveform_artefacts(
    fold: FoldData, *, method: str, search: str, n_top: int = 200, n_points: int = 2001
) -> dict:
    """The artefact hook of the waveform study: weights per variable (with, for an exhaustive
    SNB(ACC)/SNB(AUC), the forward greedy search's for reference), the scalar entries of the
    fit report and, for SNB(MAP), :func:`posterior_artefacts`."""
    model, names = fold.model, list(fold.X_train.columns)
    weights = _weight_rows(model, names, search)
    if method in ("snb_acc", "snb_auc") and search == "exhaustive":
        greedy = clone(model).set_params(search="greedy").fit(fold.X_train, fold.y_train)
        weights += _weight_rows(greedy, names, "greedy")
    report = getattr(model, "fit_report_", {}) or {}
    out = {
        "weights": weights,
        "fit_report": [
            {"key": k, "value": float(v)}
            for k, v in report.items()
            if isinstance(v, int | float) and not isinstance(v, bool)
        ],
    }
    if method == "snb_map" and hasattr(model, "search_result_"):
        out.update(posterior_artefacts(model, names, n_top, n_points))
    return out


def waveform_study(cfg) -> dict:
    """§5.3/§6.3 of boulle2007 on one stratified 70/30 split of waveform (Figs 3–8).

    Config keys: ``dataset`` (the generator and its size), ``seed`` (the split), ``protocol``
    (holdout70), ``waveform.methods``, ``waveform.search`` (MAP/BMA/CMA: ``exhaustive`` = all 2^K
    subsets of the informative variables, or ``heuristic`` = MS(FFWBW)), ``waveform.acc_search``
    / ``waveform.auc_search`` (``exhaustive``: the best training criterion over all subsets, or
    ``greedy``), ``waveform.n_top_models``, ``waveform.n_posterior_points``, ``force``.

    Each method is a runner cell whose baseline is the study's parameters, so it writes
    ``<results>/<experiment>/<dataset_key>/<method>.parquet`` (standard records: test and train
    metrics, model size and times) and ``<results>/<experiment>/artefacts/<dataset_key>/
    <method>.parquet`` (:func:`waveform_artefacts`). Its configuration hash is a unit hash (data
    set key, protocol name): the scheme the stored results were computed with.
    """
    opts = section(cfg, "waveform")
    methods = list(opts.get("methods", WAVEFORM_METHODS))
    ds = load_dataset(**section(cfg, "dataset"))
    protocol = get_protocol(section(cfg, "protocol") or "holdout70")
    options = run_options(cfg)
    results_dir = str(cfg.results_dir)
    written = {}
    for done, method in enumerate(methods, 1):
        params = waveform_method_params(method, opts)
        hook = functools.partial(
            waveform_artefacts,
            method=method,
            search=params.get("search", "none"),
            n_top=int(opts.get("n_top_models", 200)),
            n_points=int(opts.get("n_posterior_points", 2001)),
        )
        cell = make_cell(
            (method, params),
            ds,
            protocol,
            int(cfg.seed),
            str(cfg.experiment_name),
            baseline=params,
            hash_scheme="unit",
            report_keys=REPORT_KEYS,
            artefacts=hook,
        )
        path = cell.path(results_dir)
        written[method] = str(path)
        if (
            not options["force"]
            and is_current(path, cell.hash)
            and ResultsStore(results_dir).exists(cell.artefact_path(results_dir))
        ):
            log(f"[{done}/{len(methods)}] {method}: already computed ({path})")
            continue
        rec = run_cell(cell, results_dir, force=options["force"], progress=options["progress"])
        value = rec[rec["split"].isin(["test", "model"])].set_index("metric")["value"]
        arts = ResultsStore(results_dir).read(cell.artefact_path(results_dir))
        weights = arts.query("artefact == 'weights'")
        main = weights[(weights["search"] == hook.keywords["search"]) & (weights["value"] > 0)]
        log(
            f"[{done}/{len(methods)}] {method}: fit {value['fit_time']:.1f}s, ACC "
            f"{value['accuracy']:.4f} AUC {value['auc']:.4f} ILF {value['ilf']:.4f}; "
            f"{len(main)} variables {' '.join(main['variable'])}"
        )
    return written


# ---------------------------------------------------------------------------------------------
# Challenge data sets: stand-ins with constructed features (Table 4, Fig. 10; §8)
# ---------------------------------------------------------------------------------------------
def construction_label(n_features: int, order: int) -> str:
    """``10k F(2D)``-style label of a construction (the paper's notation)."""
    if n_features == 0:
        return "original"
    size = f"{n_features // 1000}k" if n_features % 1000 == 0 else str(n_features)
    return f"{size} F({order}D)"


def constructed_dataset(
    base: Dataset,
    n_features: int,
    order: int = 2,
    seed: int = 0,
    name: str | None = None,
    note: str = "",
) -> Dataset:
    """``base`` with ``n_features`` random sums of ``order`` of its numeric features appended
    (:class:`FeatureConstruction`; unsupervised, so it may see all rows without leaking labels)."""
    X = base.X
    if n_features > 0:
        X = FeatureConstruction(
            n_features=n_features, order=order, random_state=seed
        ).fit_transform(base.X)
    name = name or f"{base.name}+{n_features}F{order}D"
    meta = {
        **base.meta,
        "name": name,
        "source": "constructed",
        "base": base.name,
        "construction": construction_label(n_features, order),
        "notes": note or f"stand-in: {base.name} + {construction_label(n_features, order)}",
    }
    return Dataset(name=name, X=X, y=base.y, meta=meta)


def _available_challenge_sets(names, download: bool) -> tuple[list[Dataset], list[str]]:
    found, missing = [], []
    for name in names:
        try:
            found.append(load_dataset(name, download=download))
        except DatasetUnavailableError as exc:
            missing.append(name)
            log(f"skipped {name}: {str(exc).split('. ')[0]}")
    return found, missing


def table4_study(cfg) -> dict:
    """Table 4 / Fig. 10: the seven methods, stratified 10-fold CV, on the challenge data sets.

    The ten challenge sets (``table4.challenge_sets``) are read from the OpenML cache when
    present (``table4.download: true`` allows downloading); the stand-ins (``table4.standins``:
    generator name → parameters) get ``table4.construction`` constructed features and are named
    ``<generator>+<F>F<order>D``. Each (method, data set) is a standard cell of
    :func:`repro.evaluation.runner.evaluate` under ``<results>/<experiment>/``.
    """
    opts = section(cfg, "table4")
    methods = list(opts["methods"])
    method_params = opts.get("method_params") or {}
    seed = int(cfg.seed)
    experiment = str(cfg.experiment_name)
    protocol = get_protocol(section(cfg, "protocol") or "cv10")
    datasets, missing = _available_challenge_sets(
        opts.get("challenge_sets", []), bool(opts.get("download", False))
    )
    construction = opts.get("construction") or {}
    n_constructed = int(construction.get("n_features", 10000))
    order = int(construction.get("order", 2))
    for base_name, params in (opts.get("standins") or {}).items():
        base = load_dataset(base_name, **(params or {}))
        datasets.append(constructed_dataset(base, n_constructed, order, seed))
    cells = [(m, d) for d in datasets for m in methods]
    start = time.perf_counter()
    for done, (method, ds) in enumerate(cells, 1):
        spec = (method, method_params.get(method) or {})
        evaluate(
            spec,
            ds,
            protocol,
            seed=seed,
            experiment=experiment,
            results_dir=str(cfg.results_dir),
            **run_options(cfg),
        )
        elapsed = time.perf_counter() - start
        eta = elapsed / done * (len(cells) - done)
        log(
            f"[{done}/{len(cells)}] {method} on {ds.name} ({elapsed:.0f}s elapsed, ETA {eta:.0f}s)",
        )
    return {"datasets": [d.name for d in datasets], "missing": missing}


# --- §8: BER, threshold post-optimisation, BER guess ------------------------------------------
def ber_error_bar(y_true, y_pred) -> float:
    """Standard error of the test BER, the challenge's error bar σ (Guyon et al. 2006).

    BER = (1/J) Σ_c e_c with e_c the error rate of class c on its m_c test instances, so
    σ² = (1/J²) Σ_c e_c (1 − e_c) / m_c (binomial errors, independent classes).
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    classes = np.unique(y_true)
    var = 0.0
    for c in classes:
        wrong = y_pred[y_true == c] != c
        var += wrong.mean() * (1.0 - wrong.mean()) / wrong.size
    return float(math.sqrt(var) / classes.size)


def challenge_test_score(ber: float, guess: float, sigma: float) -> float:
    """Test score of the performance prediction challenge (Guyon et al. 2006):

        score = BER + δ·(1 − exp(−δ/σ)),  δ = |BER guess − BER|,  σ the test BER's error bar
        (:func:`ber_error_bar`).

    With the published Table 5 rows it gives e.g. Ada 0.1723 + 0.0073·(1 − e^{−0.0073/σ}) =
    0.1795 for σ ≈ 0.0019 (0.1793 published).
    """
    delta = abs(float(guess) - float(ber))
    if delta == 0.0:
        return float(ber)
    if not sigma > 0:
        return float(ber + delta)
    return float(ber + delta * (1.0 - math.exp(-delta / sigma)))


def _predictions(model: BERThreshold, X) -> tuple[np.ndarray, np.ndarray]:
    """Predictions at the most probable class and at the post-optimised threshold."""
    return model.estimator_.predict(X), model.predict(X)


def _ber_pair(model: BERThreshold, X, y) -> tuple[float, float]:
    """(BER at the most probable class, BER at the post-optimised threshold) of ``model``."""
    plain, thresholded = _predictions(model, X)
    return balanced_error_rate(y, plain), balanced_error_rate(y, thresholded)


def _guess_fold(estimator, X, y, train, test):
    model = BERThreshold(estimator=estimator).fit(X.iloc[train], y[train])
    return _ber_pair(model, X.iloc[test], y[test])


def _challenge_standins(opts: dict) -> list[Dataset]:
    out = []
    for base_name, spec in (opts.get("standins") or {}).items():
        spec = dict(spec or {})
        base = load_dataset(base_name, **(spec.get("params") or {}))
        positive = spec.get("positive_class")
        if positive is not None:  # a two-class version: positive_class vs the rest
            y = np.where(base.y == type(base.y[0])(positive), 1, 0)
            name = f"{base_name}_{positive}vsrest"
            base = Dataset(
                name=name,
                X=base.X,
                y=y,
                meta={
                    **base.meta,
                    "name": name,
                    "notes": f"{base_name}, class {positive} vs the rest",
                },
            )
        out.append(base)
    return out


def challenge_extra(ds: Dataset, construction: dict, opts: dict) -> dict:
    """Columns (and hashed configuration) of one challenge entry besides the method's."""
    n_constructed = int(construction.get("n_features", 0))
    order = int(construction.get("order", 2))
    return {
        "construction": construction_label(n_constructed, order),
        "n_constructed": n_constructed,
        "order": order,
        "test_size": float(opts.get("test_size", 0.5)),
        "guess_folds": int(opts.get("guess_folds", 10)),
        "source": str(ds.meta.get("source", "")),
        "data_params": json.dumps(jsonable(ds.meta.get("params", {})), sort_keys=True),
    }


def _file_stem(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+-]", "", label.replace(" ", "_"))


def challenge_hash(ds: Dataset, construction: dict, opts: dict, seed: int) -> str:
    """Configuration hash of one challenge entry (a runner unit)."""
    method, params = opts.get("method", "snb_cma"), opts.get("method_params") or {}
    extra = challenge_extra(ds, construction, opts)
    return unit_hash(method, params, ds.name, seed, "challenge_holdout", extra)


def challenge_cell(
    ds: Dataset, construction: dict, opts: dict, *, seed: int, n_jobs: int, experiment: str
):
    """One (data set, construction) entry of §8: test BER with and without the post-optimised
    threshold, BER guesses by a stratified ``guess_folds``-fold CV on the training part, guess
    errors and challenge test scores, AUC/ACC/CR, training time."""
    method = opts.get("method", "snb_cma")
    params = opts.get("method_params") or {}
    test_size = float(opts.get("test_size", 0.5))
    protocol = Protocol("challenge_holdout", "holdout", test_size=test_size)
    split = make_splits(protocol, ds.y, seed=seed, dataset=ds.name)[0]
    n_constructed = int(construction.get("n_features", 0))
    order = int(construction.get("order", 2))
    X, y = ds.X, np.asarray(ds.y)
    if n_constructed:
        fc = FeatureConstruction(n_features=n_constructed, order=order, random_state=seed)
        X = fc.fit_transform(X)
    Xtr, Xte = X.iloc[split.train], X.iloc[split.test]
    ytr, yte = y[split.train], y[split.test]
    estimator = make_method(method, **params)
    t0 = time.perf_counter()
    model = BERThreshold(estimator=estimator).fit(Xtr, ytr)
    fit_time = time.perf_counter() - t0
    pred, pred_thr = _predictions(model, Xte)
    ber, ber_thr = balanced_error_rate(yte, pred), balanced_error_rate(yte, pred_thr)
    sigma, sigma_thr = ber_error_bar(yte, pred), ber_error_bar(yte, pred_thr)
    classes = np.unique(y)
    prior = np.bincount(np.searchsorted(classes, ytr), minlength=classes.size) / ytr.size
    test_metrics = predictive_metrics(
        np.searchsorted(classes, yte), aligned_proba(model, Xte, classes), prior
    )
    train_metrics = predictive_metrics(
        np.searchsorted(classes, ytr), aligned_proba(model, Xtr, classes), prior
    )
    t0 = time.perf_counter()
    folds = StratifiedKFold(int(opts.get("guess_folds", 10)), shuffle=True, random_state=seed)
    pairs = Parallel(n_jobs=resolve_n_jobs(n_jobs))(
        delayed(_guess_fold)(estimator, Xtr, ytr, tr, te)
        for tr, te in folds.split(np.zeros(ytr.size), ytr)
    )
    guess_time = time.perf_counter() - t0
    guess, guess_thr = (float(v) for v in np.mean(np.asarray(pairs), axis=0))
    rows = [("test", k, v) for k, v in test_metrics.items()]
    rows += [
        ("test", "balanced_error_rate", ber),
        ("test", "balanced_error_rate_threshold", ber_thr),
        ("test", "ber_guess", guess),
        ("test", "ber_guess_threshold", guess_thr),
        ("test", "guess_error", abs(guess - ber)),
        ("test", "guess_error_threshold", abs(guess_thr - ber_thr)),
        ("test", "ber_error_bar", sigma),
        ("test", "ber_error_bar_threshold", sigma_thr),
        ("test", "test_score", challenge_test_score(ber, guess, sigma)),
        ("test", "test_score_threshold", challenge_test_score(ber_thr, guess_thr, sigma_thr)),
    ]
    rows += [("train", k, v) for k, v in train_metrics.items()]
    if model.train_ber_ is not None:
        rows.append(("train", "balanced_error_rate_threshold", model.train_ber_))
        rows.append(("model", "threshold", model.threshold_))
    rows += _model_rows(model.estimator_, X.shape[1], fit_time)
    rows.append(("model", "guess_time", guess_time))
    # later rows win (the argmax BER above equals predictive_metrics' one; keep one row each)
    rows = list({(s, m): (s, m, v) for s, m, v in rows}.values())
    return record_frame(
        rows,
        experiment=experiment,
        method=method,
        params=params,
        dataset=ds.name,
        dataset_key=ds.name,
        seed=seed,
        protocol=protocol.name,
        chash=challenge_hash(ds, construction, opts, seed),
        n_features=X.shape[1],
        n_classes=classes.size,
        n_train=ytr.size,
        n_test=yte.size,
        extra=challenge_extra(ds, construction, opts),
    )


def _model_rows(model, n_features: int, fit_time: float) -> list[tuple]:
    """Model rows of one fit on all the training rows (no separate prediction timed)."""
    values = {"fit_time": fit_time, "predict_time": 0.0}
    values.update(model_metrics(model, n_features, REPORT_KEYS))
    return [("model", k, v) for k, v in values.items()]


def timing_hash(dataset: str, n_constructed: int, opts: dict, seed: int) -> str:
    """Configuration hash of one timing point of Fig. 12 (a runner unit; the size N is in the
    file name)."""
    method, params = opts.get("method", "snb_cma"), opts.get("method_params") or {}
    extra = timing_extra(n_constructed)
    return unit_hash(method, params, f"timing/{dataset}", seed, "fit_all", extra)


def timing_cell(
    dataset: str, n_samples: int, n_constructed: int, opts: dict, *, seed: int, experiment: str
):
    """Fig. 12: training time of SNB(CMA) on ``dataset`` with ``n_samples`` rows and
    ``n_constructed`` F(2D) features appended (one fit on all rows)."""
    method = opts.get("method", "snb_cma")
    params = opts.get("method_params") or {}
    ds = constructed_dataset(load_dataset(dataset, n_samples=n_samples), n_constructed, 2, seed)
    model = make_method(method, **params)
    t0 = time.perf_counter()
    model.fit(ds.X, ds.y)
    fit_time = time.perf_counter() - t0
    rows = _model_rows(model, ds.n_features, fit_time)
    rows.append(("model", "n_values", float(ds.n_samples * ds.n_features)))
    return record_frame(
        rows,
        experiment=experiment,
        method=method,
        params=params,
        dataset=dataset,
        dataset_key=f"timing/{dataset}",
        seed=seed,
        protocol="fit_all",
        chash=timing_hash(dataset, n_constructed, opts, seed),
        n_features=ds.n_features,
        n_classes=ds.n_classes,
        n_train=ds.n_samples,
        n_test=0,
        extra=timing_extra(n_constructed),
    )


def timing_extra(n_constructed: int) -> dict:
    return {
        "construction": construction_label(int(n_constructed), 2),
        "n_constructed": int(n_constructed),
        "study": "timing",
    }


def challenge_study(cfg) -> dict:
    """§8 offline: BER with/without threshold post-optimisation, BER guess, Table 5, Fig. 12.

    Config ``challenge``: ``challenge_sets`` (tried in the OpenML cache; ``download`` allows a
    download), ``standins`` (generator → ``params``, optional ``positive_class`` for a two-class
    version), ``constructions`` (name → ``n_features``, ``order``, ``enabled``), ``test_size``,
    ``guess_folds``, ``method``/``method_params`` (SNB(CMA) by default), ``timing`` (``dataset``,
    ``n_samples`` and ``n_constructed`` lists: the grid of Fig. 12; ``enabled``).

    Writes ``<results>/<experiment>/<data set>/<construction>.parquet`` per entry and
    ``<results>/<experiment>/timing/<data set>__N<n>__K<k>.parquet`` per timing point, each a
    runner unit (:func:`repro.evaluation.runner.run_unit`).
    """
    opts = section(cfg, "challenge")
    seed = int(cfg.seed)
    experiment = str(cfg.experiment_name)
    root = results_root(cfg)
    options = run_options(cfg)
    real, missing = _available_challenge_sets(
        opts.get("challenge_sets", []), bool(opts.get("download", False))
    )
    datasets = real + _challenge_standins(opts)
    constructions = [
        spec for spec in (opts.get("constructions") or {}).values() if spec.get("enabled", True)
    ]
    units = [(d, c) for d in datasets for c in constructions]
    written = []
    start = time.perf_counter()
    for done, (ds, spec) in enumerate(units, 1):
        label = challenge_extra(ds, spec, opts)["construction"]
        path = root / ds.name / f"{_file_stem(label)}.parquet"
        kwargs = {"seed": seed, "n_jobs": options["n_jobs"], "experiment": experiment}
        compute = functools.partial(challenge_cell, ds, spec, opts, **kwargs)
        chash = challenge_hash(ds, spec, opts, seed)
        frame, computed = run_unit(path, chash, compute, force=options["force"])
        written.append(str(path))
        if not computed:
            log(f"[{done}/{len(units)}] {ds.name} {label}: already computed")
            continue
        test = frame[frame.split == "test"].set_index("metric")["value"]
        log(
            f"[{done}/{len(units)}] {ds.name} {label}: test BER "
            f"{test['balanced_error_rate']:.4f} → {test['balanced_error_rate_threshold']:.4f} "
            f"with threshold; guess {test['ber_guess_threshold']:.4f} "
            f"({time.perf_counter() - start:.0f}s)"
        )
    timing = opts.get("timing") or {}
    if timing.get("enabled", True):
        name = timing.get("dataset", "madelon_like")
        grid = [
            (n, k) for n in timing.get("n_samples", []) for k in timing.get("n_constructed", [])
        ]
        for done, (n, k) in enumerate(grid, 1):
            path = root / "timing" / f"{name}__N{n}__K{k}.parquet"
            frame, computed = run_unit(
                path,
                timing_hash(name, int(k), opts, seed),
                functools.partial(
                    timing_cell, name, int(n), int(k), opts, seed=seed, experiment=experiment
                ),
                force=options["force"],
            )
            written.append(str(path))
            if computed:
                fit = frame.set_index("metric")["value"]["fit_time"]
                k_total = frame["n_features"].iloc[0]
                log(f"[timing {done}/{len(grid)}] N={n} K={k_total}: {fit:.1f}s")
    return {"written": written, "missing": missing}
