"""Searches over the variable weights of a weighted naive Bayes, on the score engine.

- :func:`forward_greedy` (:mod:`repro.methods.core.selection`, re-exported): forward selection on a
  training criterion (accuracy or AUC; boulle2007 §2.3, SNB(ACC) and SNB(AUC));
- :func:`ms_ffwbw`: Algorithm 1 of boulle2007 §3.5, multi-start fast forward / fast backward
  selection minimising criterion (4);
- :func:`exhaustive_search`, :func:`exhaustive_criterion`: all 2^K subsets in Gray-code order,
  O(N·J) per subset, the oracle of the heuristics and the protocol of boulle2007 §5.3.

The searches record the models they evaluate (:class:`SearchLog`, :class:`ExhaustiveModels`) so
that model averaging (:mod:`repro.methods.boulle2007.averaging`) can weight them:
:meth:`SearchLog.credit` gives Σ_m a_mk π_m for every variable k, and :func:`averaged_weights`
the variable weights w_k = Σ_m a_mk π_m / Σ_m π_m of boulle2007 eq. 7.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import njit, prange

from repro.methods.boulle2007.criteria import selection_prior_cost
from repro.methods.core.criteria import multiclass_auc, softmax_nll
from repro.methods.core.engine import (
    ScoreEngine,
    add_column,
    mix_log_sum,
)
from repro.methods.core.selection import forward_greedy  # noqa: F401  (re-exported)
from repro.runtime.compilation import numba_threads
from repro.runtime.cores import kernel_threads

#: cost improvements smaller than this (nats) are not improvements (guards against float noise)
COST_TOLERANCE = 1e-9
#: candidates evaluated per thread between two readings of a parallel pass
PARALLEL_CHUNK = 64


# ---------------------------------------------------------------------------------------------
# Numba kernels of the searches
# ---------------------------------------------------------------------------------------------
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
    n_threads,
    chunk,
):
    """One fast-forward (``add``) or fast-backward pass of Algorithm 1 (boulle2007 §3.5).

    Every variable of ``order`` not yet (resp. already) selected is evaluated once; the move is
    kept as soon as it lowers criterion (4). ``etable`` and ``ty`` are those of the pass
    direction (:class:`ScoreEngine`). Evaluated models are appended to the ``rec_*`` arrays
    (state id = number of moves so far), accepted moves to ``moves``. Returns (nll, n_sel,
    n_rec, n_moves, improved).

    ``n_threads`` > 1 evaluates the next candidates on that many threads, speculatively
    (:func:`_mix_log_sums_parallel`): they are computed against the current model, then read in
    the pass's order; at the first accepted move the model changes and the candidates after it
    are evaluated again. The look-ahead starts at one candidate per thread and doubles after
    each batch without a move (up to ``chunk``), so that few evaluations are redone where moves
    are frequent (the first forward pass) and many run at once where they are rare. Same
    evaluations, same floating-point operations, same order of decisions: the pass's result,
    records and moves do not depend on ``n_threads``. One thread (``n_threads = chunk = 1``)
    reads one candidate at a time, on this thread."""
    improved = False
    cost = nll + prior_cost[n_sel]
    batch = np.empty(chunk, dtype=np.int64)
    position = np.empty(chunk, dtype=np.int64)
    values = np.empty(chunk)
    width = n_threads
    t = 0
    while t < order.size:
        m = 0
        while t < order.size and m < width:
            i = order[t]
            if selected[i] != add:
                batch[m] = i
                position[m] = t
                m += 1
            t += 1
        if n_threads > 1:
            _mix_log_sums_parallel(q, codes, etable, offsets, batch, m, values)
        else:
            _mix_log_sums(q, codes, etable, offsets, batch, m, values)
        for c in range(m):
            nll, n_sel, cost, n_rec, n_moves, moved = _read_move(
                batch[c], values[c], add, selected, codes, offsets, table, ty, y, S, q,
                prior_cost, n_sel, nll, cost, tol, record, rec_state, rec_var, rec_kind,
                rec_cost, n_rec, moves, n_moves,
            )  # fmt: skip
            if moved:
                improved = True
                t = position[c] + 1  # the rest of the chunk: evaluated again on the new model
                width = n_threads
                break
        else:
            width = min(2 * width, chunk)  # no move: read further ahead next time
    return nll, n_sel, n_rec, n_moves, improved


@njit(cache=True)
def _read_move(
    i, s, add, selected, codes, offsets, table, ty, y, S, q, prior_cost, n_sel, nll, cost, tol,
    record, rec_state, rec_var, rec_kind, rec_cost, n_rec, moves, n_moves,
):  # fmt: skip
    """One step of a pass: the model with candidate i toggled, whose mix log-sum is ``s``, is
    recorded and kept if it lowers criterion (4) by more than ``tol``. Returns (nll, n_sel,
    cost, n_rec, n_moves, kept)."""
    sign = 1.0 if add else -1.0
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
        add_column(S, codes[i], table, offsets[i], sign)
        nll = softmax_nll(S, q, y)
        selected[i] = add
        moves[n_moves] = i
        return nll, new_sel, nll + prior_cost[new_sel], n_rec, n_moves + 1, True
    return nll, n_sel, cost, n_rec, n_moves, False


@njit(cache=True)
def _mix_log_sums(q, codes, etable, offsets, batch, m, values):
    """values[c] = :func:`mix_log_sum` of candidate batch[c], c < m (the trial NLL's last term)."""
    for c in range(m):
        values[c] = mix_log_sum(q, codes[batch[c]], etable, offsets[batch[c]])


@njit(cache=True, parallel=True)
def _mix_log_sums_parallel(q, codes, etable, offsets, batch, m, values):
    """:func:`_mix_log_sums` on numba's threads (the caller sets their number)."""
    for c in prange(m):
        values[c] = mix_log_sum(q, codes[batch[c]], etable, offsets[batch[c]])


@njit(cache=True)
def _subset_scores(S, mask, codes, offsets, table, log_prior):
    """S ← log P(y) + Σ_{i in mask} T_i[codes_i], variables added in index order."""
    n_rows, n_classes = S.shape
    for n in range(n_rows):
        for j in range(n_classes):
            S[n, j] = log_prior[j]
    for i in range(codes.shape[0]):
        if (mask >> i) & 1:
            add_column(S, codes[i], table, offsets[i], 1.0)


@njit(cache=True)
def _gray_map_costs(codes, offsets, table, y, log_prior, prior_cost, costs, resync):
    """criterion (4) of all 2^K subsets (cost[mask]), Gray-code order, O(N·J) per subset."""
    n_cand, n_rows = codes.shape
    n_classes = log_prior.size
    S = np.empty((n_rows, n_classes))
    q = np.empty((n_rows, n_classes))
    _subset_scores(S, 0, codes, offsets, table, log_prior)
    costs[0] = softmax_nll(S, q, y) + prior_cost[0]
    mask = 0
    n_sel = 0
    for g in range(1, 1 << n_cand):
        b = 0
        while (g >> b) & 1 == 0:
            b += 1
        if (mask >> b) & 1:
            add_column(S, codes[b], table, offsets[b], -1.0)
            n_sel -= 1
        else:
            add_column(S, codes[b], table, offsets[b], 1.0)
            n_sel += 1
        mask ^= 1 << b
        if g % resync == 0:  # bound the drift of the repeated additions / subtractions
            _subset_scores(S, mask, codes, offsets, table, log_prior)
        costs[mask] = softmax_nll(S, q, y) + prior_cost[n_sel]


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
        _subset_scores(S, mask, codes, offsets, table, log_prior)
        if use_auc:
            values[mask] = multiclass_auc(y, S)
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
# Searches
# ---------------------------------------------------------------------------------------------
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


def _prior_costs(n_variables: int, n_candidates: int) -> np.ndarray:
    """l(M) of a selection of s = 0 … K variables (:func:`selection_prior_cost`, boulle2007 §3.3,
    K = ``n_variables``) at index s, then +∞ for s = K+1 … ``n_candidates``."""
    prior_cost = np.asarray(selection_prior_cost(n_variables, np.arange(n_variables + 1)))
    return np.concatenate([prior_cost, np.full(max(0, n_candidates - n_variables), np.inf)])


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
    n_threads: int = 1,
) -> SearchResult:
    """MS(FFWBW), Algorithm 1 of boulle2007 §3.5: minimise criterion (4).

    Each of the ``n_starts`` starts (default ⌊log2(K·N)⌋) begins with the empty set and repeats
    a fast forward pass (candidates in a fresh random order, each added as soon as it lowers the
    cost) and a fast backward pass (fresh random order, each selected variable removed as soon
    as that lowers the cost) until an iteration brings no improvement or ``max_iter`` iterations
    were done; the best subset over the starts is kept. Every evaluation is O(N·J), a pass
    O(K·N·J), so the search is O(K·N·J·log(K·N)).

    ``n_variables`` is the K of the prior (see the module docstring). With ``record``, the
    evaluated models are kept in a :class:`SearchLog` (for model averaging). ``n_threads`` > 1
    evaluates the candidates of a pass on up to that many threads (:func:`_ffwbw_pass`; each
    pass on as many as other processes leave free, :func:`repro.runtime.cores.kernel_threads`), with
    the same result as one thread. ``info["search_threads"]``: the mean threads of the passes.
    """
    d = engine.data
    n_cand = d.n_candidates
    rng = np.random.default_rng(random_state)
    if n_starts is None:
        n_starts = default_n_starts(n_variables, d.n_instances)
    prior_cost = _prior_costs(n_variables, n_cand)
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
    n_threads = min(max(1, int(n_threads)), numba.config.NUMBA_NUM_THREADS)
    pass_threads = []

    def run_pass(*args):  # on the threads the load leaves, the caller's thread count kept
        threads = kernel_threads(n_threads)
        pass_threads.append(threads)
        if threads == 1:
            return _ffwbw_pass(*args, 1, 1)
        with numba_threads(threads):
            return _ffwbw_pass(*args, threads, PARALLEL_CHUNK * threads)

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
                nll, n_sel, n_rec, n_moves, step_improved = run_pass(
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
    info = {
        "n_starts": n_starts,
        "iterations": n_iterations,
        "n_evaluations": n_evaluations,
        "search_threads": float(np.mean(pass_threads)) if pass_threads else 1.0,
    }
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
    prior_cost = _prior_costs(n_variables, n_cand)
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


def averaged_weights(models, model_weights: np.ndarray) -> np.ndarray:
    """Variable weights w_k = Σ_m a_mk π_m / Σ_m π_m ∈ [0, 1] of the recorded models
    (boulle2007 eq. 7); all 0 when no model has a positive weight."""
    total = float(model_weights.sum())
    if not total > 0:
        return np.zeros(models.n_candidates)
    return np.clip(models.credit(model_weights) / total, 0.0, 1.0)
