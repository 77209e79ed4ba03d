"""scikit-learn's estimator checks over every implemented method of the registry.

Discovered from the registry rather than listed, so a new method is checked as soon as its config
file exists. Checks a method cannot pass are listed in its class attribute
``_expected_failed_checks`` (a dict check name → reason), shown here in the test ids.

A method that runs an external program at every fit and predict (:data:`EXTERNAL`: ``khiops``,
≈ 2.4 s a fit and 1.2 s a predict) runs every check too, but only its cheap ones in the fast suite
(the checks that never fit, and one that does); the others are marked ``slow``
(``pytest -m slow tests/methods/test_estimator_checks.py``). Where the program is absent they are
skipped,
with the reason.
"""

import functools

import pytest
from conftest import cheap_method
from sklearn.utils.estimator_checks import estimator_checks_generator, parametrize_with_checks

from repro.methods.khiops.peer import khiops_missing
from repro.registry import implemented_methods, make_method

#: checks of the Khiops peer run in the fast suite: none starts Khiops but the last, one fit
KHIOPS_FAST = {
    "check_estimator_cloneable",
    "check_estimator_tags_renamed",
    "check_valid_tag_types",
    "check_estimator_repr",
    "check_no_attributes_set_in_init",
    "check_estimators_unfitted",
    "check_do_not_raise_errors_in_init_or_set_params",
    "check_mixin_order",
    "check_complex_data",
    "check_estimators_empty_data_messages",
    "check_estimator_sparse_tag",
    "check_estimator_sparse_array",
    "check_estimator_sparse_matrix",
    "check_classifiers_one_label",
    "check_classifiers_one_label_sample_weights",
    "check_estimators_partial_fit_n_features",
    "check_classifiers_regression_target",
    "check_supervised_y_no_nan",
    "check_non_transformer_estimators_n_iter",
    "check_decision_proba_consistency",
    "check_parameters_default_constructible",
    "check_fit2d_1sample",
    "check_get_params_invariance",
    "check_set_params",
    "check_fit1d",
    "check_requires_y_none",
    "check_fit_check_is_fitted",  # one Khiops fit
}

#: methods that need an external program: method → (its fast checks, why it cannot run here)
EXTERNAL = {"khiops": (KHIOPS_FAST, khiops_missing)}


def _estimators():
    return [cheap_method(m) for m in implemented_methods() if m not in EXTERNAL]


def _expected_failures(estimator):
    return getattr(estimator, "_expected_failed_checks", {})


@parametrize_with_checks(_estimators(), expected_failed_checks=_expected_failures)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _check_name(check) -> tuple[str, str]:
    """(the check's function name, the test id part: the name and its keyword arguments)."""
    if isinstance(check, functools.partial):
        args = ",".join(f"{k}={v}" for k, v in check.keywords.items())
        return check.func.__name__, check.func.__name__ + (f"({args})" if args else "")
    return check.__name__, check.__name__


def _external_checks():
    """pytest params (estimator, check) of the :data:`EXTERNAL` methods, the slow ones marked."""
    for method, (fast, missing) in EXTERNAL.items():
        why = missing()
        if why is not None:
            yield pytest.param(None, None, id=f"{method}-all", marks=pytest.mark.skip(reason=why))
            continue
        estimator = cheap_method(method)
        for item in estimator_checks_generator(
            estimator, expected_failed_checks=_expected_failures(estimator), mark="xfail"
        ):
            values, marks = (
                (item.values, list(item.marks)) if hasattr(item, "marks") else (item, [])
            )
            name, ident = _check_name(values[1])
            if name not in fast:
                marks.append(pytest.mark.slow)
            yield pytest.param(*values, marks=marks, id=f"{type(estimator).__name__}-{ident}")


@pytest.mark.parametrize(("estimator", "check"), list(_external_checks()))
def test_sklearn_compatible_external(estimator, check):
    check(estimator)


def test_registry_has_the_baselines():
    assert {"nb_gaussian", "nb_ef", "nb_ewb10", "nb_laplace", "lr", "svm"} <= set(
        implemented_methods()
    )
    with pytest.raises(ValueError, match="Unknown method 'nb_gausian'.*nb_gaussian"):
        make_method("nb_gausian")
