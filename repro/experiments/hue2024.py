"""hue2024 studies (Hue & Boullé 2024, §4): the cells of Figures 1–11 and what each
fitted fold keeps beyond the metrics.

Every figure of the paper compares configurations of a few methods on the same data sets:
the eight optimisers of ``wnb_opt`` (Fig. 1–3), sweeps of λ, p and ε of SG.CF against SNB
(Fig. 4–6), the initialisations and the FNB against SNB (Fig. 7–11). A Hydra multirun is a
cartesian product of overrides, so it cannot run SNB (``snb_cma``, which has no ``lambda_``)
beside a sweep of ``method.lambda_`` in one command; :func:`sweep_study` runs the list of
``hue2024.runs`` of an experiment config instead, each run a method with fixed parameters and
an optional sweep of some of them (the same grid a multirun would give), on every data set of
``hue2024.datasets``.

All five experiments store their cells in one experiment folder, ``hue2024.store``
(``results/hue2024_cells/<dataset>/<method_key>.parquet``): a cell several figures need (SNB,
SG.CF at λ = 0.25, p = 0.95, ε = 0.01, SG.CF at λ = 1) is the same file, computed by whichever
experiment runs first and read by the others (the runner's own resumption: same folder, same
configuration hash). The reports read that folder (``report.sources``).

Protocol: ``cv10`` with ``small_classes: allow`` (glass and soybean have classes smaller than 10,
stratified as the paper's Weka-style CV), ``cv5`` for the data sets above ``hue2024.cv5_above``
instances (10⁵: census_income_kdd), as §4.1.

Every cell has the artefact hook :func:`criterion_artefacts`: CR(w) of eq. 11 at the paper's final
settings (λ = 0.25, p = 0.95) of the fold's weights on the fold's training part, for every method
(Fig. 9 compares "the value of the continuous criterion using f_C regularization for all
algorithms": SNB's and FNB's weights too), and the number of informative variables (MODL Level
> 0, Table 1's NvInf) of the Khiops preparation of the training part.
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from repro.datasets import load_dataset
from repro.evaluation.cells import write_failure
from repro.evaluation.protocols import get_protocol
from repro.evaluation.runner import FoldData, make_cell, run_cell
from repro.experiments.common import log, run_options, section
from repro.methods.core.checks import check_predict_input
from repro.methods.core.engine import EncodedData
from repro.methods.hue2024.wnb_opt_criterion import fc_penalty, negative_log_likelihood
from repro.methods.khiops.prepared import KhiopsPreparedNaiveBayes

#: CR(w) of eq. 11 recorded for every fold at the paper's final settings (§4.3: λ = 0.25,
#: p = 0.95; δ as ``wnb_opt``'s default). Fixed here, not configurable: the artefacts of the
#: stored cells are computed with these values and are not part of their configuration hash.
REFERENCE_CRITERION = {"lambda_": 0.25, "p": 0.95, "delta": 1e-3}
#: numeric ``fit_report_`` entries recorded as model metrics (beside the ``*_time`` entries)
REPORT_KEYS = ("n_candidates", "null_criterion", "n_iterations", "n_evaluations", "converged")
#: data sets above this size run under cv5 (§4.1: "five or ten folds according to the size")
CV5_ABOVE = 100_000


class KhiopsPreparation(KhiopsPreparedNaiveBayes):
    """Khiops' MODL preparation alone (all weights 0): the tables and costs B(X_k) on which
    CR(w) is evaluated for a method with another preparation (``snb_cma``)."""

    def _fit_weights(self, Z, y):
        return np.zeros(Z.shape[1])


def reference_criterion(model, X_train, y_train) -> dict[str, float]:
    """CR(w) of eq. 11 (:data:`REFERENCE_CRITERION`) of ``model.weights_`` on its training data,
    over Khiops' preparation of that data (the model's own when it is Khiops-prepared), with
    CR(0) of the null model and the number of informative variables K_inf (MODL Level > 0).

    Weights of uninformative variables do not enter (the criterion is defined over the
    informative ones, as ``wnb_opt`` and ``fnb`` use them); weights are clipped to [0, 1].
    """
    prep = model
    if not isinstance(model, KhiopsPreparedNaiveBayes):
        prep = KhiopsPreparation().fit(X_train, y_train)
    order, cost_of = prep.prepared_candidates()
    y_idx = np.searchsorted(prep.classes_, np.asarray(y_train))
    if not order:
        null = float(-np.dot(np.bincount(y_idx), prep.class_log_prior_))
        return {"cr_eq11": null, "cr_eq11_null": null, "n_informative": 0.0}
    Z = check_predict_input(prep, X_train)
    data = EncodedData.from_estimator(prep, Z, y_idx, columns=order)
    costs = np.array([cost_of[k] for k in order], dtype=np.float64)
    lam, p, delta = (REFERENCE_CRITERION[k] for k in ("lambda_", "p", "delta"))
    args = (data.codes, data.offsets, data.table, data.log_prior, data.y)

    def cr(w):
        return (
            negative_log_likelihood(w, *args, gradient=False)
            + lam * fc_penalty(w, costs, p, delta)[0]
        )

    weights = np.clip(np.asarray(model.weights_, dtype=np.float64)[order], 0.0, 1.0)
    return {
        "cr_eq11": float(cr(weights)),
        "cr_eq11_null": float(cr(np.zeros(len(order)))),
        "n_informative": float(len(order)),
    }


def criterion_artefacts(fold: FoldData) -> dict[str, list[dict]]:
    """Artefact hook: rows ``quantity`` ∈ {cr_eq11, cr_eq11_null, n_informative} with ``value``
    (:func:`reference_criterion` of the fold's fitted model on its training part), and the
    model's scalar parameters as ``p_<name>`` columns (artefact rows carry no ``params``: these
    let a report tell the cells of one method apart, as the records' ``p_`` columns do)."""
    values = reference_criterion(fold.model, fold.X_train, fold.y_train)
    params = {
        f"p_{k}": v
        for k, v in fold.model.get_params(deep=False).items()
        if isinstance(v, bool | int | float | str)
    }
    return {"criterion": [{"quantity": k, "value": v, **params} for k, v in values.items()]}


# ---------------------------------------------------------------------------------------------
# The sweep
# ---------------------------------------------------------------------------------------------
def expand_runs(runs: list[dict]) -> list[tuple[str, dict]]:
    """``[(method, params)]`` of the runs of a config: each run ``{method, params, sweep}`` gives
    one (method, params) per point of the cartesian product of its ``sweep`` lists (in order,
    duplicates dropped). Numbers are floats (``lambda_: 1`` and ``1.0`` are one cell)."""
    out = []
    for run in runs:
        fixed = dict(run.get("params") or {})
        sweep = dict(run.get("sweep") or {})
        keys = list(sweep)
        for values in itertools.product(*(list(sweep[k]) for k in keys)):
            params = {k: _number(v) for k, v in {**fixed, **dict(zip(keys, values))}.items()}
            item = (str(run["method"]), params)
            if item not in out:
                out.append(item)
    return out


def _number(value):
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def dataset_protocol(base: dict, n_instances: int, cv5_above: int = CV5_ABOVE):
    """The protocol of a data set: ``base`` (cv10), or cv5 above ``cv5_above`` instances."""
    fields = dict(base)
    if n_instances > cv5_above:
        fields.update(name="cv5", n_splits=5)
    return get_protocol(fields)


def sweep_study(cfg) -> dict:
    """Every (method, params) of ``hue2024.runs`` on every data set of ``hue2024.datasets``.

    Config keys (section ``hue2024``): ``runs`` (see :func:`expand_runs`), ``datasets``, ``store``
    (the experiment folder of the cells; default the experiment's name), ``cv5_above``. Data sets
    run smallest first, all runs of one data set before the next, so that an interrupted
    sweep leaves complete data sets behind. A failing cell is logged and written as
    ``<store>/<dataset>/<method_key>.error.json``; the sweep continues.
    """
    opts = section(cfg, "hue2024")
    runs = expand_runs(list(opts["runs"]))
    store = str(opts.get("store") or cfg.experiment_name)
    base = section(cfg, "protocol")
    cv5_above = int(opts.get("cv5_above", CV5_ABOVE))
    options = run_options(cfg)
    datasets = sorted((load_dataset(name) for name in opts["datasets"]), key=lambda d: d.y.size)
    cells = [(ds, method, params) for ds in datasets for method, params in runs]
    start, failed, done = time.perf_counter(), [], 0
    for ds, method, params in cells:
        cell = make_cell(
            (method, params),
            ds,
            dataset_protocol(base, ds.y.size, cv5_above),
            int(cfg.seed),
            store,
            report_keys=REPORT_KEYS,
            artefacts=criterion_artefacts,
        )
        try:
            run_cell(cell, results_dir=str(cfg.results_dir), **options)
        except Exception as exc:  # noqa: BLE001 - a failing cell must not stop the sweep
            failed.append(f"{cell.method_key} on {ds.name}")
            write_failure(cell.failure_path(str(cfg.results_dir)), exc)
            log(f"FAILED {cell.method_key} on {ds.name}: {exc}")
        done += 1
        elapsed = time.perf_counter() - start
        log(
            f"[{done}/{len(cells)}] {cell.method_key} on {ds.name} "
            f"({elapsed:.0f}s elapsed, ETA {elapsed / done * (len(cells) - done):.0f}s)"
        )
    return {"store": store, "cells": len(cells), "failed": failed}
