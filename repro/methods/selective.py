"""Selective naive Bayes of boulle2007: SNB(ACC), SNB(AUC) (§2.3) and SNB(MAP) (§3).

A selective naive Bayes model ``M`` is a subset of the variables (a_k = 1 when variable k is
selected); its class-conditional probabilities are eq. (3) of boulle2007::

    P_M(y=j | x) = softmax_j( log P(y=j) + Σ_k a_k · log P(x_k | y=j) )

The module has three layers:

- **criteria**, small pure functions: :func:`selection_prior_cost` (the prior of §3.3) and
  :func:`map_cost` (criterion (4)); :func:`training_auc` (the multi-class AUC of Provost &
  Domingos, boulle2007 §5.2, on training scores);
- **the score engine** :class:`ScoreEngine`: the N × J score matrix ``S`` of the current model, its
  per-instance normalisation ``Q = softmax(S)`` and the training negative log-likelihood. Adding,
  dropping or re-weighting one variable costs O(N·J): the variable's column is the gather
  ``T_k[codes_k]`` of its (parts × J) log table. The cost of a *candidate* move is obtained without
  exponentials: with t = exp(δ·T_k[c_n]),

      NLL(S + δ·T_k) = NLL(S) − δ·Σ_n T_k[c_n, y_n] + Σ_n log Σ_j Q_nj · t_j

  (the middle sum is pre-computed per variable; T_k is first shifted row-wise so that t ≤ 1,
  which leaves the posterior unchanged), i.e. N·J multiply-adds and a few logarithms (the
  inner sums are multiplied together, :func:`_mix_log_sum`);
- **searches**: :func:`forward_greedy` (ACC/AUC), :func:`ms_ffwbw` (Algorithm 1 of boulle2007,
  multi-start fast forward / fast backward selection) and :func:`exhaustive_search` (all 2^K
  subsets in Gray-code order, O(N·J) per subset, the oracle of the heuristic). The searches record
  the models they evaluate (:class:`SearchLog`, :class:`ExhaustiveModels`) so that
  :mod:`repro.methods.averaging` can average them.

Only informative variables are candidates (a variable whose MODL partition has a single part has
a constant table and is never selected, SPEC §3.1). In criterion (4), K is the number of input
variables of the data set (boulle2007 §2.1: "the K explanatory variables"; §3.3: "a uniform prior
between 0 and K variables"), including the uninformative ones; ``prior_variables="informative"``
uses the number of candidates instead.

The estimators are weighted naive Bayes classifiers (weights 0/1) on the MODL preprocessing of
:class:`repro.methods.modl_nb.MODLNaiveBayes` (variant "paper": MODL 2006 discretization, 2005
grouping, m-estimate).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from repro.methods.modl_nb import MODLNaiveBayes
from repro.preprocessing.modl import lbinom

#: cost improvements smaller than this (nats) are not improvements (guards against float noise)
COST_TOLERANCE = 1e-9


# ---------------------------------------------------------------------------------------------
# Criteria
# ---------------------------------------------------------------------------------------------
def selection_prior_cost(n_variables: int, n_selected) -> np.ndarray | float:
    """Code length l(M) of a variable selection (boulle2007 §3.3), in nats.

        l(M) = log(K + 1) + log C(K + K_m − 1, K_m)

    uniform prior on the number K_m ∈ [0, K] of selected variables, then every multiset of K_m
    variables among K equiprobable (combinations with replacement). Vectorised over ``n_selected``.
    """
    K = int(n_variables)
    km = np.asarray(n_selected, dtype=np.float64)
    if K < 1:
        raise ValueError(f"n_variables must be ≥ 1, got {n_variables!r}")
    if np.any((km < 0) | (km > K)):
        raise ValueError(f"n_selected must lie in [0, {K}], got {n_selected!r}")
    value = math.log(K + 1) + lbinom(K + km - 1, km)
    return float(value) if np.ndim(value) == 0 else value


def map_cost(nll: float, n_variables: int, n_selected: int) -> float:
    """Criterion (4) of boulle2007: l(M) + l(D|M) = l(M) − Σ_n log P_M(y_n | x_n)."""
    return float(selection_prior_cost(n_variables, n_selected)) + float(nll)


def training_auc(y: np.ndarray, scores: np.ndarray) -> float:
    """Multi-class AUC of Provost & Domingos (boulle2007 §5.2) of a score matrix (N × J).

    Σ_j P(c_j)·AUC(c_j vs rest), P(c_j) the class frequency in ``y``; for J = 2 the AUC of
    class 1. ``scores`` may be unnormalised log-scores: they are normalised (softmax) per row.
    Ties count one half. Same value
    as :func:`repro.evaluation.metrics.auc` (scikit-learn), computed here without its overhead
    because the greedy searches evaluate it O(K²) times.
    """
    scores = np.ascontiguousarray(scores, dtype=np.float64)
    return float(_auc_kernel(np.asarray(y, dtype=np.int64), scores))


# ---------------------------------------------------------------------------------------------
# Numba kernels
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _normalise(S, q, y):
    """q ← softmax(S) row-wise; returns the negative log-likelihood Σ_n −log q[n, y_n]."""
    n_rows, n_classes = S.shape
    nll = 0.0
    for n in range(n_rows):
        m = S[n, 0]
        for j in range(1, n_classes):
            if S[n, j] > m:
                m = S[n, j]
        z = 0.0
        for j in range(n_classes):
            e = math.exp(S[n, j] - m)
            q[n, j] = e
            z += e
        for j in range(n_classes):
            q[n, j] /= z
        nll += m + math.log(z) - S[n, y[n]]
    return nll


@njit(cache=True)
def _add_column(S, codes_i, table, offset, delta):
    """S += delta · T_i[codes_i] (T_i the rows offset.. of the packed table)."""
    n_rows, n_classes = S.shape
    for n in range(n_rows):
        row = offset + codes_i[n]
        for j in range(n_classes):
            S[n, j] += delta * table[row, j]


@njit(cache=True)
def _mix_log_sum(q, codes_i, etable, offset):
    """Σ_n log Σ_j q[n, j] · E[offset + c_n, j], for tables with entries in (0, 1].

    Each inner sum is ≤ 1 (q sums to 1), so the terms are multiplied together and a logarithm
    is taken only when the product falls below 1e-200 (or for a term below 1e-100): a few
    logarithms per data set instead of N.
    """
    n_rows, n_classes = q.shape
    s = 0.0
    prod = 1.0
    for n in range(n_rows):
        row = offset + codes_i[n]
        acc = 0.0
        for j in range(n_classes):
            acc += q[n, j] * etable[row, j]
        if acc < 1e-100:
            s += math.log(acc)
        else:
            prod *= acc
            if prod < 1e-200:
                s += math.log(prod)
                prod = 1.0
    return s + math.log(prod)


@njit(cache=True)
def _true_class_sums(codes, table, offsets, y):
    """ty[i] = Σ_n T_i[c_in, y_n] for every candidate i."""
    n_cand = codes.shape[0]
    out = np.zeros(n_cand)
    for i in range(n_cand):
        off = offsets[i]
        s = 0.0
        for n in range(codes.shape[1]):
            s += table[off + codes[i, n], y[n]]
        out[i] = s
    return out


@njit(cache=True)
def _ffwbw_pass(
    order,
    add,
    selected,
    codes,
    offsets,
    table,
    etable,
    ty,
    y,
    S,
    q,
    prior_cost,
    n_sel,
    nll,
    tol,
    record,
    rec_state,
    rec_var,
    rec_kind,
    rec_cost,
    n_rec,
    moves,
    n_moves,
):
    """One fast-forward (``add``) or fast-backward pass of Algorithm 1 (boulle2007 §3.5).

    Every variable of ``order`` not yet (resp. already) selected is evaluated once; the move is
    kept as soon as it lowers criterion (4). ``etable`` and ``ty`` are those of the pass
    direction (:class:`ScoreEngine`).
    Evaluated models are appended to the ``rec_*`` arrays (state id = number of moves so far),
    accepted moves to ``moves``. Returns (nll, n_sel, n_rec, n_moves, improved).
    """
    improved = False
    sign = 1.0 if add else -1.0
    cost = nll + prior_cost[n_sel]
    for t in range(order.size):
        i = order[t]
        if selected[i] == add:
            continue
        off = offsets[i]
        s = _mix_log_sum(q, codes[i], etable, off)
        new_nll = nll - sign * ty[i] + s  # ty, etable: the direction's shifted table
        new_sel = n_sel + 1 if add else n_sel - 1
        new_cost = new_nll + prior_cost[new_sel]
        if record:
            rec_state[n_rec] = n_moves
            rec_var[n_rec] = i
            rec_kind[n_rec] = 1 if add else -1
            rec_cost[n_rec] = new_cost
            n_rec += 1
        if new_cost < cost - tol:
            _add_column(S, codes[i], table, off, sign)
            nll = _normalise(S, q, y)
            selected[i] = add
            n_sel = new_sel
            cost = nll + prior_cost[n_sel]
            moves[n_moves] = i
            n_moves += 1
            improved = True
    return nll, n_sel, n_rec, n_moves, improved


@njit(cache=True)
def _gray_map_costs(codes, offsets, table, y, log_prior, prior_cost, costs, resync):
    """criterion (4) of all 2^K subsets (cost[mask]), Gray-code order, O(N·J) per subset."""
    n_cand, n_rows = codes.shape
    n_classes = log_prior.size
    S = np.empty((n_rows, n_classes))
    q = np.empty((n_rows, n_classes))
    for n in range(n_rows):
        for j in range(n_classes):
            S[n, j] = log_prior[j]
    costs[0] = _normalise(S, q, y) + prior_cost[0]
    mask = 0
    n_sel = 0
    for g in range(1, 1 << n_cand):
        b = 0
        while (g >> b) & 1 == 0:
            b += 1
        if (mask >> b) & 1:
            _add_column(S, codes[b], table, offsets[b], -1.0)
            n_sel -= 1
        else:
            _add_column(S, codes[b], table, offsets[b], 1.0)
            n_sel += 1
        mask ^= 1 << b
        if g % resync == 0:  # bound the drift of the repeated additions / subtractions
            for n in range(n_rows):
                for j in range(n_classes):
                    S[n, j] = log_prior[j]
            for i in range(n_cand):
                if (mask >> i) & 1:
                    _add_column(S, codes[i], table, offsets[i], 1.0)
        costs[mask] = _normalise(S, q, y) + prior_cost[n_sel]


@njit(cache=True)
def _subset_criterion(codes, offsets, table, y, log_prior, use_auc, values):
    """Training accuracy (or AUC) of all 2^K subsets (values[mask]).

    S is rebuilt for every subset (variables added in index order, as at prediction time), not
    updated along a Gray code: ranking and arg-max ties must not be broken by the rounding of
    additions and subtractions. O(N·J·K) per subset, small next to the AUC's sort.
    """
    n_cand, n_rows = codes.shape
    n_classes = log_prior.size
    S = np.empty((n_rows, n_classes))
    for mask in range(1 << n_cand):
        for n in range(n_rows):
            for j in range(n_classes):
                S[n, j] = log_prior[j]
        for i in range(n_cand):
            if (mask >> i) & 1:
                _add_column(S, codes[i], table, offsets[i], 1.0)
        if use_auc:
            values[mask] = _auc_kernel(y, S)
        else:
            good = 0
            for n in range(n_rows):
                arg = 0
                for j in range(1, n_classes):
                    if S[n, j] > S[n, arg]:
                        arg = j
                if arg == y[n]:
                    good += 1
            values[mask] = good / n_rows


@njit(cache=True)
def _accuracy_counts(S, codes, offsets, table, y, candidates):
    """Number of training instances well classified by S + T_i, for each candidate i."""
    n_rows, n_classes = S.shape
    out = np.zeros(candidates.size, dtype=np.int64)
    for t in range(candidates.size):
        i = candidates[t]
        off = offsets[i]
        good = 0
        for n in range(n_rows):
            row = off + codes[i, n]
            best = S[n, 0] + table[row, 0]
            arg = 0
            for j in range(1, n_classes):
                v = S[n, j] + table[row, j]
                if v > best:
                    best = v
                    arg = j
            if arg == y[n]:
                good += 1
        out[t] = good
    return out


@njit(cache=True)
def _rank_auc(values, positive, n_pos):
    """AUC of ``values`` for the positive instances, ties counted one half (Mann–Whitney)."""
    n = values.size
    order = np.argsort(values, kind="mergesort")
    rank_sum = 0.0
    start = 0
    while start < n:
        stop = start + 1
        while stop < n and values[order[stop]] == values[order[start]]:
            stop += 1
        mean_rank = 0.5 * (start + 1 + stop)  # ranks start+1 .. stop
        for t in range(start, stop):
            if positive[order[t]]:
                rank_sum += mean_rank
        start = stop
    n_neg = n - n_pos
    return (rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)


@njit(cache=True)
def _auc_kernel(y, S):
    n_rows, n_classes = S.shape
    counts = np.zeros(n_classes, dtype=np.int64)
    for n in range(n_rows):
        counts[y[n]] += 1
    P = np.empty((n_rows, n_classes))
    _normalise(S, P, y)
    if n_classes == 2:
        if counts[0] == 0 or counts[1] == 0:
            return np.nan
        positive = np.empty(n_rows, dtype=np.bool_)
        for n in range(n_rows):
            positive[n] = y[n] == 1
        return _rank_auc(np.ascontiguousarray(P[:, 1]), positive, counts[1])
    total = 0.0
    weight = 0.0
    values = np.empty(n_rows)
    positive = np.empty(n_rows, dtype=np.bool_)
    for j in range(n_classes):
        if counts[j] == 0 or counts[j] == n_rows:
            continue
        for n in range(n_rows):
            values[n] = P[n, j]
            positive[n] = y[n] == j
        total += counts[j] * _rank_auc(values, positive, counts[j])
        weight += counts[j]
    if weight == 0:
        return np.nan
    return total / weight


@njit(cache=True)
def _auc_candidates(S, codes, offsets, table, y, candidates):
    """Training AUC of S + T_i for each candidate i."""
    n_rows, n_classes = S.shape
    out = np.empty(candidates.size)
    work = np.empty((n_rows, n_classes))
    for t in range(candidates.size):
        i = candidates[t]
        off = offsets[i]
        for n in range(n_rows):
            row = off + codes[i, n]
            for j in range(n_classes):
                work[n, j] = S[n, j] + table[row, j]
        out[t] = _auc_kernel(y, work)
    return out


@njit(cache=True)
def _state_credit(moves, n_candidates, state_total):
    """Σ over the states s that contain variable k of state_total[s], for every k.

    State 0 is the empty set, state t+1 = state t with variable ``moves[t]`` toggled.
    """
    cum = np.zeros(state_total.size + 1)
    for s in range(state_total.size):
        cum[s + 1] = cum[s] + state_total[s]
    credit = np.zeros(n_candidates)
    member = np.zeros(n_candidates, dtype=np.bool_)
    for t in range(moves.size):
        k = moves[t]
        if member[k]:
            credit[k] += cum[t + 1]  # member of states entered+1 .. t
        else:
            credit[k] -= cum[t + 1]
        member[k] = not member[k]
    for k in range(n_candidates):
        if member[k]:
            credit[k] += cum[state_total.size]
    return credit


# ---------------------------------------------------------------------------------------------
# Training data of the candidates, packed
# ---------------------------------------------------------------------------------------------
def _code_dtype(max_code: int):
    for dtype in (np.uint8, np.uint16, np.int32):
        if max_code <= np.iinfo(dtype).max:
            return dtype
    return np.int64


@dataclass
class SelectionData:
    """Part codes and log tables of the candidate variables, packed for the kernels.

    Attributes
    ----------
    codes : ndarray (K_c, N), smallest unsigned integer type that holds the codes
        ``codes[i, n]`` = part of instance n for candidate i (row of its table).
    offsets : ndarray (K_c,)
        First row of candidate i in ``table``.
    table : ndarray (R, J)
        Stacked log tables log P(part | class) (each variable's table ends with its zero row).
    y : ndarray (N,) int64, class indices; log_prior : ndarray (J,)
    candidates : ndarray (K_c,)
        Column index (in the estimator's input) of each candidate.
    """

    codes: np.ndarray
    offsets: np.ndarray
    table: np.ndarray
    y: np.ndarray
    log_prior: np.ndarray
    candidates: np.ndarray

    @classmethod
    def from_tables(cls, codes, tables, y, log_prior, candidates=None) -> SelectionData:
        """From per-candidate code arrays (N,) and log tables (rows × J)."""
        tables = [np.asarray(t, dtype=np.float64) for t in tables]
        sizes = np.array([t.shape[0] for t in tables], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        n_classes = np.asarray(log_prior).size
        table = np.vstack(tables) if tables else np.zeros((0, n_classes))
        y = np.asarray(y, dtype=np.int64)
        max_code = int(sizes.max()) if sizes.size else 0
        packed = np.empty((len(tables), y.size), dtype=_code_dtype(max_code))
        for i, c in enumerate(codes):
            c = np.asarray(c)
            if c.size and (c.min() < 0 or c.max() >= sizes[i]):
                raise ValueError(f"codes of candidate {i} fall outside its table")
            packed[i] = c
        if candidates is None:
            candidates = np.arange(len(tables))
        candidates = np.asarray(candidates, dtype=np.int64)
        return cls(packed, offsets, table, y, np.asarray(log_prior, float), candidates)

    @classmethod
    def from_estimator(cls, estimator, Z: np.ndarray, y: np.ndarray) -> SelectionData:
        """Candidates = the informative variables of a fitted weighted naive Bayes.

        Discrete variable models give ``codes(x)`` and ``log_table_``; any other model is used
        through its training column (one table row per instance, O(N·J) memory per variable).
        """
        codes, tables, candidates = [], [], []
        for k, model in enumerate(estimator.variables_):
            if not getattr(model, "informative_", True):
                continue
            if hasattr(model, "codes") and hasattr(model, "log_table_"):
                codes.append(model.codes(Z[:, k]))
                tables.append(model.log_table_)
            else:
                column = model.log_likelihood(Z[:, k])
                codes.append(np.arange(Z.shape[0]))
                tables.append(column)
            candidates.append(k)
        return cls.from_tables(codes, tables, y, estimator.class_log_prior_, candidates)

    @property
    def n_candidates(self) -> int:
        return self.codes.shape[0]

    @property
    def n_instances(self) -> int:
        return self.y.size

    @property
    def n_classes(self) -> int:
        return self.log_prior.size

    def column(self, i: int) -> np.ndarray:
        """log P(x_i | y) on the training instances (N × J), a gather."""
        return self.table[self.offsets[i] + self.codes[i].astype(np.int64)]


# ---------------------------------------------------------------------------------------------
# The score engine
# ---------------------------------------------------------------------------------------------
class ScoreEngine:
    """Score matrix S = log P(y) + Σ_i w_i·T_i[c_i] of a weighted NB on the training data.

    Holds S (N × J), its per-instance normalisation Q = softmax(S) and the training negative
    log-likelihood ``nll`` = −Σ_n log Q[n, y_n]. :meth:`apply` changes one weight in O(N·J);
    :meth:`delta_nll` gives the NLL after a candidate change without applying it, also O(N·J)
    (N logarithms, no exponential, see the module docstring).
    """

    def __init__(self, data: SelectionData):
        self.data = data
        # Adding δ·(T_i − r) for any per-row constant r gives the same posterior; shifting each
        # row by its max (δ > 0) or min (δ < 0) keeps exp(δ·(T_i − r)) in (0, 1].
        table = data.table
        if table.size:
            self.shift_add = table - table.max(axis=1, keepdims=True)
            self.shift_drop = table - table.min(axis=1, keepdims=True)
        else:
            self.shift_add = self.shift_drop = table
        self.etable_add = np.exp(self.shift_add)
        self.etable_drop = np.exp(-self.shift_drop)
        self.ty_add = _true_class_sums(data.codes, self.shift_add, data.offsets, data.y)
        self.ty_drop = _true_class_sums(data.codes, self.shift_drop, data.offsets, data.y)
        self.reset()

    def reset(self, weights=None) -> None:
        """Recompute S, Q and the NLL from scratch for ``weights`` (default: all zero)."""
        d = self.data
        self.weights = np.zeros(d.n_candidates) if weights is None else np.array(weights, float)
        self.S = np.repeat(d.log_prior[None, :], d.n_instances, axis=0)
        for i in np.flatnonzero(self.weights):
            _add_column(self.S, d.codes[i], d.table, d.offsets[i], float(self.weights[i]))
        self.q = np.empty_like(self.S)
        self.nll = float(_normalise(self.S, self.q, d.y))

    def delta_nll(self, i: int, delta: float) -> float:
        """NLL of the model with w_i changed by ``delta`` (not applied), O(N·J)."""
        d = self.data
        delta = float(delta)
        if delta == 0.0:
            return self.nll
        if delta == 1.0:
            etable, ty = self.etable_add, self.ty_add[i]
        elif delta == -1.0:
            etable, ty = self.etable_drop, self.ty_drop[i]
        else:
            rows = slice(d.offsets[i], d.offsets[i] + int(d.codes[i].max()) + 1)
            shifted = (self.shift_add if delta > 0 else self.shift_drop)[rows]
            etable = np.exp(delta * shifted)
            ty = (self.ty_add if delta > 0 else self.ty_drop)[i]
            return self.nll - delta * ty + _mix_log_sum(self.q, d.codes[i], etable, 0)
        return self.nll - delta * ty + _mix_log_sum(self.q, d.codes[i], etable, d.offsets[i])

    def apply(self, i: int, delta: float) -> None:
        """w_i += delta; updates S, Q and the NLL in O(N·J)."""
        d = self.data
        _add_column(self.S, d.codes[i], d.table, d.offsets[i], float(delta))
        self.nll = float(_normalise(self.S, self.q, d.y))
        self.weights[i] += delta

    def candidate_scores(self, i: int, delta: float = 1.0) -> np.ndarray:
        """S with w_i changed by ``delta`` (a new N × J array)."""
        return self.S + delta * self.data.column(i)


# ---------------------------------------------------------------------------------------------
# Searches
# ---------------------------------------------------------------------------------------------
def forward_greedy(
    engine: ScoreEngine, criterion: str = "accuracy", stopping: str = "no_rise", tol: float = 1e-12
) -> dict:
    """Forward greedy selection on a training criterion (boulle2007 §2.3).

    From the empty set, each step evaluates every candidate not yet selected and adds the one
    with the highest criterion (ties: lowest index). ``stopping="no_decrease"`` continues as
    long as the best criterion does not decrease (Langley & Sage 1994); ``"no_rise"`` stops as
    soon as it no longer rises (Boullé 2006a). Criteria: "accuracy" (train ACC) or "auc"
    (train multi-class AUC, :func:`training_auc`). O(K²·N·J) for ACC, O(K²·N log N·J) for AUC.

    Returns a dict: ``selected`` (candidate indices, in order of addition) and ``trace`` (the
    criterion after each step, the null model first).
    """
    if criterion not in ("accuracy", "auc"):
        raise ValueError(f"criterion must be 'accuracy' or 'auc', got {criterion!r}")
    if stopping not in ("no_rise", "no_decrease"):
        raise ValueError(f"stopping must be 'no_rise' or 'no_decrease', got {stopping!r}")
    d = engine.data
    engine.reset()
    n = d.n_instances

    def evaluate(candidates):
        if criterion == "accuracy":
            return _accuracy_counts(engine.S, d.codes, d.offsets, d.table, d.y, candidates) / n
        return _auc_candidates(engine.S, d.codes, d.offsets, d.table, d.y, candidates)

    if criterion == "accuracy":
        current = float(np.mean(np.argmax(engine.S, axis=1) == d.y))
    else:
        current = training_auc(d.y, engine.S)
    selected: list[int] = []
    trace = [current]
    remaining = np.arange(d.n_candidates, dtype=np.int64)
    while remaining.size:
        values = evaluate(remaining)
        t = int(np.argmax(values))
        best = float(values[t])
        if stopping == "no_rise" and not best > current + tol:
            break
        if stopping == "no_decrease" and best < current - tol:
            break
        i = int(remaining[t])
        engine.apply(i, 1.0)
        selected.append(i)
        trace.append(best)
        current = best
        remaining = np.delete(remaining, t)
    return {"selected": selected, "trace": trace}


@dataclass
class SearchLog:
    """The models evaluated by :func:`ms_ffwbw`, in a compact form (17 bytes per model).

    The search goes through a sequence of *states* (current subsets): state 0 is the empty set
    and state t+1 is state t with candidate ``moves[t]`` toggled (an accepted addition or
    removal, or a reset between two starts). Evaluated model m is state ``state[m]`` with
    candidate ``var[m]`` added (``kind[m] = 1``), removed (``kind = −1``), or the state itself
    (``kind = 0``), and ``cost[m]`` is its criterion (4). Duplicates (the same subset evaluated
    again) are found with Zobrist hashing (:meth:`first_occurrences`).
    """

    n_candidates: int
    state: np.ndarray
    var: np.ndarray
    kind: np.ndarray
    cost: np.ndarray
    moves: np.ndarray

    def __len__(self) -> int:
        return self.cost.size

    @property
    def n_states(self) -> int:
        return self.moves.size + 1

    def hashes(self) -> np.ndarray:
        """64-bit Zobrist hash of each model's subset (XOR of per-variable random keys)."""
        keys = np.random.default_rng(0x5EED).integers(
            0, np.iinfo(np.uint64).max, size=self.n_candidates, dtype=np.uint64, endpoint=True
        )
        state_hash = np.zeros(self.n_states, dtype=np.uint64)
        if self.moves.size:
            state_hash[1:] = np.bitwise_xor.accumulate(keys[self.moves])
        toggled = np.where(self.kind != 0, keys[np.maximum(self.var, 0)], np.uint64(0))
        return state_hash[self.state] ^ toggled

    def first_occurrences(self) -> np.ndarray:
        """Boolean mask of the models that are the first evaluation of their subset."""
        _, first = np.unique(self.hashes(), return_index=True)
        keep = np.zeros(len(self), dtype=bool)
        keep[first] = True
        return keep

    def credit(self, w: np.ndarray) -> np.ndarray:
        """Σ_m a_mk · w_m for every candidate k (w: one weight per recorded model)."""
        w = np.asarray(w, dtype=np.float64)
        state_total = np.bincount(self.state, weights=w, minlength=self.n_states)
        credit = _state_credit(self.moves.astype(np.int64), self.n_candidates, state_total)
        moved = self.kind != 0
        np.add.at(credit, self.var[moved], self.kind[moved] * w[moved])
        return credit

    def subsets(self, index=None) -> np.ndarray:
        """Boolean matrix (models × candidates) of the selected variables (for small searches)."""
        index = np.arange(len(self)) if index is None else np.asarray(index)
        states = np.zeros((self.n_states, self.n_candidates), dtype=bool)
        for t, k in enumerate(self.moves):
            states[t + 1] = states[t]
            states[t + 1, k] = not states[t, k]
        out = states[self.state[index]].copy()
        moved = self.kind[index] != 0
        rows = np.flatnonzero(moved)
        out[rows, self.var[index][moved]] = self.kind[index][moved] > 0
        return out


@dataclass
class ExhaustiveModels:
    """All 2^K subsets of the candidates: model m selects the candidates of the bits of m."""

    n_candidates: int
    cost: np.ndarray

    def __len__(self) -> int:
        return self.cost.size

    def first_occurrences(self) -> np.ndarray:
        return np.ones(self.cost.size, dtype=bool)

    def credit(self, w: np.ndarray) -> np.ndarray:
        w = np.asarray(w, dtype=np.float64)
        return np.array([w.reshape(-1, 2, 1 << k)[:, 1, :].sum() for k in range(self.n_candidates)])

    def subsets(self, index=None) -> np.ndarray:
        index = np.arange(len(self)) if index is None else np.asarray(index)
        bits = np.arange(self.n_candidates)
        return ((index[:, None] >> bits[None, :]) & 1).astype(bool)


@dataclass
class SearchResult:
    """Outcome of a search: best subset (candidate indices), its cost, and what was evaluated."""

    selected: np.ndarray
    cost: float
    null_cost: float
    models: SearchLog | ExhaustiveModels | None
    info: dict = field(default_factory=dict)


def default_n_starts(n_variables: int, n_instances: int) -> int:
    """⌊log2(K·N)⌋ starts (Algorithm 1, line 2), at least 1."""
    return max(1, int(math.floor(math.log2(max(n_variables * n_instances, 2)))))


def ms_ffwbw(
    engine: ScoreEngine,
    n_variables: int,
    n_starts: int | None = None,
    max_iter: int = 5,
    random_state=None,
    record: bool = True,
    tol: float = COST_TOLERANCE,
) -> SearchResult:
    """MS(FFWBW), Algorithm 1 of boulle2007 §3.5: minimise criterion (4).

    Each of the ``n_starts`` starts (default ⌊log2(K·N)⌋) begins with the empty set and repeats
    a fast forward pass (candidates in a fresh random order, each added as soon as it lowers the
    cost) and a fast backward pass (fresh random order, each selected variable removed as soon
    as that lowers the cost) until an iteration brings no improvement or ``max_iter`` iterations
    were done; the best subset over the starts is kept. Every evaluation is O(N·J), a pass
    O(K·N·J), so the search is O(K·N·J·log(K·N)).

    ``n_variables`` is the K of the prior (see the module docstring). With ``record``, the
    evaluated models are kept in a :class:`SearchLog` (for model averaging).
    """
    d = engine.data
    n_cand = d.n_candidates
    rng = np.random.default_rng(random_state)
    if n_starts is None:
        n_starts = default_n_starts(n_variables, d.n_instances)
    prior_cost = np.asarray(selection_prior_cost(n_variables, np.arange(n_variables + 1)))
    prior_cost = np.concatenate([prior_cost, np.full(max(0, n_cand - n_variables), np.inf)])
    engine.reset()
    null_nll = engine.nll
    null_cost = null_nll + prior_cost[0]
    selected = np.zeros(n_cand, dtype=bool)
    moves = np.empty(max(16, 4 * n_cand), dtype=np.int32)
    n_moves = 0
    chunks: list[tuple] = []
    best_cost, best = null_cost, np.zeros(0, dtype=np.int64)
    n_iterations = []
    n_evaluations = 0
    dummy_i = np.empty(0, dtype=np.int32)
    dummy_k = np.empty(0, dtype=np.int8)
    dummy_f = np.empty(0)

    def ensure_moves(extra):
        nonlocal moves
        if n_moves + extra > moves.size:
            grown = np.empty(max(2 * moves.size, n_moves + extra), dtype=np.int32)
            grown[:n_moves] = moves[:n_moves]
            moves = grown

    for _ in range(n_starts):
        # reset to the empty set; the removals are logged as moves
        dropped = np.flatnonzero(selected)
        ensure_moves(dropped.size)
        moves[n_moves : n_moves + dropped.size] = dropped
        n_moves += dropped.size
        selected[:] = False
        engine.reset()
        nll, n_sel = engine.nll, 0
        if record:
            chunks.append(
                (
                    np.array([n_moves], np.int32),
                    np.array([0], np.int32),
                    np.array([0], np.int8),
                    np.array([null_cost]),
                )
            )
        iteration = 0
        while True:
            iteration += 1
            improved = False
            for add in (True, False):
                order = rng.permutation(n_cand).astype(np.int64)
                n_eval = int(n_cand - n_sel) if add else int(n_sel)
                ensure_moves(n_eval)
                if record:
                    rec = (
                        np.empty(n_eval, np.int32),
                        np.empty(n_eval, np.int32),
                        np.empty(n_eval, np.int8),
                        np.empty(n_eval),
                    )
                else:
                    rec = (dummy_i, dummy_i, dummy_k, dummy_f)
                nll, n_sel, n_rec, n_moves, step_improved = _ffwbw_pass(
                    order,
                    add,
                    selected,
                    d.codes,
                    d.offsets,
                    d.table,
                    engine.etable_add if add else engine.etable_drop,
                    engine.ty_add if add else engine.ty_drop,
                    d.y,
                    engine.S,
                    engine.q,
                    prior_cost,
                    n_sel,
                    nll,
                    tol,
                    record,
                    *rec,
                    0,
                    moves,
                    n_moves,
                )
                n_evaluations += n_eval
                if record:
                    chunks.append(rec)
                improved |= step_improved
            if not improved or iteration >= max_iter:
                break
        n_iterations.append(iteration)
        cost = nll + prior_cost[n_sel]
        if cost < best_cost - tol:
            best_cost, best = cost, np.flatnonzero(selected)
    engine.nll = nll
    engine.weights = selected.astype(float)
    models = None
    if record:
        state, var, kind, cost = (np.concatenate([c[f] for c in chunks]) for f in range(4))
        models = SearchLog(n_cand, state, var, kind, cost, moves[:n_moves].copy())
    info = {"n_starts": n_starts, "iterations": n_iterations, "n_evaluations": n_evaluations}
    return SearchResult(best, float(best_cost), float(null_cost), models, info)


#: largest number of candidates of the exhaustive search (2^24 models, 128 MB of costs)
MAX_EXHAUSTIVE = 24


def exhaustive_search(engine: ScoreEngine, n_variables: int) -> SearchResult:
    """Criterion (4) of all 2^K subsets of the candidates (K ≤ 24), in Gray-code order.

    Consecutive subsets differ by one variable, so each costs one O(N·J) update of S; S is
    recomputed from scratch every 2^12 subsets to bound floating-point drift. The oracle of
    :func:`ms_ffwbw` and the search of the waveform study of boulle2007 §5.3 (2^19 models).
    """
    d = engine.data
    n_cand = d.n_candidates
    _check_exhaustive_size(n_cand)
    prior_cost = np.asarray(selection_prior_cost(n_variables, np.arange(n_variables + 1)))
    prior_cost = np.concatenate([prior_cost, np.full(max(0, n_cand - n_variables), np.inf)])
    costs = np.empty(1 << n_cand)
    _gray_map_costs(d.codes, d.offsets, d.table, d.y, d.log_prior, prior_cost, costs, 1 << 12)
    best_mask = int(np.argmin(costs))
    selected = np.flatnonzero((best_mask >> np.arange(n_cand)) & 1)
    models = ExhaustiveModels(n_cand, costs)
    info = {"n_evaluations": costs.size}
    return SearchResult(selected, float(costs[best_mask]), float(costs[0]), models, info)


def exhaustive_criterion(engine: ScoreEngine, criterion: str = "accuracy") -> dict:
    """Best training accuracy (or AUC) over all 2^K subsets of the candidates (K ≤ 24).

    The protocol of the waveform study of boulle2007 §5.3 ("we evaluate exhaustively the half a
    million models"), which takes the search out of the comparison. Ties (frequent for the
    accuracy) go to the subset with the fewest variables, then the smallest bit mask.
    Returns ``selected`` (candidate indices), ``value`` and ``values`` (by bit mask).
    """
    if criterion not in ("accuracy", "auc"):
        raise ValueError(f"criterion must be 'accuracy' or 'auc', got {criterion!r}")
    d = engine.data
    n_cand = d.n_candidates
    _check_exhaustive_size(n_cand)
    values = np.empty(1 << n_cand)
    _subset_criterion(d.codes, d.offsets, d.table, d.y, d.log_prior, criterion == "auc", values)
    masks = np.arange(values.size)
    sizes = np.zeros(values.size, dtype=np.int64)
    for k in range(n_cand):
        sizes += (masks >> k) & 1
    best = np.flatnonzero(values == values.max())
    mask = int(best[np.lexsort((best, sizes[best]))[0]])
    selected = np.flatnonzero((mask >> np.arange(n_cand)) & 1)
    return {"selected": selected.tolist(), "value": float(values[mask]), "values": values}


def _check_exhaustive_size(n_cand: int) -> None:
    if n_cand > MAX_EXHAUSTIVE:
        raise ValueError(
            f"search='exhaustive' enumerates 2^K subsets and accepts at most {MAX_EXHAUSTIVE} "
            f"informative variables; this data set has {n_cand}: use the heuristic search"
        )


# ---------------------------------------------------------------------------------------------
# Estimators
# ---------------------------------------------------------------------------------------------
def _check_choice(name, value, allowed):
    if value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")


def _check_int(name, value, minimum, allow_none=False):
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer ≥ {minimum}, got {value!r}")


class _SelectiveBase(MODLNaiveBayes):
    """Weighted NB on the MODL preprocessing whose weights come from a selection search."""

    def _selection_data(self, Z, y):
        super()._fit_weights(Z, y)  # the NB's bookkeeping (MODL levels_)
        return SelectionData.from_estimator(self, Z, y)

    def _weights_from(self, data: SelectionData, candidate_weights) -> np.ndarray:
        weights = np.zeros(len(self.variables_))
        weights[data.candidates] = np.clip(candidate_weights, 0.0, 1.0)
        return weights

    def _n_prior_variables(self, data: SelectionData) -> int:
        if self.prior_variables == "all":
            return max(len(self.variables_), 1)
        return max(data.n_candidates, 1)


class _GreedySelectiveNaiveBayes(_SelectiveBase):
    _criterion = "accuracy"

    def fit(self, X, y):
        _check_choice("stopping", self.stopping, ("no_rise", "no_decrease"))
        _check_choice("search", self.search, ("greedy", "exhaustive"))
        return super().fit(X, y)

    def _fit_weights(self, Z, y):
        data = self._selection_data(Z, y)
        start = time.perf_counter()
        if data.n_candidates == 0:
            selected, value, trace = [], None, []
        elif self.search == "exhaustive":
            result = exhaustive_criterion(ScoreEngine(data), self._criterion)
            selected, value, trace = result["selected"], result["value"], []
        else:
            result = forward_greedy(ScoreEngine(data), self._criterion, self.stopping)
            selected, value, trace = result["selected"], result["trace"][-1], result["trace"]
        self.fit_report_.update(
            criterion=value,
            criterion_name=self._criterion,
            trace=trace,
            n_candidates=data.n_candidates,
            selection_order=[int(data.candidates[i]) for i in selected],
            search_time=time.perf_counter() - start,
        )
        w = np.zeros(data.n_candidates)
        w[selected] = 1.0
        return self._weights_from(data, w)


class ACCSelectiveNaiveBayes(_GreedySelectiveNaiveBayes):
    """SNB(ACC): forward greedy selection on the training accuracy (boulle2007 §2.3).

    The selective naive Bayes of Langley & Sage (1994) on the MODL preprocessing. By default
    the selection continues as long as the training accuracy does not decrease, as Langley &
    Sage do (``stopping="no_decrease"``); ``stopping="no_rise"`` stops as soon as it no longer
    rises. Only informative variables are candidates.

    Parameters
    ----------
    stopping : {"no_decrease", "no_rise"}, default "no_decrease"
    search : {"greedy", "exhaustive"}, default "greedy"
        "exhaustive": the best training accuracy over all 2^K subsets of the informative
        variables (K ≤ 24), as in the waveform study of boulle2007 §5.3
        (:func:`exhaustive_criterion`); ``stopping`` is then unused.
    variant, algorithm, categorical_features : as :class:`repro.methods.modl_nb.MODLNaiveBayes`

    Attributes
    ----------
    weights_ : ndarray (K,) of 0/1; fit_report_ : dict with the accuracy ``trace`` and the
    ``selection_order``.
    """

    _criterion = "accuracy"

    def __init__(
        self,
        stopping="no_decrease",
        search="greedy",
        variant="paper",
        algorithm="optimized_greedy",
        categorical_features="auto",
    ):
        self.stopping = stopping
        self.search = search
        self.variant = variant
        self.algorithm = algorithm
        self.categorical_features = categorical_features


class AUCSelectiveNaiveBayes(_GreedySelectiveNaiveBayes):
    """SNB(AUC): forward greedy selection on the training AUC (Boullé 2006a, boulle2007 §2.3).

    Adds at each step the variable with the best training multi-class AUC and stops as soon as
    the AUC no longer rises (``stopping="no_rise"``, the default, as in the paper);
    ``"no_decrease"`` continues while it does not decrease.

    Parameters
    ----------
    stopping : {"no_rise", "no_decrease"}, default "no_rise"
    search : {"greedy", "exhaustive"}, default "greedy"
        "exhaustive": the best training AUC over all 2^K subsets (K ≤ 24, boulle2007 §5.3).
    variant, algorithm, categorical_features : as :class:`repro.methods.modl_nb.MODLNaiveBayes`
    """

    _criterion = "auc"

    def __init__(
        self,
        stopping="no_rise",
        search="greedy",
        variant="paper",
        algorithm="optimized_greedy",
        categorical_features="auto",
    ):
        self.stopping = stopping
        self.search = search
        self.variant = variant
        self.algorithm = algorithm
        self.categorical_features = categorical_features


class _MAPSearchBase(_SelectiveBase):
    """Shared by SNB(MAP), SNB(BMA), SNB(CMA): criterion (4) searched by MS(FFWBW)/exhaustive."""

    _record = False

    def __init__(
        self,
        search="heuristic",
        n_starts=None,
        max_iter=5,
        prior_variables="all",
        random_state=0,
        keep_models=False,
        variant="paper",
        algorithm="optimized_greedy",
        categorical_features="auto",
    ):
        self.search = search
        self.n_starts = n_starts
        self.max_iter = max_iter
        self.prior_variables = prior_variables
        self.random_state = random_state
        self.keep_models = keep_models
        self.variant = variant
        self.algorithm = algorithm
        self.categorical_features = categorical_features

    def fit(self, X, y):
        _check_choice("search", self.search, ("heuristic", "exhaustive"))
        _check_choice("prior_variables", self.prior_variables, ("all", "informative"))
        _check_int("max_iter", self.max_iter, 1)
        _check_int("n_starts", self.n_starts, 1, allow_none=True)
        return super().fit(X, y)

    def _search(self, Z, y) -> tuple[SelectionData, SearchResult | None]:
        data = self._selection_data(Z, y)
        self.n_iter_ = 1  # FFWBW iterations (largest over the starts), scikit-learn convention
        if data.n_candidates == 0:
            self.fit_report_.update(n_candidates=0, criterion=None, search_time=0.0)
            return data, None
        start = time.perf_counter()
        engine = ScoreEngine(data)
        n_variables = self._n_prior_variables(data)
        if self.search == "exhaustive":
            result = exhaustive_search(engine, n_variables)
        else:
            result = ms_ffwbw(
                engine,
                n_variables,
                n_starts=self.n_starts,
                max_iter=self.max_iter,
                random_state=self.random_state,
                record=self._record or self.keep_models,
            )
        self.fit_report_.update(
            criterion=result.cost,
            criterion_name="map_cost",
            null_cost=result.null_cost,
            n_candidates=data.n_candidates,
            map_selection=[int(data.candidates[i]) for i in result.selected],
            search_time=time.perf_counter() - start,
            **result.info,
        )
        self.n_iter_ = max(result.info.get("iterations", [1]))
        if self.keep_models:
            self.search_result_ = result
        return data, result


class MAPSelectiveNaiveBayes(_MAPSearchBase):
    """SNB(MAP): the most probable selective naive Bayes, criterion (4) of boulle2007 §3.

    Minimises ``log(K+1) + log C(K+K_m−1, K_m) − Σ_n log P_M(y_n | x_n)`` over the subsets of
    the informative variables, with MS(FFWBW) (``search="heuristic"``, Algorithm 1: ⌊log2(K·N)⌋
    starts unless ``n_starts`` is given, ``max_iter`` = 5, seeded by ``random_state``) or by
    enumerating all 2^K subsets (``search="exhaustive"``, at most 24 informative variables).

    Parameters
    ----------
    search : {"heuristic", "exhaustive"}, default "heuristic"
    n_starts : int or None, default None (⌊log2(K·N)⌋)
    max_iter : int, default 5
    prior_variables : {"all", "informative"}, default "all"
        K of the prior: all input variables (the paper's K) or only the informative ones.
    random_state : int, Generator or None, default 0
    keep_models : bool, default False
        Keep the search outcome, with every evaluated model and its cost, as ``search_result_``.
    variant, algorithm, categorical_features : as :class:`repro.methods.modl_nb.MODLNaiveBayes`

    Attributes
    ----------
    weights_ : ndarray (K,) of 0/1
    n_iter_ : int, the largest number of FFWBW iterations of a start (1 when exhaustive)
    search_result_ : :class:`SearchResult`, when ``keep_models``
    fit_report_ : dict, with ``criterion`` (criterion (4) of the MAP, nats),
        ``null_cost``, ``n_evaluations``, ``iterations`` (per start).

    References
    ----------
    M. Boullé, Compression-based averaging of selective naive Bayes classifiers, JMLR 8, 2007.
    """

    def _fit_weights(self, Z, y):
        data, result = self._search(Z, y)
        w = np.zeros(data.n_candidates)
        if result is not None:
            w[result.selected] = 1.0
        return self._weights_from(data, w)
