"""The score engine of the weighted naive Bayes over per-variable tables.

- :class:`EncodedData`: the training data of the candidate variables, packed for the kernels: each
  variable as a code per instance (its part, or one row per instance for a continuous model) into
  its (rows × J) table of log P(x_k | y);
- :class:`ScoreEngine`: the N × J score matrix S = log P(y) + Σ_k w_k·T_k[codes_k] of the current
  weights, its per-instance normalisation Q = softmax(S) and the training negative log-likelihood.
  Adding, dropping or re-weighting one variable costs O(N·J) (a gather of its table). The cost of
  a *candidate* change δ of w_k is obtained without exponentials: with t = exp(δ·T_k[c_n]),

      NLL(S + δ·T_k) = NLL(S) − δ·Σ_n T_k[c_n, y_n] + Σ_n log Σ_j Q_nj · t_j

  (the middle sum is pre-computed per variable; T_k is first shifted row-wise so that t ≤ 1, which
  leaves the posterior unchanged), i.e. N·J multiply-adds and a few logarithms
  (:func:`mix_log_sum`);
- numba kernels on the packed data: :func:`add_column`, :func:`mix_log_sum`,
  :func:`true_class_sums`, :func:`accuracy_counts`, :func:`auc_candidates`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from repro.methods.core.criteria import multiclass_auc, softmax_nll


# ---------------------------------------------------------------------------------------------
# Numba kernels
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def add_column(S, codes_i, table, offset, delta):
    """S += delta · T_i[codes_i] (T_i the rows offset.. of the packed table)."""
    n_rows, n_classes = S.shape
    for n in range(n_rows):
        row = offset + codes_i[n]
        for j in range(n_classes):
            S[n, j] += delta * table[row, j]


@njit(cache=True)
def mix_log_sum(q, codes_i, etable, offset):
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
def true_class_sums(codes, table, offsets, y):
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
def accuracy_counts(S, codes, offsets, table, y, candidates):
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
def auc_candidates(S, codes, offsets, table, y, candidates):
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
        out[t] = multiclass_auc(y, work)
    return out


# ---------------------------------------------------------------------------------------------
# Training data of the candidates, packed
# ---------------------------------------------------------------------------------------------
def _code_dtype(max_code: int):
    for dtype in (np.uint8, np.uint16, np.int32):
        if max_code <= np.iinfo(dtype).max:
            return dtype
    return np.int64


@dataclass
class EncodedData:
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
    def from_tables(cls, codes, tables, y, log_prior, candidates=None) -> EncodedData:
        """From per-candidate code arrays (N,) (a sequence, or an iterable read once, one
        array at a time, into the packed matrix) and log tables (rows × J)."""
        tables = [np.asarray(t, dtype=np.float64) for t in tables]
        sizes = np.array([t.shape[0] for t in tables], dtype=np.int64)
        offsets = (np.cumsum(sizes) - sizes).astype(np.int64)  # (0,) when there is none
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
    def from_estimator(cls, estimator, Z: np.ndarray, y: np.ndarray, columns=None) -> EncodedData:
        """The variables ``columns`` (default: the informative ones) of a fitted weighted NB.

        Discrete variable models give ``codes(x)`` and ``log_table_``; any other model is used
        through its training column (one table row per instance, O(N·J) memory per variable).
        The codes are computed one variable at a time into the packed matrix (no int64 copy of
        all of them).
        """
        if columns is None:
            columns = [
                k
                for k, model in enumerate(estimator.variables_)
                if getattr(model, "informative_", True)
            ]
        columns = list(columns)
        models = [estimator.variables_[k] for k in columns]
        discrete = [hasattr(m, "codes") and hasattr(m, "log_table_") for m in models]
        tables = [
            m.log_table_ if d else m.log_likelihood(Z[:, k])
            for k, m, d in zip(columns, models, discrete)
        ]
        codes = (
            m.codes(Z[:, k]) if d else np.arange(Z.shape[0])
            for k, m, d in zip(columns, models, discrete)
        )
        return cls.from_tables(codes, tables, y, estimator.class_log_prior_, columns)

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
def shifted_tables(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(T − max_j T, T − min_j T) row by row: adding δ·(T_i − r) for a per-row constant r gives
    the same posterior, and these shifts keep exp(δ·shifted) in (0, 1] for δ > 0 and δ < 0."""
    if not table.size:
        return table, table
    return table - table.max(axis=1, keepdims=True), table - table.min(axis=1, keepdims=True)


class ScoreEngine:
    """Score matrix S = log P(y) + Σ_i w_i·T_i[c_i] of a weighted NB on the training data.

    Holds S (N × J), its per-instance normalisation Q = softmax(S) and the training negative
    log-likelihood ``nll`` = −Σ_n log Q[n, y_n]. :meth:`apply` changes one weight in O(N·J);
    :meth:`delta_nll` gives the NLL after a candidate change without applying it, also O(N·J)
    (N logarithms, no exponential, see the module docstring).
    """

    def __init__(self, data: EncodedData):
        self.data = data
        self.shift_add, self.shift_drop = shifted_tables(data.table)
        self.etable_add = np.exp(self.shift_add)
        self.etable_drop = np.exp(-self.shift_drop)
        self.ty_add = true_class_sums(data.codes, self.shift_add, data.offsets, data.y)
        self.ty_drop = true_class_sums(data.codes, self.shift_drop, data.offsets, data.y)
        # rows of each candidate's table that its codes use (fractional moves exponentiate them)
        self.used_rows = (
            (data.codes.max(axis=1).astype(np.int64) + 1)
            if data.codes.size
            else (np.zeros(data.n_candidates, dtype=np.int64))
        )
        self.reset()

    def reset(self, weights=None) -> None:
        """Recompute S, Q and the NLL from scratch for ``weights`` (default: all zero)."""
        d = self.data
        self.weights = np.zeros(d.n_candidates) if weights is None else np.array(weights, float)
        self.S = np.repeat(d.log_prior[None, :], d.n_instances, axis=0)
        for i in np.flatnonzero(self.weights):
            add_column(self.S, d.codes[i], d.table, d.offsets[i], float(self.weights[i]))
        self.q = np.empty_like(self.S)
        self.nll = float(softmax_nll(self.S, self.q, d.y))

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
            rows = slice(d.offsets[i], d.offsets[i] + int(self.used_rows[i]))
            shifted = (self.shift_add if delta > 0 else self.shift_drop)[rows]
            etable = np.exp(delta * shifted)
            ty = (self.ty_add if delta > 0 else self.ty_drop)[i]
            return self.nll - delta * ty + mix_log_sum(self.q, d.codes[i], etable, 0)
        return self.nll - delta * ty + mix_log_sum(self.q, d.codes[i], etable, d.offsets[i])

    def apply(self, i: int, delta: float) -> None:
        """w_i += delta; updates S, Q and the NLL in O(N·J)."""
        d = self.data
        add_column(self.S, d.codes[i], d.table, d.offsets[i], float(delta))
        self.nll = float(softmax_nll(self.S, self.q, d.y))
        self.weights[i] += delta
