"""Why our wu2015 linear SVM beats the published one on autos and vowel (Table 2).

wu2015 ran LIBLINEAR 1.33 through Weka's ``LibLINEAR`` wrapper (its reference list: "The Weka
classifier works with version 1.33 of LIBLINEAR"). With that wrapper's defaults the data reach
liblinear almost raw:

* no normalisation (``-Z`` off): numeric attributes keep their units (autos: price up to 45 400,
  curb weight up to 4 066, peak rpm up to 6 600);
* no nominal-to-binary conversion (off by default): a nominal attribute is passed as its Weka
  index 0, 1, 2, ... as if it were numeric (vowel: the 15-valued speaker number);
* missing values replaced by the mean / mode; bias feature B (tuned); L2-loss dual solver
  (``-S 1``), ``eps`` 0.01 and liblinear's 1000 iterations; one-vs-rest for several classes.

Our ``svm`` one-hot encodes nominal attributes and standardises numeric ones, which is why it
does better. Over the 20 splits of ``results/wu2015_table2`` ours is 26.2 % on autos (paper 55.0)
and 34.0 % on vowel (paper 47.5). Reproducing the wrapper's input handling (``WekaLibLinearSVM``
below) with the paper's full 6 × 6 C × B grid, 5-fold inner CV, on the first splits of the
experiment gave (mean test error %, ours → Weka-style):

* autos (5 splits): 22.9 → 65.7 (per split 57.1-76.2; the paper's 55.0 is one split);
* vowel (3 splits): 33.0 → 46.8 (paper 47.5);
* glass (5 splits): 44.5 → 62.7 (paper 47.6). Glass is not tested: the paper's 47.6 already
  lies in our per-split range (13.6-63.6 over 20 splits) and the Weka-style variant overshoots
  it as much as ours undershoots it, so it does not single out a cause there.

The two ingredients act separately: raw units alone (with one-hot nominals) give 73.3 % on
autos while standardising brings it back to 23.8 %; on vowel one-hot with raw units gives 34.0 %
(= ours, its numeric attributes are already of unit scale) but integer codes give 46.8 % (44.8 %
when also min-max normalised). So the gap is the encoding, not the solver or the grid.

The tests below use a smaller grid (C ∈ {0.1, 1, 10}, B ∈ {1, 10}, 3 inner folds) and the
first 3 splits of the experiment, to run in seconds; the margins come from the errors measured
with that grid (see the comments at the assertions). The liblinear solver is seeded so that the
non-converged fits of the raw variant are reproducible.
"""

import numpy as np
import pytest
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import LinearSVC

from repro import load_dataset
from repro.evaluation.protocols import get_protocol, make_splits
from repro.methods.core.checks import check_fit_input, check_predict_input
from repro.methods.wu2015.linear import LinearSVMClassifier
from repro.methods.wu2015.tuning import TunedClassifier

#: conf/protocol/resample.yaml (the experiment's outer splits), first repetitions only
RESAMPLE = {"name": "resample", "kind": "holdout", "n_repeats": 20, "test_size": 0.1}
GRID = {"C": [0.1, 1.0, 10.0], "intercept_scaling": [1.0, 10.0]}
N_SPLITS = 3


class WekaLibLinearSVM(LinearSVMClassifier):
    """Weka ``LibLINEAR`` defaults: missing → mean / mode, nominal → its integer code, no
    scaling; ``scale="std"`` standardises every column instead (the control)."""

    def __init__(self, C=1.0, intercept_scaling=1.0, categorical_features="auto", scale="none"):
        self.C = C
        self.intercept_scaling = intercept_scaling
        self.categorical_features = categorical_features
        self.scale = scale

    def _design(self, Z):
        return (np.where(np.isnan(Z), self.fill_, Z) - self.shift_) / self.scale_

    def fit(self, X, y):
        Z, y_idx = check_fit_input(self, X, y)
        fill = np.nanmean(Z, axis=0)
        for k in np.flatnonzero(self.encoder_.categorical_):
            codes = Z[~np.isnan(Z[:, k]), k].astype(np.int64)
            fill[k] = np.bincount(codes).argmax() if codes.size else 0.0
        self.fill_ = np.nan_to_num(fill)
        n = Z.shape[1]
        self.shift_, self.scale_ = np.zeros(n), np.ones(n)
        if self.scale == "std":
            filled = np.where(np.isnan(Z), self.fill_, Z)
            std = filled.std(axis=0)
            self.shift_, self.scale_ = filled.mean(axis=0), np.where(std > 0, std, 1.0)
        model = LinearSVC(
            C=self.C,
            intercept_scaling=self.intercept_scaling,
            tol=0.01,  # Weka LibLINEAR -E default
            max_iter=1000,  # liblinear 1.33's dual coordinate descent limit
            random_state=0,
        )
        if self.classes_.size > 2:
            model = OneVsRestClassifier(model)
        self.model_ = model.fit(self._design(Z), y_idx)
        return self

    def decision_function(self, X):
        return self.model_.decision_function(self._design(check_predict_input(self, X)))


def _errors(dataset, base):
    ds = load_dataset(dataset)
    X, y = ds.X, np.asarray(ds.y)
    splits = make_splits(get_protocol(RESAMPLE), y, seed=0, dataset=dataset)[:N_SPLITS]
    errors = []
    for split in splits:
        model = TunedClassifier(base, GRID, inner_cv=3).fit(X.iloc[split.train], y[split.train])
        errors.append(np.mean(model.predict(X.iloc[split.test]) != y[split.test]))
    return np.array(errors)


#: (paper's error, our 20-split mean of results/wu2015_table2), %; the test's threshold is their
#: midpoint: the Weka-style SVM must land above it (towards the paper), ours below it
GAP = {"autos": (55.0, 26.2), "vowel": (47.5, 34.0)}


def _midpoint(dataset):
    return sum(GAP[dataset]) / 2 / 100


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_autos_gap_is_the_missing_scaling():
    # measured (mean of 3 splits, %): ours 23.8; Weka-style 57.1 (57.1 on each split); Weka-style
    # with standardised columns 28.6. Midpoint 40.6: margins 16.8, 16.5 and 12.0 points.
    mid = _midpoint("autos")
    assert _errors("autos", "svm").mean() < mid
    assert _errors("autos", WekaLibLinearSVM()).mean() > mid
    # same integer codes, columns standardised: the error comes back to ours
    assert _errors("autos", WekaLibLinearSVM(scale="std")).mean() < mid


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_vowel_gap_is_the_integer_coded_nominals():
    # measured (mean of 3 splits, %): ours 32.7; Weka-style 44.4; Weka-style with standardised
    # columns 44.4 (the speaker number stays one integer-coded column). Midpoint 40.75: margins
    # 8.0, 3.6 and 3.6 points (3.6 points = 11 of the 297 test instances).
    mid = _midpoint("vowel")
    assert _errors("vowel", "svm").mean() < mid
    assert _errors("vowel", WekaLibLinearSVM()).mean() > mid
    # scaling does not help here: the encoding of the nominal attributes does
    assert _errors("vowel", WekaLibLinearSVM(scale="std")).mean() > mid
