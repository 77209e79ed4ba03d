"""Many interpolated predictors evaluated at once, for the λ path of the group-lasso NB.

The L1/L2 path (:mod:`repro.methods.vidaurre2012.group_lasso`) needs, for every predictor i and
every λ of its grid, ℓ_i(α) and ℓ_i'(α) at many α (a grid, then a root search), and the training
scores of the model at each λ. Asked one predictor and one α at a time that is a Python call per
(predictor, λ, iteration): 40 s on a 50 × 5000 table. Here the predictors of one kind are stacked
into arrays and evaluated for arrays of pairs (predictor, α) in one numpy expression each:

- :class:`GaussianStack`: the :class:`~repro.preprocessing.interpolation.InterpolatedGaussian`
  models (their per-class statistics, (V × J) arrays);
- :class:`TableStack`: the :class:`~repro.preprocessing.interpolation.InterpolatedTable` models
  (their tables one below the other, rows of predictor v at ``offsets[v]:offsets[v + 1]``);
- :class:`SingleStack`: any other object with ``loglik(alphas)`` and ``dloglik(alphas)``, one
  call per predictor (the generic, slower path).

The formulas are those of the models (:mod:`repro.preprocessing.interpolation`), written for
pairs; :func:`stacks` groups a list of models by kind.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from repro.preprocessing.interpolation import LOG_2PI, InterpolatedGaussian, InterpolatedTable

#: at most this many float64 values in one temporary array (8 MB)
BLOCK_VALUES = 2**20
#: the training columns of a stack of Gaussians are kept for the whole path up to this many
#: values (128 MB), else gathered again for each λ
CACHED_VALUES = 2**24


class Stack:
    """Predictors of one kind: ``members`` (their positions in the caller's list)."""

    members: np.ndarray

    def loglik(self, v: np.ndarray, alphas: np.ndarray) -> np.ndarray:
        """ℓ_{v_p}(α_p) for each pair p (v: positions in this stack)."""
        raise NotImplementedError

    def dloglik(self, v: np.ndarray, alphas: np.ndarray) -> np.ndarray:
        """ℓ'_{v_p}(α_p) for each pair p."""
        raise NotImplementedError

    def add_scores(self, S: np.ndarray, columns: Sequence, alphas: np.ndarray) -> None:
        """S += Σ_v log P(x_v | y; α_v) over the members with α_v > 0 (``alphas`` per member)."""
        raise NotImplementedError


def _pairs(v, alphas):
    v = np.asarray(v, dtype=np.int64).ravel()
    a = np.broadcast_to(np.asarray(alphas, dtype=np.float64), v.shape).ravel()
    return v, a


class GaussianStack(Stack):
    """Interpolated Gaussians: μ_j(α) = αμ_j^(1) + (1 − α)μ^(0), σ_j(α) likewise."""

    def __init__(self, models: Sequence[InterpolatedGaussian], members):
        self.members = np.asarray(members, dtype=np.int64)
        self.mean1 = np.array([m.mean1_ for m in models], dtype=np.float64)
        self.sd1 = np.array([m.sd1_ for m in models], dtype=np.float64)
        self.mean0 = np.array([m.mean0_ for m in models], dtype=np.float64)[:, None]
        self.sd0 = np.array([m.sd0_ for m in models], dtype=np.float64)[:, None]
        self.n = np.array([m.n_ for m in models], dtype=np.float64)
        self.xbar = np.array([m.xbar_ for m in models], dtype=np.float64)
        self.v = np.array([m.v_ for m in models], dtype=np.float64)
        self.scale = np.array([m.scale_ for m in models], dtype=np.float64)
        self.informative = np.array([m.informative_ for m in models], dtype=bool)
        self._x: np.ndarray | None = None

    def _params(self, v, a):
        a = a[:, None]
        mean = a * self.mean1[v] + (1.0 - a) * self.mean0[v]
        sd = a * self.sd1[v] + (1.0 - a) * self.sd0[v]
        return mean, sd

    def loglik(self, v, alphas):
        v, a = _pairs(v, alphas)
        mean, sd = self._params(v, a)
        sq = self.v[v] + (self.xbar[v] - mean) ** 2
        scale = self.scale[v][:, None]
        terms = -self.n[v] * (0.5 * LOG_2PI + np.log(sd * scale) + sq / (2.0 * sd * sd))
        return np.where(self.informative[v], terms.sum(axis=1), 0.0)

    def dloglik(self, v, alphas):
        v, a = _pairs(v, alphas)
        mean, sd = self._params(v, a)
        dmean = self.mean1[v] - self.mean0[v]
        dsd = self.sd1[v] - self.sd0[v]
        gap = self.xbar[v] - mean
        terms = self.n[v] * (
            -dsd / sd + gap * dmean / sd**2 + (self.v[v] + gap * gap) * dsd / sd**3
        )
        return np.where(self.informative[v], terms.sum(axis=1), 0.0)

    def _columns(self, columns, v, n) -> np.ndarray:
        """The training columns of members ``v`` (N × len(v)) in the models' units; all of
        them kept after the first call when they fit in :data:`CACHED_VALUES`."""
        if self._x is None and n * self.members.size <= CACHED_VALUES:
            self._x = self._stack(columns, np.arange(self.members.size))
        if self._x is not None:
            return self._x[:, v]
        return self._stack(columns, v)

    def _stack(self, columns, v) -> np.ndarray:
        x = np.column_stack([np.asarray(columns[self.members[k]].x, np.float64) for k in v])
        return x / self.scale[v]

    def add_scores(self, S, columns, alphas):
        chosen = np.flatnonzero((alphas > 0) & self.informative)
        n = S.shape[0]
        width = max(1, BLOCK_VALUES // max(1, n * S.shape[1]))
        for b0 in range(0, chosen.size, width):
            v = chosen[b0 : b0 + width]
            x = self._columns(columns, v, n)
            mean, sd = self._params(v, alphas[v])
            z = (x[:, :, None] - mean[None]) / sd[None]
            z = np.clip(z, -1e150, 1e150)
            out = -0.5 * (LOG_2PI + z * z) - np.log(sd * self.scale[v][:, None])[None]
            out[np.isnan(x)] = 0.0
            S += out.sum(axis=1)


class TableStack(Stack):
    """Interpolated tables: θ_kj(α) = αθ^(1)_kj + (1 − α)θ^(0)_k, the tables one below the
    other."""

    def __init__(self, models: Sequence[InterpolatedTable], members):
        self.members = np.asarray(members, dtype=np.int64)
        self.models = list(models)
        sizes = np.array([m.theta1_.shape[0] for m in models], dtype=np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(sizes)])
        self.sizes = sizes
        n_classes = models[0].theta1_.shape[1] if models else 0
        self.theta1 = np.concatenate([m.theta1_ for m in models]).reshape(-1, n_classes)
        self.theta0 = np.concatenate([m.theta0_ for m in models])
        self.counts = np.concatenate([m.counts_ for m in models]).reshape(-1, n_classes)
        self.diff = self.theta1 - self.theta0[:, None]
        self._codes: list | None = None

    def _rows(self, v):
        """(pair of each row, row) for the rows of the pairs' predictors."""
        m = self.sizes[v]
        pair = np.repeat(np.arange(v.size), m)
        first = np.repeat(np.cumsum(m) - m, m)
        rows = np.repeat(self.offsets[v], m) + np.arange(pair.size) - first
        return pair, rows

    def _reduce(self, v, a, row_term) -> np.ndarray:
        out = np.zeros(v.size)
        n_classes = max(1, self.theta1.shape[1])
        width = max(1, BLOCK_VALUES // (n_classes * max(1, int(self.sizes.max(initial=1)))))
        for b0 in range(0, v.size, width):
            vb, ab = v[b0 : b0 + width], a[b0 : b0 + width]
            pair, rows = self._rows(vb)
            aa = ab[pair][:, None]
            theta = aa * self.theta1[rows] + (1.0 - aa) * self.theta0[rows][:, None]
            out[b0 : b0 + width] = np.bincount(
                pair, weights=row_term(rows, theta).sum(axis=1), minlength=vb.size
            )
        return out

    def loglik(self, v, alphas):
        v, a = _pairs(v, alphas)
        return self._reduce(v, a, lambda rows, theta: self.counts[rows] * np.log(theta))

    def dloglik(self, v, alphas):
        v, a = _pairs(v, alphas)
        return self._reduce(v, a, lambda rows, theta: self.counts[rows] * self.diff[rows] / theta)

    def add_scores(self, S, columns, alphas):
        if self._codes is None:  # the members' training codes (M_v: "no information")
            self._codes = [np.asarray(columns[m].codes, dtype=np.int64) for m in self.members]
        chosen = np.flatnonzero(alphas > 0)
        n, n_classes = S.shape
        width = max(1, BLOCK_VALUES // max(1, n * n_classes))
        for b0 in range(0, chosen.size, width):
            block = chosen[b0 : b0 + width]
            pair, rows = self._rows(block)
            aa = alphas[block][pair][:, None]
            log_theta = np.log(aa * self.theta1[rows] + (1.0 - aa) * self.theta0[rows][:, None])
            # the block's tables one below the other, each followed by its zero row
            padded = self.sizes[block] + 1
            starts = np.cumsum(padded) - padded
            table = np.zeros((int(padded.sum()), n_classes))
            table[starts[pair] + rows - self.offsets[block][pair]] = log_theta
            index = np.column_stack([self._codes[k] for k in block]) + starts
            S += table[index].sum(axis=1)


class SingleStack(Stack):
    """Any objective with ``loglik(alphas)`` and ``dloglik(alphas)``: one call per predictor."""

    def __init__(self, objectives: Sequence, members):
        self.members = np.asarray(members, dtype=np.int64)
        self.objectives = list(objectives)

    def _each(self, v, alphas, name):
        v, a = _pairs(v, alphas)
        out = np.empty(v.size)
        for k in np.unique(v):
            here = v == k
            out[here] = getattr(self.objectives[k], name)(a[here])
        return out

    def loglik(self, v, alphas):
        return self._each(v, alphas, "loglik")

    def dloglik(self, v, alphas):
        return self._each(v, alphas, "dloglik")

    def add_scores(self, S, columns, alphas):
        for k in np.flatnonzero(alphas > 0):
            column = columns[self.members[k]]
            S += column.tables([alphas[k]])[0][np.asarray(column.codes, dtype=np.int64)]


def stacks(objectives: Sequence, positions=None) -> list[Stack]:
    """The objectives at ``positions`` (default all) grouped by kind into stacks."""
    positions = np.arange(len(objectives)) if positions is None else np.asarray(positions)
    kinds: dict[type, list[int]] = {}
    for i in positions.tolist():
        model = objectives[i]
        kind = type(model) if type(model) in (InterpolatedGaussian, InterpolatedTable) else None
        if kind is InterpolatedTable and kinds.get(kind):
            first = objectives[kinds[kind][0]]
            if first.theta1_.shape[1] != model.theta1_.shape[1]:
                kind = None
        kinds.setdefault(kind, []).append(i)
    out: list[Stack] = []
    for kind, members in kinds.items():
        models = [objectives[i] for i in members]
        if kind is InterpolatedGaussian:
            out.append(GaussianStack(models, members))
        elif kind is InterpolatedTable:
            out.append(TableStack(models, members))
        else:
            out.append(SingleStack(models, members))
    return out
