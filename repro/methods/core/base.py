"""The weighted naive Bayes that almost every method of the project is.

    score_j(x) = log P(y=j) + Σ_k w_k · log P(x_k | y=j),   P_w(y=j | x) = softmax_j(score)
    (boulle2007 eq. 3, hue2024 eq. 2)

Subclasses choose the per-variable models (:meth:`_make_variable_model`), the class prior
(:meth:`_class_log_prior`) and the weights (:meth:`_fit_weights`), and validate their
hyper-parameters in :meth:`_check_params` (with :mod:`repro.methods.core.checks`); the base class
runs that check, validates the input, fits the variable models once, checks the weights, and
predicts (:meth:`_joint_log_likelihood`: the score above, summed one variable of weight > 0 at a
time). Weights are finite and ≥ 0: selection gives 0/1, averaging [0, 1], and WNB (vidaurre2012
eq. 6) may exceed 1.

The weight searches of boulle2007, hue2024 and Khiops read the training data as
:class:`repro.methods.core.engine.EncodedData`, built one variable at a time: a discrete variable
as N codes into its table of log P(x_k | y) (its N × J log-likelihoods are never materialised),
any other as its N × J column; their :class:`~repro.methods.core.engine.ScoreEngine` updates the
N × J score matrix in O(N·J) per variable.

Parallel preparation: an estimator with an ``n_jobs`` parameter (the MODL family,
``fnb_khiops``) fits its variable models over blocks of variables (:func:`fit_variable_models`):
on that many threads when they are all MODL discretizations of numeric variables (one compiled
call per block, :mod:`repro.preprocessing.modl.batch`), else in that many processes;
bit-identical to the serial fit. The others fit them one after another. ``fit_report_`` gives
the wall seconds of both stages (``preparation_time``, ``weighting_time``) and ``fit_cpu_`` their
CPU seconds (``preparation`` includes the CPU of the worker processes).

Output bound: the estimators with an ``output_shrink`` parameter ("none" or "khiops") may pass
the posterior through Khiops' shrink toward uniform,
p̂ = (p + 0.5/(J(N+1)))/(1 + 0.5/(N+1)) (:func:`repro.preprocessing.tables.khiops_output_shrink`);
:meth:`WeightedNaiveBayes._output_shrink` says which one a fitted model applies.
"""

from __future__ import annotations

import numbers
import os
import time

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from repro.methods.core.checks import (
    check_choice,
    check_fit_input,
    check_predict_input,
    estimator_tags,
)
from repro.methods.core.summary import expected_terms, importances, model_summary, shapley_values
from repro.preprocessing.modl.batch import batch_fittable, fit_models
from repro.preprocessing.tables import class_log_prior, khiops_output_shrink
from repro.preprocessing.variables import VariableModel
from repro.runtime.cores import resolve_n_jobs

#: values of the ``output_shrink`` parameter: no bound, or Khiops' shrink toward uniform
OUTPUT_SHRINKS = ("none", "khiops")


def check_output_shrink(value) -> None:
    """``output_shrink`` must be one of :data:`OUTPUT_SHRINKS` (ValueError naming both)."""
    check_choice("output_shrink", value, OUTPUT_SHRINKS)


def check_n_jobs(value) -> None:
    """An estimator's ``n_jobs``: None or a non-zero integer (joblib's convention), else a
    ValueError. The folds' ``n_jobs`` have their own rule (≥ 1 or -1):
    :func:`repro.evaluation.runner.check_fold_jobs`."""
    ok = value is None or (isinstance(value, numbers.Integral) and not isinstance(value, bool))
    if not ok or value == 0:
        raise ValueError(f"n_jobs must be None or a non-zero integer, got {value!r}")


#: blocks of variables per process of the parallel preparation (load balance vs per-task cost)
BLOCKS_PER_JOB = 4
#: variables per block of the serial path (a contiguous copy of that many columns at a time)
SERIAL_BLOCK = 256
#: at most this many values (8 bytes each) in one block of either path
BLOCK_VALUES = 2**23


def map_variable_blocks(task, items, Z, columns, n_jobs=1, *args):
    """``task(items[block], columns of Z in the block, *args)`` over blocks of variables, in order.

    ``items[i]`` goes with column ``columns[i]`` of ``Z``. Each block of columns is copied into
    one contiguous (variables × N) float64 array, so that every variable is read as a contiguous
    row (a float32 Z, see :class:`~repro.methods.core.encoding.TabularEncoder`, exactly). The task
    returns (list with one result per item, CPU seconds, process id). ``n_jobs`` (joblib's
    convention: None = 1, −1 = every core this process may use,
    :func:`repro.runtime.cores.resolve_n_jobs`) > 1 runs about ``BLOCKS_PER_JOB·n_jobs`` blocks in
    worker processes (joblib's loky backend: the Python steps of the nominal variables' grouping
    hold the GIL, so threads would not run them in parallel); otherwise blocks of
    ``SERIAL_BLOCK`` variables run here, one after another. A block holds at most
    ``BLOCK_VALUES`` values (fewer columns when N is large). Both paths run the same code on the
    same values: the results are bit-identical. Returns (the concatenated results, the CPU
    seconds spent in other processes), so that a fit can account for the CPU of its workers (the
    parent process only waits).
    """
    columns = np.asarray(columns, dtype=np.int64)
    n_vars = columns.size
    n_jobs = resolve_n_jobs(n_jobs) if n_vars > 1 else 1
    width = max(1, min(SERIAL_BLOCK, BLOCK_VALUES // max(1, Z.shape[0])))  # columns per block
    if n_jobs <= 1:
        results = (
            task(
                items[b0 : b0 + width],
                np.ascontiguousarray(Z[:, columns[b0 : b0 + width]].T, dtype=np.float64),
                *args,
            )
            for b0 in range(0, n_vars, width)
        )
    else:
        n_blocks = max(BLOCKS_PER_JOB * n_jobs, -(-n_vars * Z.shape[0] // BLOCK_VALUES))
        blocks = np.array_split(np.arange(n_vars), min(n_vars, n_blocks))
        results = Parallel(n_jobs=n_jobs, prefer="processes")(
            delayed(task)(
                [items[i] for i in block],
                np.ascontiguousarray(Z[:, columns[block]].T, dtype=np.float64),
                *args,
            )
            for block in blocks
        )
    out, worker_cpu, here = [], 0.0, os.getpid()
    for block_results, cpu, pid in results:
        out.extend(block_results)
        if pid != here:  # blocks run in this process (serial, threads) are counted by it
            worker_cpu += cpu
    return out, worker_cpu


def fit_variable_models(models, Z, y, n_classes, n_jobs=1):
    """Fits ``models[k]`` on column k of ``Z`` (:func:`map_variable_blocks`); returns (fitted
    models, CPU seconds of the worker processes).

    When every model is fitted by a compiled MODL kernel of :mod:`repro.preprocessing.modl.batch`
    (the discretization of a numeric variable, either variant), the blocks run
    in this process and ``n_jobs`` is the number of its threads (no GIL, nothing pickled);
    otherwise ``n_jobs`` processes (:func:`map_variable_blocks`).
    """
    models = list(models)
    n_threads = 1
    if n_jobs not in (None, 1) and all(batch_fittable(m, n_classes) for m in models):
        n_threads, n_jobs = resolve_n_jobs(n_jobs), 1
    return map_variable_blocks(
        fit_variable_block, models, Z, np.arange(len(models)), n_jobs, y, n_classes, n_threads
    )


def fit_variable_block(models, columns, y, n_classes, n_threads=1):
    """Task of :func:`fit_variable_models`: ``models[i]`` fitted on ``columns[i]``
    (:func:`repro.preprocessing.modl.batch.fit_models`, on ``n_threads`` threads)."""
    start = time.process_time()
    fitted = fit_models(models, columns, y, n_classes, n_threads)
    return fitted, time.process_time() - start, os.getpid()


class WeightedNaiveBayes(ClassifierMixin, BaseEstimator):
    """Base class of the weighted naive Bayes classifiers.

    Attributes (after fit)
    ----------------------
    classes_ : ndarray (J,)
    class_count_ : ndarray (J,)
    class_log_prior_ : ndarray (J,)
    variables_ : list of fitted :class:`~repro.preprocessing.variables.VariableModel`
        (one per column)
    weights_ : ndarray (K,), finite and ≥ 0
    selected_ : ndarray (K,) of bool, ``weights_ > 0``
    n_selected_features_ : int
    n_features_in_, feature_names_in_ : as scikit-learn
    fit_report_ : dict (criterion value, iterations, stage times)
    fit_cpu_ : dict, CPU seconds of the stages ("preparation" with its worker processes',
        "weighting"; kept out of ``fit_report_``, whose scalar entries are stored records)
    """

    #: nominal-column detection, see :class:`repro.methods.core.encoding.TabularEncoder`
    categorical_features = "auto"

    def __sklearn_tags__(self):
        return estimator_tags(super().__sklearn_tags__())

    def __sklearn_is_fitted__(self) -> bool:
        """Fitted once ``weights_`` exists (a parameter may end in "_": ``lambda_``)."""
        return hasattr(self, "weights_")

    # ------------------------------------------------------------------ hooks
    def _check_params(self) -> None:
        """Raise a ValueError naming a hyper-parameter that is out of range (called by fit)."""

    def _make_variable_model(self, k: int, nominal: bool, n_categories: int) -> VariableModel:
        raise NotImplementedError

    def _class_log_prior(self, class_count: np.ndarray) -> np.ndarray:
        return class_log_prior(class_count)

    def _selection(self, weights: np.ndarray) -> np.ndarray:
        """``selected_``: the variables the model uses (weight > 0 unless a subclass says)."""
        return weights > 0

    def _fit_weights(self, Z: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Weights w_k ≥ 0 (finite); the plain naive Bayes gives weight 1 to every variable."""
        return np.ones(Z.shape[1])

    def _limit_selection(self, Z: np.ndarray, y: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """The weights as the model keeps them (a subclass may cap the number of variables and
        re-optimise under the cap); here ``weights`` unchanged."""
        return weights

    def _output_shrink(self) -> str:
        """The output bound applied by :meth:`predict_log_proba`, one of :data:`OUTPUT_SHRINKS`:
        the ``output_shrink`` parameter of the estimators that have one, else "none"
        (a subclass that always bounds its output, as Khiops' FNB, returns "khiops")."""
        return getattr(self, "output_shrink", "none")

    # -------------------------------------------------------------------- fit
    def fit(self, X, y):
        start, start_cpu = time.perf_counter(), time.process_time()
        self._check_params()
        Z, y_idx = check_fit_input(self, X, y)
        n_classes = self.classes_.size
        self.class_count_ = np.bincount(y_idx, minlength=n_classes).astype(np.float64)
        self.class_log_prior_ = np.asarray(self._class_log_prior(self.class_count_), float)
        models = []
        for k in range(Z.shape[1]):
            nominal = bool(self.encoder_.categorical_[k])
            cats = self.encoder_.categories_[k]
            models.append(self._make_variable_model(k, nominal, 0 if cats is None else len(cats)))
        self.variables_, worker_cpu = fit_variable_models(
            models, Z, y_idx, n_classes, getattr(self, "n_jobs", 1)
        )
        prepared, prepared_cpu = time.perf_counter(), time.process_time()
        self.fit_report_ = {"preparation_time": prepared - start}
        self.fit_cpu_ = {"preparation": prepared_cpu - start_cpu + worker_cpu}
        weights = np.asarray(self._fit_weights(Z, y_idx), dtype=np.float64)
        if weights.shape != (Z.shape[1],) or not np.all(np.isfinite(weights) & (weights >= 0)):
            raise RuntimeError(
                f"{type(self).__name__} produced invalid weights: {Z.shape[1]} finite values "
                f"≥ 0 expected, got {weights!r}"
            )
        weights = np.asarray(self._limit_selection(Z, y_idx, weights), dtype=np.float64)
        self.weights_ = weights
        self.selected_ = self._selection(weights)
        self.n_selected_features_ = int(self.selected_.sum())
        self.fit_report_["weighting_time"] = time.perf_counter() - prepared
        self.fit_cpu_["weighting"] = time.process_time() - prepared_cpu
        # what the model learned (summary()): each term's training mean, the Shapley background
        self.expected_terms_ = expected_terms(self, Z)
        self.importances_ = importances(self, Z, self.expected_terms_)
        return self

    # ---------------------------------------------------------- what it learned
    def active_variables(self) -> np.ndarray:
        """Indices of the variables whose term enters the score (weight > 0 here)."""
        return np.flatnonzero(self.weights_)

    def variable_term(self, k: int, column: np.ndarray) -> np.ndarray:
        """Term t_kj of variable k in the class scores (N × J): w_k · log P(x_k | j)."""
        return self.weights_[k] * self.variables_[k].log_likelihood(column)

    def shapley_values(self, X) -> np.ndarray:
        """Exact Shapley values of the variables for the rows of ``X`` (training rows as the
        background; :mod:`repro.methods.core.summary`): N × K of the log-odds of
        ``classes_[1]`` for two classes, N × K × J of the class-centred scores otherwise."""
        check_is_fitted(self, "weights_")
        return shapley_values(self, check_predict_input(self, X), self.expected_terms_)

    def summary(self, X=None) -> pd.DataFrame:
        """One row per input variable, most important first: its kind, its partition
        (intervals or value groups, readable), number of parts, MODL level, weight, whether it
        is selected, and its importance, the mean |Shapley value| on the training rows (and on
        ``X`` when given: ``importance_on_data``); see :mod:`repro.methods.core.summary`."""
        check_is_fitted(self, "weights_")
        Z = check_predict_input(self, X) if X is not None else None
        names = getattr(self, "feature_names_in_", None)
        return model_summary(self, Z, None if names is None else list(names))

    # ---------------------------------------------------------------- predict
    def _joint_log_likelihood(self, Z: np.ndarray) -> np.ndarray:
        jll = np.repeat(self.class_log_prior_[None, :], Z.shape[0], axis=0)
        for k in self.active_variables():
            jll += self.variable_term(k, Z[:, k])
        return jll

    def predict_log_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "weights_")
        jll = self._joint_log_likelihood(check_predict_input(self, X))
        jll -= jll.max(axis=1, keepdims=True)  # keeps precision when scores are huge
        log_proba = jll - logsumexp(jll, axis=1, keepdims=True)
        if self._output_shrink() == "khiops":
            n_train = int(self.class_count_.sum())
            return np.log(khiops_output_shrink(np.exp(log_proba), n_train, self.classes_.size))
        return log_proba

    def predict_proba(self, X) -> np.ndarray:
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self, "weights_")
        return self.classes_[np.argmax(self.predict_log_proba(X), axis=1)]
