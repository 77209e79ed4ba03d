"""
A selective naive Bayes in a scikit-learn Pipeline and GridSearchCV
===================================================================

Every method of the registry is a scikit-learn classifier: ``repro.make_method(id)`` returns
an unfitted estimator that clones, takes ``set_params`` and fits inside a
:class:`~sklearn.pipeline.Pipeline` like any other. Here a univariate filter keeps the ``k``
best variables, then a selective naive Bayes of Boullé (2007) weights them; an inner 3-fold
grid search chooses both ``k`` and the method — SNB(MAP), the single most probable selection,
or SNB(CMA), the compression-weighted average of the selections its search visited.
"""

# %%
import pandas as pd
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.pipeline import Pipeline

import repro

ds = repro.load_dataset("breast_cancer")  # 569 rows, 30 numeric variables, 2 classes
X_train, X_test, y_train, y_test = train_test_split(
    ds.X, ds.y, test_size=0.3, stratify=ds.y, random_state=0
)

pipeline = Pipeline([("filter", SelectKBest(f_classif)), ("snb", repro.make_method("snb_cma"))])
grid = {
    "filter__k": [5, 15, "all"],
    "snb": [repro.make_method("snb_map"), repro.make_method("snb_cma")],
}
search = GridSearchCV(
    pipeline, grid, cv=StratifiedKFold(3, shuffle=True, random_state=0), scoring="roc_auc"
)
search.fit(X_train, y_train)

results = pd.DataFrame(search.cv_results_)
results["method"] = [type(est).__name__ for est in results["param_snb"]]
results[["param_filter__k", "method", "mean_test_score", "rank_test_score"]].rename(
    columns={"param_filter__k": "k", "mean_test_score": "inner-CV AUC", "rank_test_score": "rank"}
)

# %%
# The best pipeline, refitted on all the training rows, on the held-out 30 %; then the weights
# its naive Bayes gives the variables the filter kept (0: left out by the selection; between 0
# and 1: the share of averaged models that use the variable).

best = search.best_estimator_
print("best:", search.best_params_["filter__k"], type(best["snb"]).__name__)
print(f"held-out accuracy {best.score(X_test, y_test):.3f}")
kept = best["filter"].get_feature_names_out()
pd.Series(best["snb"].weights_, index=kept, name="weight").sort_values(ascending=False).round(3)
