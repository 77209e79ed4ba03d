"""
A Bayesian comparison of two classifiers over data sets
=======================================================

Instead of a p-value, the Bayesian signed-rank test (Benavoli et al. 2017, JMLR 18(77);
computed by ``baycomp``) gives three posterior probabilities: A better, B better, or both
*practically equivalent* — their difference within a region of practical equivalence (ROPE)
in the units of the metric, here 0.01 of accuracy (one point). It is what
``python -m repro.report compare results=results/boulle2007_table3 metric=accuracy
test=bayesian rope=0.01`` prints; here it is done in Python on the committed records of
Boullé (2007) Table 3 (25 data sets, 10-fold CV), with :mod:`repro.stats`.
"""

# %%
from pathlib import Path

import matplotlib.pyplot as plt

import repro
from repro.evaluation.records import read_records
from repro.registry import display_name
from repro.stats import compare_to_reference, metric_table, signed_rank, simplex_figure


def repo_root() -> Path:
    """The checkout, looking up from the working directory, then from the installed package."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents, *Path(repro.__file__).resolve().parents):
        if (folder / "pyproject.toml").is_file() and (folder / "results").is_dir():
            return folder
    raise FileNotFoundError("no repro checkout found")


records = read_records(repo_root() / "results" / "boulle2007_table3")
accuracy = metric_table(records, "accuracy")  # data sets x methods: mean test accuracy
print(accuracy.shape[0], "data sets;", "methods:", ", ".join(map(display_name, accuracy.columns)))

# %%
# One pair: SNB(CMA) against the naive Bayes over all variables, NB. The scores are paired by
# data set (one mean per data set); ``seed`` makes the Monte Carlo sampling of the posterior
# reproducible, and 10 000 samples (the command line draws 50 000) keep this example quick.

result = signed_rank(accuracy["snb_cma"], accuracy["nb"], rope=0.01, seed=0, nsamples=10_000)
print(
    f"P(SNB(CMA) better) = {result.p_left:.3f}, P(equivalent) = {result.p_rope:.3f}, "
    f"P(NB better) = {result.p_right:.3f}"
)

# %%
# The posterior samples in the simplex: each point is one draw of the three probabilities;
# the corner a cloud sits in is the verdict.

fig = simplex_figure(
    accuracy["snb_cma"], accuracy["nb"], 0.01, names=("SNB(CMA)", "NB"), seed=0, nsamples=10_000
)
plt.show()

# %%
# SNB(CMA) against every other method of the table, as the report's Bayesian comparison does
# (``reference=`` chooses the method; an experiment's report names it in its config). The
# averaged SNB(CMA) is practically equivalent to the other selective models more often than it
# is better, and no method is better than it by more than the ROPE.

comparison = compare_to_reference(accuracy, "snb_cma", rope=0.01, seed=0, nsamples=10_000)
comparison.assign(method=comparison["method"].map(display_name)).round(3)
