"""scikit-learn's estimator checks over every implemented method of the registry.

Discovered from the registry rather than listed, so a new method is checked as soon as its config
file exists. Checks a method cannot pass are listed in its class attribute
``_expected_failed_checks`` (a dict check name → reason), shown here in the test ids.
"""

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from repro.registry import implemented_methods, make_method

#: methods that need an external program, checked elsewhere
EXTERNAL = {"khiops"}  # starts the Khiops process at every fit: tested in test_khiops_oracle.py


#: cheap settings for the checks (the checks test the interface, not the tuning grid)
CHEAP = {
    "lr_tuned": {"grid": {"C": [0.1, 1.0]}, "inner_cv": 2},
    "svm_tuned": {"grid": {"C": [0.1, 1.0]}, "inner_cv": 2},
    "bma_nb_tuned": {"grid": {"gamma": [0.5, 1.0]}, "inner_cv": 2},
}


def _estimators():
    return [make_method(m, **CHEAP.get(m, {})) for m in implemented_methods() if m not in EXTERNAL]


def _expected_failures(estimator):
    return getattr(estimator, "_expected_failed_checks", {})


@parametrize_with_checks(_estimators(), expected_failed_checks=_expected_failures)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_registry_has_the_baselines():
    assert {"nb_gaussian", "nb_ef", "nb_ewb10", "nb_laplace", "lr", "svm"} <= set(
        implemented_methods()
    )
    with pytest.raises(ValueError, match="Unknown method 'nb_gausian'.*nb_gaussian"):
        make_method("nb_gausian")
