"""The method registry: ids, aliases, display names, package exports."""

import pytest
from omegaconf import OmegaConf

import repro
from repro.registry import (
    ALIASES,
    METHOD_DIR,
    METHODS,
    implemented_methods,
    list_methods,
    make_method,
    package_methods,
    resolve_method_id,
)


def test_every_registered_estimator_class_is_exported_by_the_package():
    for path in METHOD_DIR.glob("*.yaml"):
        target = OmegaConf.load(path)["_target_"]
        cls = getattr(repro, target.rsplit(".", 1)[1])
        assert f"{cls.__module__}.{cls.__name__}" == target
    with pytest.raises(AttributeError):
        repro.NoSuchClassifier  # noqa: B018


def test_list_methods_covers_the_papers():
    table = list_methods().set_index("id")
    assert set(table.index) == set(METHODS) == set(implemented_methods())
    assert table.loc["nb_gaussian", "display_name"] == "Gaussian"
    assert table.loc["nb_gaussian", "estimator"] == "GaussianNaiveBayes"


def test_every_method_of_the_registry_has_its_config_file():
    """METHODS names the methods of ``conf/method/`` (each with its display name), and every alias
    is of one of them: no id of the registry lacks an implementation."""
    assert set(METHODS) == set(package_methods())
    assert set(ALIASES.values()) <= set(package_methods())


def test_display_names_are_unique():
    """A report row names one method: the three naive Bayes of the papers are told apart."""
    table = list_methods()
    assert not table["display_name"].duplicated().any(), table[table["display_name"].duplicated()]
    names = table.set_index("id")["display_name"]
    assert (names["nb"], names["nb_laplace"], names["nb_ml"]) == (
        "NB (MODL)",
        "NB (Laplace)",
        "NB (ML)",
    )


def test_aliases_resolve_and_unknown_names_are_refused():
    for alias, target in ALIASES.items():
        assert resolve_method_id(alias) == target
    with pytest.raises(ValueError, match="Unknown method 'xyz'"):
        resolve_method_id("xyz")


def test_make_method_overrides_defaults_and_returns_fresh_estimators():
    a = make_method("nb_ef", n_bins=4)
    b = make_method("nb_ef")
    assert a.n_bins == 4 and b.n_bins == 10 and a is not b
