"""Hyper-parameter tuning by inner cross-validation: the nested protocol of wu2015 §5.

:class:`TunedClassifier` wraps any method of the registry (or any classifier) with a grid of
parameter values; ``fit`` picks the grid point with the best mean inner-CV score on the training
data (scikit-learn's :class:`~sklearn.model_selection.GridSearchCV` over fixed, seeded,
stratified folds) and refits it on all the training data. Run inside an outer resampling protocol
(``protocol=resample``) this is the paper's nested random-resampling CV: Γ for BMA-NB, C × B for
liblinear LR and SVM.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import GridSearchCV, ParameterGrid, StratifiedKFold
from sklearn.utils import get_tags
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted, validate_data

from repro.methods.core.checks import (
    check_fit_input,
    check_object_values,
    check_target,
    check_X_shape,
)
from repro.runtime.cores import resolve_n_jobs

#: attributes of the refitted best model that the wrapper exposes as its own
DELEGATED = ("weights_", "selected_", "n_selected_features_", "n_features_in_", "feature_names_in_")


def inner_n_splits(y, inner_cv: int) -> int:
    """Number of inner folds: ``inner_cv``, reduced to the smallest class count (≥ 2).

    Stratified k-fold needs k members of every class. When the smallest class of the training
    part has fewer than ``inner_cv`` members the folds are reduced to that count (but never below
    2); a class with a single member then sits in one test fold and is absent from the
    corresponding training part (scikit-learn warns; the warning is silenced here because this
    fallback is the documented behaviour). Returns 0 when no class has 2 members (no CV possible).
    """
    _, counts = np.unique(np.asarray(y), return_counts=True)
    if counts.max(initial=0) < 2:
        return 0
    return int(max(2, min(int(inner_cv), int(counts.min()))))


def inner_splits(y, inner_cv: int = 5, random_state: int = 0) -> list:
    """The inner stratified folds used by :class:`TunedClassifier` (a list of (train, test))."""
    y = np.asarray(y)
    n_splits = inner_n_splits(y, inner_cv)
    if n_splits == 0:
        return []
    cv = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
        return list(cv.split(np.zeros((y.size, 1)), y))


class TunedClassifier(ClassifierMixin, BaseEstimator):
    """A classifier whose hyper-parameters are chosen by inner stratified cross-validation.

    Parameters
    ----------
    method : str or estimator
        A registry id or alias (``"bma_nb"``, ``"lr"``, …) with its default parameters, or an
        unfitted scikit-learn classifier.
    grid : dict of lists
        Parameter name → candidate values (all combinations are tried, as
        :class:`~sklearn.model_selection.ParameterGrid`). An empty grid or a single point skips
        the inner CV.
    inner_cv : int ≥ 2, default 5
        Inner stratified folds (shuffled with ``random_state``); reduced when a class is smaller
        (see :func:`inner_n_splits`).
    scoring : str, default "accuracy"
        A scikit-learn scorer name ("accuracy", "neg_log_loss", "roc_auc_ovr_weighted", …).
    refit : bool, default True
        Refit the best grid point on all the training data (needed to predict).
    random_state : int, default 0
        Seed of the inner folds: the tuning is deterministic.
    n_jobs : int or None, default None
        Grid points × folds in parallel (keep 1/None when the outer folds already run in parallel).
    params : dict or None, default None
        Fixed parameters of the base method, set on it before the grid's values (a grid value
        wins), e.g. ``{"gaussian": "weka"}`` for ``bma_nb``. From the command line,
        ``method=bma_nb_tuned +method.gaussian=weka`` lands here: the registry passes the keys
        that the wrapper does not have to its inner method
        (:func:`repro.registry.build_method`).

    Ties between grid points are broken in favour of the first one in
    :class:`~sklearn.model_selection.ParameterGrid` order (keys sorted, values in the given order).
    A grid point whose fit fails on a fold gets a NaN score there and is ranked last. Bad input
    is refused before the search, with the method's own message: a grid value out of the
    method's range (its ``_check_params`` hook), data the method's input checks refuse; and
    after it, a grid point that failed on every inner fold and fails on all the data too.

    Attributes
    ----------
    best_params_ : dict
    best_score_ : float (NaN when no inner CV was run)
    cv_results_ : dict (as GridSearchCV; empty when no inner CV was run)
    n_splits_ : int, inner folds used (0 = no CV: a single grid point or too few instances)
    best_estimator_ : the refitted best model
    classes_ : ndarray
    weights_, selected_, n_selected_features_, n_features_in_, feature_names_in_ :
        those of ``best_estimator_`` when it has them.
    fit_report_ : dict
        ``tuning_time`` (inner CV, s), ``refit_time`` (the final fit alone, s: what wu2015 Table 2
        reports as training time), ``n_candidates``, ``n_splits``, ``best_score`` and the best
        parameters as ``best_<name>`` (numbers only).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> grid = {"gamma": [0.5, 1.0, 1.5]}
    >>> model = TunedClassifier(method="bma_nb", grid=grid, inner_cv=3).fit(X, y)
    >>> model.best_params_["gamma"] in (0.5, 1.0, 1.5)
    True
    """

    def __init__(
        self,
        *,
        method="nb_laplace",
        grid=None,
        inner_cv=5,
        scoring="accuracy",
        refit=True,
        random_state=0,
        n_jobs=None,
        params=None,
    ):
        self.method = method
        self.grid = grid
        self.inner_cv = inner_cv
        self.scoring = scoring
        self.refit = refit
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.params = params

    # --------------------------------------------------------------- helpers
    def _base_estimator(self):
        params = {} if self.params is None else self.params
        if not isinstance(params, dict):
            raise ValueError(f"params must be a dict of parameter name -> value, got {params!r}")
        if isinstance(self.method, str):
            from repro.registry import make_method

            return make_method(self.method, **params)
        if isinstance(self.method, BaseEstimator):
            return clone(self.method).set_params(**params)
        raise ValueError(
            f"method must be a registry id or a scikit-learn estimator, got {self.method!r}"
        )

    def _checked_grid(self, base) -> dict:
        grid = {} if self.grid is None else self.grid
        if not isinstance(grid, dict):
            raise ValueError(
                f"grid must be a dict of parameter name -> list of values, got {grid!r}"
            )
        valid = base.get_params(deep=True)
        out = {}
        for name, values in grid.items():
            if name not in valid:
                raise ValueError(
                    f"grid: unknown parameter {name!r} for {type(base).__name__}; "
                    f"valid parameters: {', '.join(sorted(valid))}"
                )
            values = list(values) if isinstance(values, list | tuple | np.ndarray) else [values]
            if not values:
                raise ValueError(f"grid: parameter {name!r} has no candidate value")
            for value in values:
                self._check_point(base, {name: value})
            out[name] = values
        return out

    def _method_name(self, base) -> str:
        return self.method if isinstance(self.method, str) else type(base).__name__

    def _check_point(self, base, point: dict) -> None:
        """The base method's own parameter checks (its ``_check_params`` hook) on a grid value:
        an out-of-range value is refused before the search, with the method's message."""
        candidate = clone(base).set_params(**point)
        hook = getattr(candidate, "_check_params", None)
        if hook is None:
            return
        try:
            hook()
        except ValueError as exc:
            raise ValueError(f"grid of {self._method_name(base)}: {exc}") from exc

    def _check_data(self, base, X, y) -> None:
        """The base method's input checks on the training data (the package's estimators: the
        encoder's column checks too), so that bad data fail here and not in every inner fit."""
        if type(base).__module__.startswith("repro."):
            check_fit_input(clone(base), X, y)

    def _failed_point_error(self, base, points, X, y) -> ValueError | None:
        """The error of the first of ``points`` (grid points that failed on every inner fold)
        whose fit on all the data fails too, with the method's own message; else None."""
        for point in points:
            try:
                clone(base).set_params(**point).fit(X, y)
            except Exception as exc:  # the method's own message, with the grid point
                return ValueError(
                    f"grid of {self._method_name(base)}: the point {point} failed on every "
                    f"inner fold: {exc}"
                )
        return None

    def _search(self, base, grid, splits, X, y) -> GridSearchCV:
        """The inner-CV grid search; a grid point that fails on every inner fold and on all the
        data is an error with the method's message (not scikit-learn's "All the N fits
        failed"), other fit failures are warnings and NaN scores, as in GridSearchCV."""
        search = GridSearchCV(
            base,
            param_grid=grid,
            scoring=self.scoring,
            cv=splits,
            refit=False,
            n_jobs=None if self.n_jobs is None else resolve_n_jobs(self.n_jobs),
            error_score=np.nan,
        )
        with warnings.catch_warnings(record=True) as caught:
            warnings.filterwarnings("ignore", message="One or more of the test scores")
            try:
                search.fit(X, y)
            except ValueError as exc:  # every fit failed
                error = self._failed_point_error(base, list(ParameterGrid(grid))[:1], X, y)
                raise (error or exc) from exc
        scores = np.asarray(search.cv_results_["mean_test_score"], dtype=float)
        failed = [p for p, s in zip(search.cv_results_["params"], scores) if not np.isfinite(s)]
        error = self._failed_point_error(base, failed, X, y)
        if error is not None:
            raise error
        for w in caught:  # the search's warnings, once no error replaces them
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return search

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        try:
            base_tags = get_tags(self._base_estimator())
        except ValueError:
            return tags
        tags.input_tags = base_tags.input_tags
        return tags

    # ------------------------------------------------------------------- fit
    def fit(self, X, y):
        if not isinstance(self.inner_cv, int | np.integer) or self.inner_cv < 2:
            raise ValueError(f"inner_cv must be an integer ≥ 2, got {self.inner_cv!r}")
        base = self._base_estimator()
        grid = self._checked_grid(base)
        # the input checks of every estimator of the package (clear errors before any CV)
        X = check_X_shape(X, fitting=True)
        check_object_values(X)
        validate_data(self, X, skip_check_array=True, reset=True)
        classes, y_idx = check_target(y, X.shape[0])
        self._check_data(base, X, y)
        candidates = list(ParameterGrid(grid))
        start = time.perf_counter()
        splits = (
            inner_splits(y_idx, self.inner_cv, self.random_state) if len(candidates) > 1 else []
        )
        if splits:
            search = self._search(base, grid, splits, X, y)
            self.cv_results_ = search.cv_results_
            self.best_params_ = dict(search.best_params_)
            self.best_score_ = float(search.best_score_)
        else:
            self.cv_results_ = {}
            self.best_params_ = dict(candidates[0])
            self.best_score_ = float("nan")
        tuned = time.perf_counter()
        self.n_splits_ = len(splits)
        self.classes_ = classes
        self.fit_report_ = {
            "tuning_time": tuned - start,
            "n_candidates": len(candidates),
            "n_splits": self.n_splits_,
            "best_score": self.best_score_,
        }
        for name, value in self.best_params_.items():
            if isinstance(value, int | float | np.number) and not isinstance(value, bool):
                self.fit_report_[f"best_{name}"] = float(value)
        if self.refit:
            best = clone(base).set_params(**self.best_params_)
            t0 = time.perf_counter()
            best.fit(X, y)
            self.fit_report_["refit_time"] = time.perf_counter() - t0
            self.best_estimator_ = best
            self.classes_ = best.classes_
            for name in DELEGATED:
                if hasattr(best, name):
                    setattr(self, name, getattr(best, name))
            inner_report = getattr(best, "fit_report_", {})
            if "criterion" in inner_report:
                self.fit_report_["criterion"] = inner_report["criterion"]
        return self

    # --------------------------------------------------------------- predict
    def _best(self):
        check_is_fitted(self, "best_params_")
        if not hasattr(self, "best_estimator_"):
            raise AttributeError("TunedClassifier was fitted with refit=False: it cannot predict")
        return self.best_estimator_

    def predict(self, X):
        return self._best().predict(X)

    def predict_proba(self, X):
        return self._best().predict_proba(X)

    def predict_log_proba(self, X):
        best = self._best()
        if hasattr(best, "predict_log_proba"):
            return best.predict_log_proba(X)
        return np.log(np.clip(best.predict_proba(X), np.finfo(float).tiny, None))

    def _has_decision_function(self):
        model = getattr(self, "best_estimator_", None)
        return hasattr(model if model is not None else self._base_estimator(), "decision_function")

    @available_if(_has_decision_function)
    def decision_function(self, X):
        return self._best().decision_function(X)
