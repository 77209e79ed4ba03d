"""
A parameter sweep on the command line, read back with ``read_records``
======================================================================

``python -m repro -m`` sweeps over comma-separated values of any key: here the number of
equal-frequency bins of the naive Bayes NB(EF) of Boullé (2007) on two data sets, under
stratified 10-fold cross-validation. Each cell (method configuration × data set) is one Parquet
file; a configuration other than the method's defaults is named in the file
(``nb_ef__n_bins=3.parquet``). The records are read back with
:func:`repro.evaluation.records.read_records`, and
:func:`repro.stats.configurations.configuration_labels` labels the configurations apart (they
are never averaged together). Everything goes to a temporary folder.
"""

# %%
import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt

from repro.evaluation.records import read_records
from repro.stats.configurations import configuration_labels

scratch = tempfile.TemporaryDirectory(prefix="repro_sweep_")
results = Path(scratch.name) / "results"
command = [
    sys.executable, "-m", "repro", "-m",
    "method=nb_ef", "method.n_bins=3,5,10,20", "dataset=iris,wine",
    f"results_dir={results}", "progress=false",
]  # fmt: skip
print("$", " ".join(command[1:]))
run = subprocess.run(command, cwd=scratch.name, capture_output=True, text=True, check=True)
print(run.stdout.strip().splitlines()[-1])
sorted(str(p.relative_to(results)) for p in results.rglob("*.parquet"))

# %%
# The records: one row per fold, split and metric, with the method's parameters as ``p_``
# columns. The test accuracy per configuration and data set, mean over the ten folds:

records = read_records(results)
records["configuration"] = configuration_labels(records)
test = records.query("split == 'test' and metric == 'accuracy'")
accuracy = test.pivot_table(index="p_n_bins", columns="dataset", values="value", aggfunc="mean")
print(sorted(test["configuration"].unique()))
accuracy.round(3)

# %%

fig, ax = plt.subplots(figsize=(5, 3.5))
for dataset in accuracy.columns:
    ax.plot(accuracy.index, accuracy[dataset], marker="o", label=dataset)
ax.set(xscale="log", xlabel="n_bins (equal-frequency)", ylabel="test accuracy (10-fold CV)")
ax.set_xticks(accuracy.index, [str(b) for b in accuracy.index])
ax.legend()
fig.tight_layout()

# %%
# The same folder is what ``python -m repro.report compare results=DIR metric=accuracy``
# compares: each configuration is a column of its own. The temporary folder is removed here.

scratch.cleanup()
