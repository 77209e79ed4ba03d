"""Why our wu2015 linear SVM beats the published one on autos and vowel (Table 2), and why the
same raw-input cause does not explain soybean, segment, mushroom and haberman.

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
first 3 splits of the experiment (the fast ones: one split, or a cheap data set; the others are
``slow``); the margins come from the errors measured with that grid (see the comments at the
assertions). The liblinear solver is seeded so that the non-converged fits of the raw variant
are reproducible.

The four other data sets with published LR / SVM errors above all of our splits (Table 2,
``results/wu2015_table2/REPRODUCTION.md``), same raw input (``loss="lr"``: liblinear ``-S 0``,
the paper's LR), mean test error % over 20 splits (small grid; the paper's 6 × 6 grid with 5
inner folds where noted), ours → raw, published:

* haberman (3 numeric attributes, no nominal, no missing value): LR 25.7 → 25.2, SVM 25.7 →
  25.5, published 36.67 and 33.33; the paper's grid gives the same (25.3 and 25.3). Raw changes
  nothing. The gap is one test instance: the paper tested on ⌊0.1 · 306⌋ = 30 instances (every
  Table 2 error that tells the two apart is k / ⌊0.1 |D|⌋), we on 31, and the published counts
  (10, 10, 11, 10 mistakes) are within our per-split counts (NB/BMA at most 10, LR/SVM 11).
* soybean (35 nominal attributes, missing values): LR 6.4 → 5.1, SVM 5.8 → 4.9, published
  10.29 and 11.76: raw input lowers the error, away from the paper (the paper's grid, 5
  splits: 6.4 and 4.9). Unexplained.
* mushroom (22 nominal attributes): LR 0.00 → 1.19, SVM 0.00 → 0.81, published 2.96 and 4.06
  (the paper's grid, 10 splits: 0.81 and 0.55): the integer codes cost a few test instances
  but stay far from the paper. The published
  errors are k / 812 (11, 31, 24, 33 mistakes), i.e. the 8124-row UCI mushroom; ours is the
  5644-row copy without the rows with a missing stalk-root (565 test instances), a different
  and easier problem.
* segment (19 numeric attributes): LR 7.7 → 8.7 (published 10.82, already inside our per-split
  range), SVM 8.0 → 9.6 (published 14.72, above every raw split: at most 14.29 = 33/231); the
  paper's grid: 8.5 and 8.7. Unscaled units move both part of the way; they do not close the
  SVM gap.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import LinearSVC

from repro import load_dataset
from repro.evaluation.protocols import get_protocol, make_splits
from repro.methods.core.checks import check_fit_input, check_predict_input
from repro.methods.wu2015.linear import LinearSVMClassifier
from repro.methods.wu2015.tuning import TunedClassifier
from repro.registry import make_method

#: conf/protocol/resample.yaml (the experiment's outer splits), first repetitions only
RESAMPLE = {"name": "resample", "kind": "holdout", "n_repeats": 20, "test_size": 0.1}
GRID = {"C": [0.1, 1.0, 10.0], "intercept_scaling": [1.0, 10.0]}
N_SPLITS = 3
REPORTED = Path(__file__).resolve().parents[2] / "experiments" / "wu2015" / "reported.csv"


class WekaLibLinearSVM(LinearSVMClassifier):
    """Weka ``LibLINEAR`` defaults: missing → mean / mode, nominal → its integer code, no
    scaling; ``scale="std"`` standardises every column instead (the control). ``loss="svm"``
    is liblinear's ``-S 1`` (L2-loss dual SVM, ``LinearSVC``), ``loss="lr"`` its ``-S 0``
    (L2-regularised logistic regression, the paper's LR)."""

    def __init__(
        self, C=1.0, intercept_scaling=1.0, categorical_features="auto", scale="none", loss="svm"
    ):
        self.C = C
        self.intercept_scaling = intercept_scaling
        self.categorical_features = categorical_features
        self.scale = scale
        self.loss = loss

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
        common = {
            "C": self.C,
            "intercept_scaling": self.intercept_scaling,
            "tol": 0.01,  # Weka LibLINEAR -E default
            "max_iter": 1000,  # liblinear 1.33's iteration limit
            "random_state": 0,
        }
        if self.loss == "lr":
            model = LogisticRegression(solver="liblinear", **common)
        else:
            model = LinearSVC(**common)
        if self.classes_.size > 2:
            model = OneVsRestClassifier(model)
        self.model_ = model.fit(self._design(Z), y_idx)
        return self

    def decision_function(self, X):
        return self.model_.decision_function(self._design(check_predict_input(self, X)))


def _errors(dataset, base, n_splits=N_SPLITS):
    ds = load_dataset(dataset)
    X, y = ds.X, np.asarray(ds.y)
    splits = make_splits(get_protocol(RESAMPLE), y, seed=0, dataset=dataset)[:n_splits]
    errors = []
    for split in splits:
        model = TunedClassifier(method=base, grid=GRID, inner_cv=3).fit(
            X.iloc[split.train], y[split.train]
        )
        errors.append(np.mean(model.predict(X.iloc[split.test]) != y[split.test]))
    return np.array(errors)


#: (paper's error, our 20-split mean of results/wu2015_table2), % per (data set, loss); a test's
#: threshold is their midpoint: a variant that explains the gap lands above it (towards the
#: paper), one that does not stays below it
GAP = {
    ("autos", "svm"): (55.0, 26.2),
    ("vowel", "svm"): (47.5, 34.0),
    ("vowel", "lr"): (44.44, 34.34),
    ("haberman", "lr"): (36.67, 24.84),
    ("haberman", "svm"): (33.33, 25.00),
    ("soybean", "lr"): (10.29, 6.09),
    ("soybean", "svm"): (11.76, 5.58),
    ("mushroom", "lr"): (2.96, 0.00),
    ("mushroom", "svm"): (4.06, 0.00),
    ("segment", "lr"): (10.82, 7.47),
    ("segment", "svm"): (14.72, 7.97),
}


def _midpoint(dataset, loss="svm"):
    return sum(GAP[dataset, loss]) / 2 / 100


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_autos_raw_input_on_the_first_split():
    # the fast version of the next test: first split, ours 14.29 % (3 of 21), Weka-style 57.14 %
    # (12 of 21); midpoint 40.6: margins 26.3 and 16.5 points.
    mid = _midpoint("autos", "svm")
    assert _errors("autos", "svm", n_splits=1)[0] < mid
    assert _errors("autos", WekaLibLinearSVM(), n_splits=1)[0] > mid


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_autos_gap_is_the_missing_scaling():
    # measured (mean of 3 splits, %): ours 23.8; Weka-style 57.1 (57.1 on each split); Weka-style
    # with standardised columns 28.6. Midpoint 40.6: margins 16.8, 16.5 and 12.0 points.
    mid = _midpoint("autos", "svm")
    assert _errors("autos", "svm").mean() < mid
    assert _errors("autos", WekaLibLinearSVM()).mean() > mid
    # same integer codes, columns standardised: the error comes back to ours
    assert _errors("autos", WekaLibLinearSVM(scale="std")).mean() < mid


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_vowel_raw_input_on_the_first_split():
    # the fast version of the next test: first split, ours 33.33 % (33 of 99), Weka-style
    # 48.48 % (48 of 99); midpoint 40.75: margins 7.4 and 7.7 points (7 and 8 instances).
    mid = _midpoint("vowel", "svm")
    assert _errors("vowel", "svm", n_splits=1)[0] < mid
    assert _errors("vowel", WekaLibLinearSVM(), n_splits=1)[0] > mid


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_vowel_gap_is_the_integer_coded_nominals():
    # measured (mean of 3 splits, %): ours 32.7; Weka-style 44.4; Weka-style with standardised
    # columns 44.4 (the speaker number stays one integer-coded column). Midpoint 40.75: margins
    # 8.0, 3.6 and 3.6 points (3.6 points = 11 of the 297 test instances).
    mid = _midpoint("vowel", "svm")
    assert _errors("vowel", "svm").mean() < mid
    assert _errors("vowel", WekaLibLinearSVM()).mean() > mid
    # scaling does not help here: the encoding of the nominal attributes does
    assert _errors("vowel", WekaLibLinearSVM(scale="std")).mean() > mid


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_vowel_lr_gap_is_the_integer_coded_nominals_too():
    # LR (liblinear -S 0) on vowel, measured (3 splits, %): ours 33.3, 33.3, 33.3; Weka-style
    # 40.4, 38.4, 46.5 (mean 41.8). Midpoint 39.39: the raw input lands above it (towards the
    # paper's 44.44), ours below
    mid = _midpoint("vowel", "lr")
    assert _errors("vowel", "lr").mean() < mid
    assert _errors("vowel", WekaLibLinearSVM(loss="lr")).mean() > mid


#: the data sets' sizes in the paper's Table 1 (mushroom: the full UCI set)
PAPER_SIZE = {"haberman": 306, "soybean": 683, "segment": 2310, "mushroom": 8124}


def _published(dataset):
    rep = pd.read_csv(REPORTED)
    rep = rep[(rep["dataset"] == dataset) & (rep["metric"] == "error")]
    return dict(zip(rep["method"], rep["value"], strict=True))


def _is_count(error, n_test):
    # the published errors are rounded to 0.01 %: k / n_test within half of that
    k = round(error * n_test)
    return abs(error - k / n_test) <= 0.00005 + 1e-12


def test_published_errors_are_mistakes_over_a_tenth_rounded_down():
    # The paper's test part held ⌊0.1 |D|⌋ instances, ours (StratifiedShuffleSplit, 10 %) holds
    # ⌈0.1 |D|⌉: one more on haberman (31 vs 30) and soybean (69 vs 68). Mushroom's published
    # errors are counts over 812 = ⌊0.1 · 8124⌋ (the full UCI set), not over our 565.
    for dataset, size in PAPER_SIZE.items():
        y = np.asarray(load_dataset(dataset).y)
        ours = make_splits(get_protocol(RESAMPLE), y, seed=0, dataset=dataset)[0].test.size
        assert ours == -(-y.size // 10)
        paper = size // 10
        published = _published(dataset)
        assert len(published) == 4
        assert all(_is_count(e, paper) for e in published.values()), dataset
        if ours != paper:
            assert not all(_is_count(e, ours) for e in published.values()), dataset
    assert load_dataset("mushroom").y.size == 5644


def test_haberman_gap_is_one_test_instance():
    # Published NB (and BMA): 33.33 % = 10 of 30. Our NB over the experiment's 20 splits (31 test
    # instances each) makes at most 10 mistakes too, 10 / 31 = 32.26 %: under the one-split rule
    # the cell is "outside" only because of the test part's size. (LR: published 11 / 30, ours
    # at most 11 / 31 = 35.48 %, the same count; results/wu2015_table2.)
    ds = load_dataset("haberman")
    X, y = ds.X, np.asarray(ds.y)
    mistakes = []
    for split in make_splits(get_protocol(RESAMPLE), y, seed=0, dataset="haberman"):
        model = make_method("nb_laplace").fit(X.iloc[split.train], y[split.train])
        mistakes.append(int(np.sum(model.predict(X.iloc[split.test]) != y[split.test])))
        assert split.test.size == 31
    published = _published("haberman")["nb_laplace"]
    assert round(published * 30) == max(mistakes) == 10
    assert max(mistakes) / 31 < published


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("loss", ["lr", "svm"])
def test_haberman_raw_input_changes_nothing(loss):
    # measured (first 3 splits, %): LR ours 22.58 35.48 29.03, raw 22.58 35.48 25.81; SVM ours
    # the same, raw 25.81 32.26 29.03: at most one test instance (1 / 31) apart on a split, and
    # at most one over the three (27 vs 26 and 27 vs 27 mistakes).
    ours = _errors("haberman", loss)
    raw = _errors("haberman", WekaLibLinearSVM(loss=loss))
    one = 1 / 31 + 1e-9
    assert np.abs(raw - ours).max() <= one
    assert abs(raw.sum() - ours.sum()) <= one


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("loss", ["lr", "svm"])
def test_haberman_raw_input_does_not_close_the_gap(loss):
    # measured (mean of the 20 splits, %): LR ours 25.65, raw 25.16; SVM ours 25.65, raw 25.48
    # (the paper's grid, raw: 25.32 for both). Midpoints 30.76 (LR) and 29.17 (SVM): margins
    # >= 3.7 points; ours and raw differ by less than one test instance (1 / 31 = 3.2 points).
    ours = _errors("haberman", loss, n_splits=20)
    raw = _errors("haberman", WekaLibLinearSVM(loss=loss), n_splits=20)
    assert raw.mean() < _midpoint("haberman", loss)
    assert abs(raw.mean() - ours.mean()) < 1 / 31


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("loss", ["lr", "svm"])
def test_soybean_raw_input_does_not_close_the_gap(loss):
    # measured (mean of 3 splits, %): LR ours 7.25, raw 5.80; SVM ours 5.31, raw 5.31 (over 20
    # splits: LR 6.45 -> 5.07, SVM 5.80 -> 4.86). Midpoints 8.19 (LR) and 8.67 (SVM): margins 2.4
    # and 3.4 points. Raw input never raises the error here (1 / 69 = 1.45 points per instance).
    ours = _errors("soybean", loss)
    raw = _errors("soybean", WekaLibLinearSVM(loss=loss))
    assert raw.mean() < _midpoint("soybean", loss)
    assert raw.mean() <= ours.mean() + 1e-12


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("loss", ["lr", "svm"])
def test_mushroom_raw_input_does_not_close_the_gap(loss):
    # measured (mean of 3 splits, %): ours 0.00 (every split, both losses); raw LR 0.71, SVM 0.83
    # (20 splits: 1.19 and 0.81). Midpoints 1.48 (LR) and 2.03 (SVM): margins 0.77 points (4
    # of the 565 test instances) and 1.2 points. The published errors are over the 8124-row set
    # (test_published_errors_are_mistakes_over_a_tenth_rounded_down).
    ours = _errors("mushroom", loss)
    raw = _errors("mushroom", WekaLibLinearSVM(loss=loss))
    assert ours.max() == 0.0
    assert 0.0 < raw.mean() < _midpoint("mushroom", loss)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_segment_raw_input_moves_lr_and_svm_part_of_the_way():
    # SVM, measured (mean of 3 splits, %): ours 7.65, raw 10.10 (20 splits: 7.99 -> 9.57, at
    # most 14.29 = 33 / 231 on a split, the paper's 14.72 is 34 / 231; the paper's grid: 8.70).
    # Midpoint 11.35: margin 1.25 points (2.9 of the 231 test instances); raw is 2.45 points
    # (5.7 instances) above ours.
    ours = _errors("segment", "svm")
    raw = _errors("segment", WekaLibLinearSVM(loss="svm"))
    assert ours.mean() + 2 / 231 < raw.mean() < _midpoint("segment", "svm")
    # LR (its published 10.82 already lies in our per-split range): ours 7.79, raw 9.67 (20
    # splits: 7.71 -> 8.74), 1.88 points (4.3 instances) above ours
    ours = _errors("segment", "lr")
    raw = _errors("segment", WekaLibLinearSVM(loss="lr"))
    assert raw.mean() > ours.mean() + 2 / 231
