"""``aode``, ``tan``, ``hnb``: hand-computed values on a toy table, brute-force invariants and
the refusal messages (Weka itself is the oracle of tests/methods/test_weka_bayesnet.py)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest

from repro.datasets import load_dataset
from repro.methods.baselines.aode import AODE
from repro.methods.baselines.hnb import HNB
from repro.methods.baselines.tan import TAN, weka_tan_tree
from repro.methods.plain.nb import LaplaceNaiveBayes

# --- the toy: attributes A, B and the class Y, 8 rows ------------------------------------------
#   Y = 0: (A, B) = (0,0) (0,0) (1,1) (1,0)       Y = 1: (1,1) (1,1) (0,0) (0,1)
# counts: N = 8, N_y = 4, 4; #(y, A=a) = 2 for every y, a; #(y=0, B=0) = 3, #(y=1, B=0) = 1;
# #(y=0, A=1, B=0) = 1, #(y=1, A=1, B=0) = 0.
A = [0, 0, 1, 1, 1, 1, 0, 0]
B = [0, 0, 1, 0, 1, 1, 0, 1]
Y = [0, 0, 0, 0, 1, 1, 1, 1]


def toy(a=A, b=B):
    return pd.DataFrame({"A": pd.Categorical(a, [0, 1]), "B": pd.Categorical(b, [0, 1])})


X_TEST = toy([1, None], [0, 0])  # x = (A=1, B=0) and (A missing, B=0)


def test_aode_by_hand():
    # Weka's estimates: P̂(y, x_i) = (#(y, x_i) + 1)/(N + J·|A_i|) = (# + 1)/12,
    # P̂(x_k | y, x_i) = (#(y, x_i, x_k) + 1)/(#(y, x_i) + |A_k|).
    # x = (A=1, B=0): parent A=1: y0 3/12 · (1+1)/(2+2) = 1/8; y1 3/12 · (0+1)/(2+2) = 1/16;
    # parent B=0: y0 (3+1)/12 · (1+1)/(3+2) = 2/15; y1 (1+1)/12 · (0+1)/(1+2) = 1/18.
    y0, y1 = F(1, 8) + F(2, 15), F(1, 16) + F(1, 18)  # 31/120, 17/144
    expected_0 = y0 / (y0 + y1)
    assert expected_0 == F(186, 271)
    # x = (A missing, B=0): B=0 is the only parent, no child: (3+1)/12 and (1+1)/12 → 2/3
    proba = AODE(preprocessing="raw").fit(toy(), Y).predict_proba(X_TEST)
    np.testing.assert_allclose(proba[:, 0], [float(expected_0), 2 / 3], rtol=1e-14)


def test_aode_without_a_qualifying_parent_is_wekas_naive_bayes():
    """No value seen ``frequency_limit`` times: Weka's NBconditionalProb, (N_y + 1)/(N + J) ·
    Π (#(y, x_k) + 1)/(#(y, X_k observed) + |A_k|), which is the package's Laplace NB on
    nominal columns (missing values skipped by both)."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"c{k}": pd.Categorical(rng.integers(0, 3 + k % 2, 200)) for k in range(4)})
    X.iloc[::7, 1] = np.nan
    y = rng.integers(0, 3, 200)
    aode = AODE(preprocessing="raw", frequency_limit=201).fit(X, y)
    nb = LaplaceNaiveBayes().fit(X, y)
    np.testing.assert_allclose(aode.predict_proba(X), nb.predict_proba(X), rtol=0, atol=1e-14)
    # by hand on the toy, x = (A=1, B=0): y0 5/10 · 3/6 · 4/6, y1 5/10 · 3/6 · 2/6 → 2/3
    proba = AODE(preprocessing="raw", frequency_limit=9).fit(toy(), Y).predict_proba(X_TEST[:1])
    np.testing.assert_allclose(proba[0], [2 / 3, 1 / 3], rtol=1e-14)


def test_aode_with_one_attribute_is_the_smoothed_joint():
    # one parent, no child: P(y | x) ∝ #(y, x) + 1 (the denominator N + J·|A| is common)
    X = pd.DataFrame({"A": pd.Categorical(A)})
    proba = AODE(preprocessing="raw").fit(X, Y).predict_proba(X.iloc[[0, 2]])
    # A=0: #(y0, A0) = 2, #(y1, A0) = 2 → 1/2; A=1: 2 and 2 → 1/2 too; use B instead
    np.testing.assert_allclose(proba, [[0.5, 0.5], [0.5, 0.5]], rtol=1e-14)
    X = pd.DataFrame({"B": pd.Categorical(B)})
    proba = AODE(preprocessing="raw").fit(X, Y).predict_proba(X.iloc[[0, 2]])
    # B=0: 3+1 vs 1+1 → 2/3; B=1: 1+1 vs 3+1 → 1/3
    np.testing.assert_allclose(proba[:, 0], [2 / 3, 1 / 3], rtol=1e-14)


def toy_cmi_bits() -> float:
    """I(A; B | Y) of the toy in bits: Σ P(y,a,b) log2[P(y,a,b) P(y) / (P(y,a) P(y,b))]; class 0
    cells (0,0) 2/8, (1,0) 1/8, (1,1) 1/8 with P(y,a) = 2/8, P(y,b=0) = 3/8, P(y,b=1) = 1/8;
    class 1 is its mirror (a → 1−a, b → 1−b)."""
    half = 2 / 8 * np.log2((2 / 8 / 2) / (2 / 8 * 3 / 8)) + 1 / 8 * np.log2(
        (1 / 8 / 2) / (2 / 8 * 3 / 8)
    )
    half += 1 / 8 * np.log2((1 / 8 / 2) / (2 / 8 * 1 / 8))
    return 2 * half


def test_tan_by_hand():
    model = TAN(preprocessing="raw").fit(toy(), Y)
    # gains N·I(A; B | Y) in nats; equal both ways, so the first link found is head A, tail B,
    # and B gets the parent A (Weka's direction rule)
    expected_gain = 8 * toy_cmi_bits() * np.log(2)
    np.testing.assert_allclose(model.gains_, [[0, expected_gain], [expected_gain, 0]], rtol=1e-13)
    assert model.parents_.tolist() == [-1, 0]
    # α = 0.5: P(y) = (4 + .5)/(8 + 1) = 1/2; P(A=1 | y) = (2 + .5)/(4 + 1) = 1/2;
    # P(B=0 | y, A=1) = (#(y, A1, B0) + .5)/(#(y, A1) + 1): y0 1.5/3, y1 .5/3 → 3/4.
    # A missing: P(B=0 | y) without the parent = (#(y, B0) + .5)/(4 + 1): 3.5/5, 1.5/5 → 7/10
    proba = model.predict_proba(X_TEST)
    np.testing.assert_allclose(proba[:, 0], [3 / 4, 7 / 10], rtol=1e-14)
    # α = 1: P(B=0 | y, A=1) = 2/4 and 1/4 → 2/3
    proba = TAN(alpha=1.0, preprocessing="raw").fit(toy(), Y).predict_proba(X_TEST[:1])
    np.testing.assert_allclose(proba[0, 0], 2 / 3, rtol=1e-14)


def test_hnb_by_hand():
    model = HNB(preprocessing="raw").fit(toy(), Y)
    np.testing.assert_allclose(model.cmi_, [[0, toy_cmi_bits()], [toy_cmi_bits(), 0]], rtol=1e-13)
    np.testing.assert_array_equal(model.weights_, [[0, 1], [1, 0]])  # one other attribute
    # P(y) = (4 + 1/2)/(8 + 1) = 1/2; P(x_i | x_j, y) = (#(y, x_j, x_i) + 1/2)/(#(y, x_j) + 1):
    # P(A=1 | B=0, y): y0 1.5/4, y1 .5/2; P(B=0 | A=1, y): y0 1.5/3, y1 .5/3
    y0, y1 = F(3, 8) * F(1, 2), F(1, 4) * F(1, 6)
    # A missing: B's mixture has no observed term → NB factor (#(y, B0) + 1/2)/(4 + 1)
    proba = model.predict_proba(X_TEST)
    np.testing.assert_allclose(proba[:, 0], [float(y0 / (y0 + y1)), 3.5 / 5], rtol=1e-14)
    assert y0 / (y0 + y1) == F(9, 11)


# --- invariants on real and random data -----------------------------------------------------------
def random_table(n_rows, n_attributes, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n_rows)
    columns = {}
    for k in range(n_attributes):  # each attribute a noisy copy of y or of the previous one
        source = y if k == 0 or rng.random() < 0.5 else columns[f"x{k - 1}"]
        noise = rng.integers(0, 3, n_rows)
        columns[f"x{k}"] = np.where(rng.random(n_rows) < 0.4, noise, np.asarray(source) % 3)
    return pd.DataFrame({k: pd.Categorical(v) for k, v in columns.items()}), y


def brute_force_cmi(X: pd.DataFrame, y, i: int, j: int) -> float:
    """I(X_i; X_j | Y) in nats, by a loop over the cells of the three-way table."""
    n = len(y)
    table = pd.crosstab([np.asarray(y), X.iloc[:, i]], X.iloc[:, j])
    total = 0.0
    for (c, _u), row in table.iterrows():
        for v, count in row.items():
            if count:
                n_c = np.sum(np.asarray(y) == c)
                n_cu, n_cv = row.sum(), table.loc[c][v].sum()
                total += count / n * np.log(count * n_c / (n_cu * n_cv))
    return total


def root(parent: list, a: int) -> int:
    """Union-find root of node a."""
    while parent[a] != a:
        a = parent[a]
    return a


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tan_tree_is_the_maximum_spanning_tree_by_brute_force(seed):
    X, y = random_table(300, 5, seed)
    model = TAN(preprocessing="raw").fit(X, y)
    K = X.shape[1]
    cmi = np.zeros((K, K))
    for i, j in itertools.combinations(range(K), 2):
        cmi[i, j] = cmi[j, i] = brute_force_cmi(X, y, i, j)
    np.testing.assert_allclose(model.gains_, 300 * cmi, rtol=1e-10, atol=1e-12)
    # every tree on 5 nodes: 4 of the 10 edges that connect them all
    best, best_weight = None, -np.inf
    for edges in itertools.combinations(itertools.combinations(range(K), 2), K - 1):
        parent = list(range(K))
        for a, b in edges:
            parent[root(parent, a)] = root(parent, b)
        if len({root(parent, a) for a in range(K)}) == 1:
            weight = sum(cmi[a, b] for a, b in edges)
            if weight > best_weight:
                best, best_weight = set(edges), weight
    ours = {tuple(sorted((k, int(p)))) for k, p in enumerate(model.parents_) if p >= 0}
    assert ours == best
    assert np.sum(model.parents_ < 0) == 1  # one root, every other attribute one parent


def test_weka_tree_rule_on_ties_and_directions():
    # all gains equal: first link (0, 1) gives 1 the parent 0; then (0, 2): 2 ← 0; (0, 3): 3 ← 0
    assert weka_tan_tree(np.ones((4, 4)) - np.eye(4)).tolist() == [-1, 0, 0, 0]
    # a link whose tail already has a parent directs the other way: links (0,1) → 1 ← 0, then
    # (2,1) (gain 5, the best linked-unlinked pair): tail 1 has a parent, so 2 ← 1
    gains = np.array([[0, 9, 1], [9, 0, 2], [1, 5, 0]], dtype=float)
    assert weka_tan_tree(gains).tolist() == [-1, 0, 1]
    # (1,0) as the first link gives 0 ← 1; then (0,2) with gain 5: 2 ← 0
    gains = np.array([[0, 1, 5], [9, 0, 1], [1, 1, 0]], dtype=float)
    assert weka_tan_tree(gains).tolist() == [1, -1, 0]
    assert weka_tan_tree(np.zeros((1, 1))).tolist() == [-1]


@pytest.mark.parametrize("name", ["zoo", "vote", "iris"])
def test_hnb_weights_sum_to_one(name):
    ds = load_dataset(name)
    model = HNB().fit(ds.X, ds.y)
    sums = model.weights_.sum(axis=1)
    positive = model.cmi_.sum(axis=1) > 0
    assert positive.any()
    np.testing.assert_allclose(sums[positive], 1.0, rtol=1e-12)
    np.testing.assert_array_equal(model.weights_[~positive], 0.0)
    np.testing.assert_array_equal(np.diag(model.weights_), 0.0)
    np.testing.assert_allclose(model.cmi_, model.cmi_.T, rtol=1e-12, atol=1e-15)


def test_hnb_cmi_matches_brute_force_in_bits():
    X, y = random_table(300, 4, 7)
    model = HNB(preprocessing="raw").fit(X, y)
    for i, j in itertools.combinations(range(4), 2):  # N = 300: no term is under Weka's 1e-6
        assert model.cmi_[i, j] == pytest.approx(brute_force_cmi(X, y, i, j) / np.log(2), 1e-12)


@pytest.mark.parametrize("cls", [AODE, TAN, HNB])
def test_missing_values_and_unseen_categories_carry_no_information(cls):
    X, y = random_table(200, 4, 11)
    model = cls(preprocessing="raw").fit(X, y)
    test = X.iloc[:5].copy()
    missing, unseen = test.copy(), test.astype(object)
    missing.iloc[:, 2] = np.nan
    unseen.iloc[:, 2] = 99  # a category never seen at fit
    np.testing.assert_allclose(
        model.predict_proba(unseen), model.predict_proba(missing), rtol=0, atol=1e-15
    )
    proba = model.predict_proba(missing)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1.0)


@pytest.mark.parametrize("cls", [AODE, TAN, HNB])
def test_modl_default_on_numeric_data(cls):
    ds = load_dataset("iris")
    model = cls().fit(ds.X, ds.y)
    assert model.preprocessing == "modl" and model.n_values_.min() >= 1
    assert model.score(ds.X, ds.y) > 0.9


# --- refusals -----------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [AODE, TAN, HNB])
def test_raw_refuses_a_numeric_column_naming_it(cls):
    X = pd.DataFrame({"colour": pd.Categorical(["r", "g"] * 5), "height": np.arange(10.0)})
    with pytest.raises(ValueError, match=r"column 'height' is numeric: discretize it.*'modl'"):
        cls(preprocessing="raw").fit(X, [0, 1] * 5)


@pytest.mark.parametrize(
    "cls, params, message",
    [
        (AODE, {"preprocessing": "mdl"}, r"preprocessing must be one of \['modl', 'raw'\]"),
        (TAN, {"preprocessing": None}, r"preprocessing must be one of \['modl', 'raw'\]"),
        (HNB, {"preprocessing": "x"}, r"preprocessing must be one of \['modl', 'raw'\]"),
        (AODE, {"frequency_limit": -1}, r"frequency_limit must be an integer ≥ 0, got -1"),
        (AODE, {"frequency_limit": 1.5}, r"frequency_limit must be an integer ≥ 0"),
        (TAN, {"alpha": 0.0}, r"alpha must be a finite number > 0, got 0.0"),
        (TAN, {"alpha": np.inf}, r"alpha must be a finite number > 0"),
    ],
)
def test_bad_parameters_are_refused_at_fit(cls, params, message):
    with pytest.raises(ValueError, match=message):
        cls(**params).fit(toy(), Y)
