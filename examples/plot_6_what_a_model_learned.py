"""
What a model learned: partitions, weights and Shapley importances
=================================================================

Every weighted naive Bayes of ``repro`` can say what it learned: :meth:`summary` gives one row
per input variable — its kind, its partition (the intervals of its discretization or the groups
of its values), its MODL level, its weight, whether it is selected, and its *importance*, the
mean absolute Shapley value of the variable on the training rows.

The score of a naive Bayes is a sum of one term per variable, so its Shapley values are exact
and cheap: the contribution of variable k to the log-odds of a row is its term minus the term's
mean over the training rows, and the contributions add up to the row's log-odds minus their
mean (:meth:`shapley_values`).
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import train_test_split

import repro

ds = repro.load_dataset("breast_cancer")
X_train, X_test, y_train, y_test = train_test_split(
    ds.X, ds.y, test_size=0.3, stratify=ds.y, random_state=0
)
model = repro.make_method("snb_cma").fit(X_train, y_train)
summary = model.summary(X_test)  # importance on the training rows, and on the held-out ones
summary.head(8)

# %%
# The partition of the most important variable, as MODL discretized it:

top = summary.iloc[0]
print(f"most important: {top['variable']} ({top['n_parts']} intervals: {top['partition']})")

# %%
# The Shapley values of one held-out row add up to its log-odds minus their mean over the
# training rows:

phi = model.shapley_values(X_test.iloc[:1])[0]
log_proba = model.predict_log_proba(X_test.iloc[:1])[0]
train_log_proba = model.predict_log_proba(X_train)
mean_log_odds = float(np.mean(train_log_proba[:, 1] - train_log_proba[:, 0]))
print(f"sum of the Shapley values {phi.sum():.6f}")
print(f"log-odds minus their training mean {log_proba[1] - log_proba[0] - mean_log_odds:.6f}")

# %%
# Importances of the ten most important variables, on the training and the held-out rows.

shown = summary.head(10).iloc[::-1]
fig, ax = plt.subplots(figsize=(6, 4))
y = np.arange(len(shown))
ax.barh(y - 0.2, shown["importance"], height=0.4, label="training rows")
ax.barh(y + 0.2, shown["importance_on_data"], height=0.4, label="held-out rows")
ax.set_yticks(y, shown["variable"])
ax.set_xlabel("mean |Shapley value| (log-odds)")
ax.legend()
fig.tight_layout()
