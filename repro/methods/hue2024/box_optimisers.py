"""First-order optimisers on the box [0, U]^K (hue2024 §3.2, after Nesterov 2004, 2013, 2015).

Pure: an optimiser knows no estimator and no data, only callables. ``fun(w)`` returns (value,
gradient) of a smooth part f, ``value(w)`` its value alone (the line searches' cheaper call).
The composite methods also take a separable penalty ψ(w) = Σ_k ψ_k(w_k) as ``penalty(w)`` →
(value, gradient) and, for CF, its exact proximal map ``prox(v, L)`` = argmin_{u ∈ box}
(L/2)‖u − v‖² + ψ(u). Every method returns an :class:`OptimisationTrace`.

Stopping rule, the same for all (hue2024 §3.2.1: "related to the small norm of the
displacement"): stop when an accepted step moves no weight by more than ``epsilon``
(‖w_{t+1} − w_t‖_∞ < ε, ε = 0.01 in the paper) or after ``max_iter`` iterations.

- :func:`projected_gradient` — SG: gradient mapping w⁺ = Π(w − ∇f(w)/L) with backtracking on the
  Lipschitz estimate L (doubled until f(w⁺) ≤ f(w) + ⟨∇f, w⁺ − w⟩ + L/2‖w⁺ − w‖², halved after
  each accepted step); with ``freeze_zeros`` a weight that reaches 0 stays 0 (one-stage SG, §3.2.1).
- :func:`composite_gradient` — CF: the same step on f with ψ kept exact through its prox
  (Nesterov 2013); monotone on f + ψ.
- :func:`upper_estimator_gradient` — UE: ψ concave is replaced by its tangent at w_t (an upper
  estimator), then a projected gradient step with backtracking on f; monotone on f + ψ.
- :func:`universal_gradient` — UG: Nesterov's (2015) universal fast gradient method, with the
  inexact line search f(y) ≤ f(x) + ⟨∇f(x), y − x⟩ + M/2‖y − x‖² + ε_acc·τ/2.
- :func:`conditional_gradient` — CG: Frank–Wolfe on the box (vertex s_k = U_k·1[∇_k f < 0]) with
  the adaptive short step γ = min(1, ⟨∇f, w − s⟩/(L‖s − w‖²)) and backtracking on L.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

#: largest Lipschitz estimate tried before a line search gives up (the step is then ~0)
MAX_LIPSCHITZ = 1e30


@dataclass
class OptimisationTrace:
    """Final point and value of a box optimiser, and one row per iteration.

    ``rows``: dicts with ``iteration``, ``value`` (the objective the method minimises),
    ``n_nonzero`` (weights > 0), ``time`` (seconds since the start), ``lipschitz``.
    ``converged`` is False when ``max_iter`` stopped the method.
    """

    weights: np.ndarray
    value: float
    n_iterations: int
    converged: bool
    n_evaluations: int = 0
    rows: list[dict] = field(default_factory=list)


class _Counter:
    """Wraps ``fun``/``value`` to count the evaluations (for the benchmarks)."""

    def __init__(self, fun, value):
        self.n = 0
        self._fun, self._value = fun, value

    def fun(self, w):
        self.n += 1
        return self._fun(w)

    def value(self, w):
        self.n += 1
        return self._value(w)


def _row(iteration, value, w, start, lipschitz):
    return {
        "iteration": iteration,
        "value": float(value),
        "n_nonzero": int(np.count_nonzero(w)),
        "time": time.perf_counter() - start,
        "lipschitz": float(lipschitz),
    }


def _check_start(w0, upper):
    w = np.clip(np.asarray(w0, dtype=np.float64), 0.0, upper)
    return w, np.broadcast_to(np.asarray(upper, dtype=np.float64), w.shape).copy()


def _descend(step, w, value, count, start, lipschitz, epsilon, max_iter) -> OptimisationTrace:
    """The outer loop of SG, CF, UE, UG and CG, with the stopping rule of the module docstring.

    ``step(w, L)`` takes one accepted step from ``w`` with the Lipschitz estimate L (its line
    search doubles L) and returns (new point, objective there, accepted L, ‖Δw‖_∞), or None when
    ``w`` is optimal (CG's zero gap); ``value`` is the objective at the start. L is halved after
    each step (Nesterov's adaptive estimate); the method's value is the last row's.
    """
    L = float(lipschitz)
    rows = [_row(0, value, w, start, L)]
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        accepted = step(w, L)
        if accepted is None:
            converged = True
            break
        w, value, L, moved = accepted
        rows.append(_row(it, value, w, start, L))
        L = max(L / 2.0, 1e-12)
        if moved < epsilon:
            converged = True
            break
    return OptimisationTrace(w, rows[-1]["value"], it, converged, count.n, rows)


def _gradient_descent(
    fun: Callable,
    value: Callable,
    w0,
    step: Callable,
    epsilon: float,
    max_iter: int,
    lipschitz: float,
    upper,
    freeze_zeros: bool,
    penalty: Callable | None,
) -> OptimisationTrace:
    """The step shared by SG, CF and UE: ``step(w, g, L, upper)`` gives the candidate point;
    L doubles until the quadratic upper model of f holds at it (Nesterov's adaptive gradient
    mapping, :func:`_descend`). The objective is f (+ ψ when given)."""
    count = _Counter(fun, value)
    start = time.perf_counter()
    w, upper = _check_start(w0, upper)

    def total(f_value, point):
        return f_value + (penalty(point)[0] if penalty is not None else 0.0)

    f, g = count.fun(w)

    def gradient_step(w, L):
        nonlocal f, g
        if freeze_zeros:
            upper[w <= 0.0] = 0.0
        while True:
            w_new = step(w, g, L, upper)
            d = w_new - w
            f_new = count.value(w_new)
            if f_new <= f + float(g @ d) + 0.5 * L * float(d @ d) or L > MAX_LIPSCHITZ:
                break
            L *= 2.0
        moved = float(np.max(np.abs(d))) if d.size else 0.0
        f, g = count.fun(w_new)
        return w_new, total(f, w_new), L, moved

    return _descend(gradient_step, w, total(f, w), count, start, lipschitz, epsilon, max_iter)


def projected_gradient(
    fun, value, w0, epsilon=0.01, max_iter=500, lipschitz=1.0, upper=1.0, freeze_zeros=False
) -> OptimisationTrace:
    """SG: projected gradient mapping with backtracking on L (Nesterov 2004 §2.2.3).

    w_{t+1} = Π_[0,U](w_t − ∇f(w_t)/L_t), L_t doubled until f(w_{t+1}) ≤ f(w_t) +
    ⟨∇f(w_t), w_{t+1} − w_t⟩ + (L_t/2)‖w_{t+1} − w_t‖², then L_{t+1} = L_t/2. Monotone in f.
    ``freeze_zeros``: a weight that reaches 0 is fixed at 0 (hue2024 §3.2.1, one-stage methods).
    """

    def step(w, g, L, upper):
        return np.clip(w - g / L, 0.0, upper)

    return _gradient_descent(
        fun, value, w0, step, epsilon, max_iter, lipschitz, upper, freeze_zeros, None
    )


def composite_gradient(
    fun, value, penalty, prox, w0, epsilon=0.01, max_iter=500, lipschitz=1.0, upper=1.0
) -> OptimisationTrace:
    """CF: composite gradient mapping for f + ψ, ψ separable (Nesterov 2013, hue2024 §3.2.2 B(b)).

    w_{t+1} = argmin_{u ∈ [0,U]} ⟨∇f(w_t), u − w_t⟩ + (L/2)‖u − w_t‖² + ψ(u)
            = prox(w_t − ∇f(w_t)/L, L),
    L by backtracking on the upper model of f. Since w_{t+1} minimises the model plus ψ, and the
    model bounds f above, f + ψ never increases (also for a concave ψ, solved exactly).
    ``prox(v, L, upper)`` is the exact minimiser
    (:func:`~repro.methods.hue2024.wnb_opt_criterion.xi_delta_prox`).
    """

    def step(w, g, L, upper):
        return prox(w - g / L, L, upper)

    return _gradient_descent(
        fun, value, w0, step, epsilon, max_iter, lipschitz, upper, False, penalty
    )


def upper_estimator_gradient(
    fun, value, penalty, w0, epsilon=0.01, max_iter=500, lipschitz=1.0, upper=1.0
) -> OptimisationTrace:
    """UE: gradient method with an upper estimator of the concave ψ (hue2024 §3.2.2 B(a)).

    ψ(u) ≤ ψ(w_t) + ⟨∇ψ(w_t), u − w_t⟩ (ψ concave), so each step minimises the quadratic upper
    model of f plus that tangent: w_{t+1} = Π(w_t − (∇f(w_t) + ∇ψ(w_t))/L), L by backtracking on
    f. f + ψ never increases (majorise–minimise).
    """

    tangent = {}

    def step(w, g, L, upper):
        if tangent.get("at") is not w:  # one tangent per iteration, reused by the line search
            tangent.update(at=w, slope=penalty(w)[1])
        return np.clip(w - (g + tangent["slope"]) / L, 0.0, upper)

    return _gradient_descent(
        fun, value, w0, step, epsilon, max_iter, lipschitz, upper, False, penalty
    )


def universal_gradient(
    fun, value, w0, accuracy, epsilon=0.01, max_iter=500, lipschitz=1.0, upper=1.0
) -> OptimisationTrace:
    """UG: Nesterov's universal fast gradient method (Math. Program. 152, 2015, §4, FGM).

    φ₀(x) = ½‖x − x₀‖², A₀ = 0, y₀ = x₀. At step k: v_k = argmin_box φ_k = Π(x₀ − Σ_i a_i∇f(x_i));
    find the smallest M = 2^i M_k with a from M a² = A_k + a, τ = a/(A_k + a),
    x = τ v_k + (1 − τ) y_k, x̂ = Π(v_k − a∇f(x)), y = τ x̂ + (1 − τ) y_k such that

        f(y) ≤ f(x) + ⟨∇f(x), y − x⟩ + (M/2)‖y − x‖² + ``accuracy``·τ/2,

    then M_{k+1} = M/2, A_{k+1} = A_k + a, y_{k+1} = y. Not monotone; the iterate y is returned.
    ``accuracy`` is the absolute ε of the method (the estimator passes ε·|f(w₀)|: a start far
    above the optimum loosens the line search, hue2024 §4.2's sensitivity to initialisation).
    """
    count = _Counter(fun, value)
    start = time.perf_counter()
    x0, upper = _check_start(w0, upper)
    grad_sum = np.zeros_like(x0)
    A = 0.0

    def fast_step(y, M):
        nonlocal grad_sum, A
        v = np.clip(x0 - grad_sum, 0.0, upper)
        while True:
            a = (1.0 + np.sqrt(1.0 + 4.0 * M * A)) / (2.0 * M)
            tau = a / (A + a)
            x = tau * v + (1.0 - tau) * y
            f_x, g_x = count.fun(x)
            x_hat = np.clip(v - a * g_x, 0.0, upper)
            y_new = tau * x_hat + (1.0 - tau) * y
            d = y_new - x
            f_new = count.value(y_new)
            model = f_x + float(g_x @ d) + 0.5 * M * float(d @ d) + 0.5 * accuracy * tau
            if f_new <= model or M > MAX_LIPSCHITZ:
                break
            M *= 2.0
        moved = float(np.max(np.abs(y_new - y))) if y.size else 0.0
        grad_sum += a * g_x
        A += a
        return y_new, f_new, M, moved

    y = x0.copy()
    return _descend(fast_step, y, count.value(y), count, start, lipschitz, epsilon, max_iter)


def conditional_gradient(
    fun, value, w0, epsilon=0.01, max_iter=500, lipschitz=1.0, upper=1.0
) -> OptimisationTrace:
    """CG: Frank–Wolfe on the box with the adaptive short step (Nesterov 2018; Pedregosa 2020).

    s = argmin_{s ∈ box} ⟨∇f(w), s⟩ (s_k = U_k if ∇_k f < 0 else 0), d = s − w,
    gap = −⟨∇f(w), d⟩ ≥ 0, γ = min(1, gap/(L‖d‖²)) with L doubled until
    f(w + γd) ≤ f(w) − γ gap + (L/2)γ²‖d‖², then halved. Monotone; stops when the step moves no
    weight by more than ε or the gap is 0.
    """
    count = _Counter(fun, value)
    start = time.perf_counter()
    w, upper = _check_start(w0, upper)
    f, g = count.fun(w)

    def frank_wolfe_step(w, L):
        nonlocal f, g
        s = np.where(g < 0, upper, 0.0)
        d = s - w
        gap = -float(g @ d)
        dd = float(d @ d)
        if gap <= 0.0 or dd == 0.0:
            return None
        while True:
            gamma = min(1.0, gap / (L * dd))
            w_new = w + gamma * d
            f_new = count.value(w_new)
            if f_new <= f - gamma * gap + 0.5 * L * gamma**2 * dd or L > MAX_LIPSCHITZ:
                break
            L *= 2.0
        moved = gamma * float(np.max(np.abs(d)))
        f, g = count.fun(w_new)
        return w_new, f, L, moved

    return _descend(frank_wolfe_step, w, f, count, start, lipschitz, epsilon, max_iter)


def alternating_minimisation(
    stage_problem: Callable,
    total_of: Callable,
    w0,
    epsilon=0.01,
    max_iter=500,
    max_rounds=50,
    lipschitz=1.0,
    upper=1.0,
) -> OptimisationTrace:
    """AM: alternate between the weights and the coupling term (hue2024 §3.2.1 (b)).

    The non-convexity of f_C couples ⟨ē, w⟩ and ξ(w). AM fixes W = ``total_of(w)``, which makes
    the penalty separable, minimises the resulting problem over w (``stage_problem(W)`` returns
    (fun, value, penalty, prox) as :func:`composite_gradient` takes them, solved by it from the
    current point; weights at 0 at the end of a round stay 0, one-stage), then updates W; it stops
    when W moves by less than ε·max(1, W) or after ``max_rounds`` rounds. The returned value is
    the last stage objective; rows carry the round number.
    """
    start = time.perf_counter()
    w, upper = _check_start(w0, upper)
    rows: list[dict] = []
    total = float(total_of(w))
    n_iter = n_eval = 0
    converged = False
    result = None
    for rnd in range(1, max_rounds + 1):
        upper = np.where(w <= 0.0, 0.0, upper)
        fun, value, penalty, prox = stage_problem(total)
        result = composite_gradient(
            fun, value, penalty, prox, w, epsilon, max_iter, lipschitz, upper
        )
        w = result.weights
        n_iter += result.n_iterations
        n_eval += result.n_evaluations
        for r in result.rows[1:]:
            rows.append({**r, "round": rnd, "time": time.perf_counter() - start})
        new_total = float(total_of(w))
        moved = abs(new_total - total)
        total = new_total
        if moved < epsilon * max(1.0, total):
            converged = True
            break
    value = result.value if result is not None else float("nan")
    return OptimisationTrace(w, value, n_iter, converged, n_eval, rows)
