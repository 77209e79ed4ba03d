"""vidaurre2012 Figures 3 and 4, the error of naive Bayes over the (α2, α3) grid with X1 in the
model (discrete and continuous predictors), and their REPRODUCTION.md, from stored records
(never refits).

Called by ``python -m repro.report experiment=vidaurre2012_fig3`` and ``…_fig4``; each writes
``figN.png``, ``figN.pdf``, ``figN.csv`` (the surfaces) and ``REPRODUCTION.md`` into the report's
folder. The records are those of :mod:`repro.experiments.vidaurre2012`. How the paper's
observations are compared with ours: :mod:`.vidaurre2012_common`.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from repro.report.papers.vidaurre2012.figures_common import (  # noqa: E402
    COMPARED,
    PAPER,
    claims_section,
    format_test,
    paired_test,
    require_column,
    sizes,
    values_of,
    write_figure,
)


def grid_tables(records: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(surfaces, per-repetition test errors): ``surfaces`` has one row per (panel, α2, α3) with
    the mean test and training error over repetitions and the population surface (NaN when
    absent); the second is the test error per (panel, repetition, α2, α3)."""
    require_column(records, "alpha2", "fig3/fig4")
    err = records[(records["metric"] == "error") & records["split"].isin(["test", "train"])]
    keys = ["panel", "alpha2", "alpha3"]
    mean = err.pivot_table(index=keys, columns="split", values="value", aggfunc="mean")
    mean = mean.rename(columns={"test": "test_error", "train": "train_error"}).reset_index()
    tie = records.dropna(subset=["tie"]).groupby("panel")["tie"].first()
    mean["tie"] = mean["panel"].map(tie)
    pop = records[records["split"] == "artefact"]
    if len(pop):
        columns = keys + ["value"] + (["n_population"] if "n_population" in pop else [])
        pop = pop[columns].rename(columns={"value": "population_error"})
        mean = mean.merge(pop, on=keys, how="left")
    else:
        mean["population_error"] = np.nan
    per_rep = err[err["split"] == "test"][["panel", "repetition", "alpha2", "alpha3", "value"]]
    return mean, per_rep


def _surface(sub: pd.DataFrame, column: str) -> tuple[np.ndarray, np.ndarray]:
    values = np.sort(sub["alpha2"].unique())
    grid = sub.pivot_table(index="alpha3", columns="alpha2", values=column).loc[values, values]
    return values, grid.to_numpy()


def _minimal(sub: pd.DataFrame, column: str, tol: float = 1e-12) -> pd.DataFrame:
    return sub[sub[column] <= sub[column].min() + tol]


def _sample_noise(sub: pd.DataFrame, at_corner: float, minimum: float) -> str:
    """How (1, 1) − minimum of a large-sample surface compares with its sampling noise."""
    n = int(sub["n_population"].max()) if "n_population" in sub else 0
    if n <= 0:
        return ""
    se = np.sqrt(at_corner * (1 - at_corner) / n)
    return (
        f" (1, 1) − minimum = {at_corner - minimum:.4f}; one error measured on {n} instances has "
        f"a binomial s.e. ≈ {se:.4f} (a difference on the same instances, less)."
    )


def _grid_numbers(surfaces, per_rep, records, continuous: bool) -> list[str]:
    out = []
    nb = values_of(records, "test", "nb_error")
    for panel in sorted(set(surfaces["panel"])):
        sub = surfaces[surfaces["panel"] == panel]
        tie = float(sub["tie"].iloc[0])
        best = sub.loc[sub["test_error"].idxmin()]
        corner = sub[(sub["alpha2"] == 1.0) & (sub["alpha3"] == 1.0)].iloc[0]
        origin = sub[(sub["alpha2"] == 0) & (sub["alpha3"] == 0)]["test_error"].iloc[0]
        reps = per_rep[per_rep["panel"] == panel]
        wide = reps.pivot_table(index="repetition", columns=["alpha2", "alpha3"], values="value")
        t = paired_test(wide[(1.0, 1.0)], wide[(best["alpha2"], best["alpha3"])])
        nb_p = nb[nb["panel"] == panel].set_index("repetition")["value"]
        same = bool(np.allclose(nb_p.sort_index(), wide[(1.0, 1.0)].sort_index()))
        text = [
            f"- Panel {panel} (x3 = x2 on a proportion {tie:g} of the instances). Mean test "
            f"error: minimum {best['test_error']:.4f} at (α2, α3) = "
            f"({best['alpha2']:.2f}, {best['alpha3']:.2f}); at (1, 1) {corner['test_error']:.4f}; "
            f"at (0, 0) {origin:.4f}. (1, 1) − minimum, paired over repetitions: "
            f"{format_test(t)} (the minimum is picked on the same repetitions, so this favours "
            "it).",
        ]
        if sub["population_error"].notna().any():
            label = "large-sample" if continuous else "exact (true distribution)"
            pmin = _minimal(sub, "population_error", 1e-9 if not continuous else 0.0)
            pc = float(corner["population_error"])
            pmin_value = float(pmin["population_error"].iloc[0])
            inner = pmin[(pmin["alpha2"] > 0) & (pmin["alpha2"] < 1) & (pmin["alpha3"] > 0)
                         & (pmin["alpha3"] < 1)]  # fmt: skip
            text.append(
                f"  {label.capitalize()} surface: minimum {pmin['population_error'].iloc[0]:.4f} "
                f"on {len(pmin)} grid point(s) ({len(inner)} interior; α2 in "
                f"[{pmin['alpha2'].min():.2f}, {pmin['alpha2'].max():.2f}], α3 in "
                f"[{pmin['alpha3'].min():.2f}, {pmin['alpha3'].max():.2f}]); at (1, 1) {pc:.4f}"
                f" ({'a minimum' if pc <= pmin_value + 1e-9 else 'not a minimum'})."
                + (_sample_noise(sub, pc, pmin_value) if continuous else "")
                + (
                    " The surface is piecewise constant (27 configurations): the minimum is a "
                    "plateau, and (1, 1) is one of its points, not the only one."
                    if not continuous and len(pmin) > 1 and pc <= pmin_value + 1e-9
                    else ""
                )
            )
        text.append(
            f"  Consistency: the grid's error at (1, 1) equals NB's (`predict`) test error in "
            f"every repetition: {'yes' if same else 'NO'}."
        )
        out += text
    return out


def _grid_figure(records, out_dir, name: str, continuous: bool, report_cfg=None) -> list[Path]:
    surfaces, per_rep = grid_tables(records)
    panels = sorted(set(surfaces["panel"]))
    has_pop = surfaces["population_error"].notna().any()
    rows = 2 if has_pop else 1
    fig, axes = plt.subplots(rows, len(panels), figsize=(5.0 * len(panels), 4.3 * rows),
                             squeeze=False)  # fmt: skip
    reps = per_rep["repetition"].nunique()
    pop_label = "large-sample surface" if continuous else "exact surface (true distribution)"
    for c, panel in enumerate(panels):
        sub = surfaces[surfaces["panel"] == panel]
        tie = float(sub["tie"].iloc[0])
        columns = [("test_error", f"mean test error ({reps} repetitions)")]
        if has_pop:
            columns.append(("population_error", pop_label))
        for r, (column, title) in enumerate(columns):
            ax = axes[r, c]
            values, z = _surface(sub, column)
            step = values[1] - values[0] if values.size > 1 else 1.0
            extent = (-step / 2, 1 + step / 2, -step / 2, 1 + step / 2)
            low = float(np.nanmin(z))
            top = max(float(np.nanquantile(z, 0.9)), low + 1e-6)  # the rest saturates
            im = ax.imshow(z, origin="lower", extent=extent, cmap="viridis", aspect="equal",
                           vmin=low, vmax=top)  # fmt: skip
            fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="error", extend="max")
            best = _minimal(sub, column, 1e-9)
            ax.plot(best["alpha2"], best["alpha3"], "w.", ms=4, label="minimum")
            ax.plot([1], [1], "o", mfc="none", mec="red", ms=10, label="(1, 1): NB")
            ax.set_xlabel("α2")
            ax.set_ylabel("α3")
            ax.set_title(f"({panel}) x3 = x2 on {tie:g} of instances\n{title}", fontsize=9)
            if r == 0 and c == 0:
                ax.legend(fontsize=7, loc="lower left")
    number = name[-1]
    world = "continuous predictors" if continuous else "discrete predictors"
    fig.suptitle(f"{PAPER} Fig. {number} (compared), {world}, α1 = 1", fontsize=10)
    text = _grid_text(records, surfaces, per_rep, name, continuous, report_cfg)
    return write_figure(out_dir, name, text, surfaces, fig)


def _grid_text(records, surfaces, per_rep, name, continuous, report_cfg=None) -> str:
    if continuous:
        shows = (
            "**What the paper's figure shows.** Fig. 4: \"the same scenario for continuous "
            'predictors" as Fig. 3 — the test error over the (α2, α3) grid, (a) X2 and X3 '
            'independent, (b) somewhat redundant; "although the effect is less obvious than in '
            'the discrete case, the conclusion is analogous". The paper gives no parameters for '
            "this world."
        )
        world = (
            "the Gaussian twin `vidaurre_toy_continuous` (X1 ~ N(δ1·[y = 0], 1), X2, X3 ~ "
            "N(±δ for classes 1, 2, 0 for class 0, 1), δ1 ≈ 1.246, δ ≈ 0.681: each predictor "
            "alone has its eq. (12) Bayes error), Gaussian NB with interpolated means and "
            "standard deviations; the large-sample surface is NB fitted and tested on "
            f"{int(records['n_population'].dropna().max()) if 'n_population' in records else 0}"
            " fresh instances each"
        )
    else:
        shows = (
            "**What the paper's figure shows.** Fig. 3: the test error of NB with parameters "
            "Ω1(1), Ω2(α2), Ω3(α3) over a grid of α2, α3 ∈ [0, 1] (N = 1000, N_te = 3000, eq. "
            '(12)), (a) X2 and X3 not made redundant, (b) x_r2 = x_r3 set "for some proportion" '
            "of the instances. Its statements: when X2 and X3 are independent the minimum error "
            "is at α2 = α3 = 1; when they are dependent, with X1 in the model, the best model "
            "is somewhere in 0 < α2, α3 < 1."
        )
        world = (
            "the eq. (12) world, Laplace tables; the exact surface is the interpolated NB with "
            "the true parameters on the true distribution (enumeration of the 27 "
            "configurations; tied classes share an instance)"
        )
    lines = [
        f"# {PAPER}, Figure {name[-1]} — compared",
        "",
        COMPARED,
        "",
        shows,
        "",
        f"**What ours shows.** {sizes(records)}, {world}. The proportion of tied instances of "
        'panel b is ours (the paper: "some proportion"). Heat maps instead of the paper\'s '
        "surface plots; white dots: the grid points of minimal error, red circle: (1, 1) = NB.",
        "",
        "## The surfaces (ours)",
        "",
        *_grid_numbers(surfaces, per_rep, records, continuous),
        "",
        *claims_section(f"vidaurre2012_{name}", report_cfg),
    ]
    return "\n".join(lines)


def fig3(records, out_dir, report_cfg) -> list[Path]:
    """Figure 3: the (α2, α3) grid, discrete predictors (mean and exact surfaces)."""
    return _grid_figure(records, out_dir, "fig3", continuous=False, report_cfg=report_cfg)


def fig4(records, out_dir, report_cfg) -> list[Path]:
    """Figure 4: the (α2, α3) grid, continuous predictors (mean and large-sample surfaces)."""
    return _grid_figure(records, out_dir, "fig4", continuous=True, report_cfg=report_cfg)
