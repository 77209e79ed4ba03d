"""Out-of-range values of the per-class histogram densities (EWB-10, Shimazaki; elovaara2008):
the "column" rule by hand, and the collapse below the majority-class rate that the "edge" rule
caused on shuttle and autos (10-fold CV, the project's folds), gone with the default."""

import dataclasses

import numpy as np
import pytest

from repro import make_method
from repro.datasets import load_dataset
from repro.evaluation.protocols import get_protocol, make_splits
from repro.preprocessing.histograms import HistogramDensityModel
from repro.preprocessing.variables import EqualWidthDensityModel


def _two_classes():
    # class 0: 0..9 (range 9), class 1: 100..109 (range 9); the column's range is 109
    x = np.r_[np.arange(10.0), np.arange(10.0) + 100]
    y = np.r_[np.zeros(10), np.ones(10)].astype(int)
    return x, y


def test_ewb10_out_of_range_density_by_hand():
    x, y = _two_classes()
    column = EqualWidthDensityModel(10, "column").fit(x, y, 2)
    tail = EqualWidthDensityModel(10, "tail").fit(x, y, 2)
    edge = EqualWidthDensityModel(10, "edge").fit(x, y, 2)
    new = np.array([4.5, 200.0, -1.0, 50.0, 9.0])
    # inside: every bin of a class holds one value, mass (1 + 1)/(10 + 10), width 0.9
    inside = np.log(0.1 / 0.9)
    for model in (column, tail, edge):
        assert model.log_likelihood(new)[0, 0] == pytest.approx(inside)
        assert model.log_likelihood(new)[4, 0] == pytest.approx(inside)  # the upper end: inside
    # "column": one pseudo-count over the column's range, 1/((10 + 10) · 109)
    ll = column.log_likelihood(new)
    for row, j in [(1, 0), (1, 1), (2, 1), (3, 0), (3, 1)]:
        assert ll[row, j] == pytest.approx(-np.log(20 * 109.0))
    # "tail": over the class's own range, 1/((10 + 10) · 9)
    assert tail.log_likelihood(new)[1, 0] == pytest.approx(-np.log(20 * 9.0))
    # "edge": the edge bin's density, that of a bin inside
    assert edge.log_likelihood(new)[1, 1] == pytest.approx(inside)
    # never above a bin inside
    assert ll[1:4].max() < inside


def test_histogram_density_column_rule_by_hand():
    # a narrow class (3 values in [5, 5.2]) and a wide one (0, 1, ..., 9 and 10): the narrow
    # class's one-bin Shimazaki histogram has density (3 + 1)/(3 + 1)/0.2 = 5 inside
    x = np.r_[[5.0, 5.1, 5.2], np.arange(11.0)]
    y = np.r_[[0, 0, 0], np.ones(11, dtype=int)]
    model = HistogramDensityModel("shimazaki", 200, out_of_range="column").fit(x, y, 2)
    tail = HistogramDensityModel("shimazaki", 200, out_of_range="tail").fit(x, y, 2)
    k0 = model.edges_[0].size - 1
    assert np.allclose(model.edges_[0][[0, -1]], [5.0, 5.2])
    far = np.array([9.0])
    # column: 1/((3 + K_0) · 10), the column's range 0..10
    assert model.log_likelihood(far)[0, 0] == pytest.approx(-np.log((3 + k0) * 10.0))
    # tail: 1/((3 + K_0) · 0.2): 50 times as high, above the wide class's density there
    assert tail.log_likelihood(far)[0, 0] == pytest.approx(-np.log((3 + k0) * 0.2))
    assert tail.log_likelihood(far)[0, 0] > tail.log_likelihood(far)[0, 1]
    assert model.log_likelihood(far)[0, 0] < model.log_likelihood(far)[0, 1]


def _cv_accuracy(name, method, **params):
    ds = load_dataset(name)
    X, y = ds.X, np.asarray(ds.y)
    protocol = dataclasses.replace(get_protocol("cv10"), small_classes="allow")
    acc = []
    for s in make_splits(protocol, y, seed=0, dataset=ds.name):
        model = make_method(method, nominal="numeric", **params).fit(X.iloc[s.train], y[s.train])
        acc.append(np.mean(model.predict(X.iloc[s.test]) == y[s.test]))
    _, counts = np.unique(y, return_counts=True)
    return float(np.mean(acc)), counts.max() / counts.sum()


@pytest.mark.filterwarnings("ignore:The least populated class")
@pytest.mark.parametrize("name", ["autos", pytest.param("shuttle", marks=pytest.mark.slow)])
@pytest.mark.parametrize("method", ["nb_ewb10", "nb_shimazaki"])
def test_default_rule_stays_above_the_majority_rate(name, method):
    # the earlier "edge" rule fell below the majority rate here (shuttle: EWB-10 .119 and
    # Shimazaki .706 against .786; autos: EWB-10 .253 and Shimazaki .014 against .327)
    acc, majority = _cv_accuracy(name, method)
    edge, _ = _cv_accuracy(name, method, out_of_range="edge")
    assert edge < majority
    assert acc > majority
    assert make_method(method).out_of_range == "column"


@pytest.mark.parametrize("method", ["nb_ewb10", "nb_shimazaki"])
def test_bad_out_of_range_names_the_choices(method):
    x, y = _two_classes()
    with pytest.raises(
        ValueError, match=r"out_of_range must be one of \['column', 'tail', 'edge'\]"
    ):
        make_method(method, out_of_range="clip").fit(x[:, None], y)
