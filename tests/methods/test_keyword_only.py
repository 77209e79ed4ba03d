"""Estimator parameters are keyword-only (issue 43), as scikit-learn's own estimators' are.

Every method of the registry, built as the registry builds it (:func:`repro.registry.make_method`),
is an estimator whose ``__init__`` takes nothing positionally (a ``*`` right after ``self``):
``SomeClassifier(0.5)`` is a ``TypeError``, never a silent binding to whichever parameter is first.
``sklearn.base.clone`` still rebuilds each one with the same parameters. Every other estimator
class of ``repro.methods`` (the bases the registry's classes build on) is held to the same rule.
"""

import importlib
import inspect
import pkgutil

import pytest
from sklearn.base import BaseEstimator, clone

import repro.methods
from repro.registry import implemented_methods, make_method


def _init_parameters(cls):
    """The parameters of ``cls.__init__`` besides ``self``."""
    return list(inspect.signature(cls.__init__).parameters.values())[1:]


def _not_keyword_only(cls):
    return [p.name for p in _init_parameters(cls) if p.kind is not inspect.Parameter.KEYWORD_ONLY]


def _positional_argument(cls):
    """A value to pass positionally: the first parameter's default (or None)."""
    params = _init_parameters(cls)
    if params and params[0].default is not inspect.Parameter.empty:
        return params[0].default
    return None


def _same_params(a: dict, b: dict) -> bool:
    """Equal parameters, nested estimators compared by their own parameters (clone copies them)."""
    if a.keys() != b.keys():
        return False
    for key, value in a.items():
        other = b[key]
        if isinstance(value, BaseEstimator):
            if type(value) is not type(other):
                return False
            if not _same_params(value.get_params(deep=False), other.get_params(deep=False)):
                return False
        elif value != other:
            return False
    return True


def _method_classes():
    """The estimator classes of ``repro.methods`` that define their own ``__init__``."""
    classes = {}
    for info in pkgutil.walk_packages(repro.methods.__path__, "repro.methods."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (
                isinstance(obj, type)
                and issubclass(obj, BaseEstimator)
                and obj.__module__ == info.name
                and "__init__" in obj.__dict__
            ):
                classes[f"{info.name}.{name}"] = obj
    return classes


METHODS = implemented_methods()
CLASSES = _method_classes()


def test_the_registry_and_the_classes_are_found():
    assert len(METHODS) >= 30
    assert len(CLASSES) >= 20


@pytest.mark.parametrize("method_id", METHODS)
def test_registry_method_is_keyword_only(method_id):
    estimator = make_method(method_id)
    cls = type(estimator)
    assert _init_parameters(cls), f"{cls.__name__} has no parameters"
    assert _not_keyword_only(cls) == [], f"{cls.__qualname__}.__init__ has positional parameters"
    with pytest.raises(TypeError, match="positional"):
        cls(_positional_argument(cls))
    for value in estimator.get_params(deep=True).values():  # nested estimators too
        if isinstance(value, BaseEstimator):
            assert _not_keyword_only(type(value)) == [], type(value).__qualname__


@pytest.mark.parametrize("method_id", METHODS)
def test_clone_keeps_the_parameters(method_id):
    estimator = make_method(method_id)
    copy = clone(estimator)
    assert type(copy) is type(estimator)
    assert _same_params(copy.get_params(deep=False), estimator.get_params(deep=False))
    assert copy.get_params(deep=False).keys() == estimator.get_params(deep=False).keys()


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_estimator_class_of_methods_is_keyword_only(name):
    cls = CLASSES[name]
    assert _not_keyword_only(cls) == [], f"{name}.__init__ has positional parameters"
    with pytest.raises(TypeError, match="positional"):
        cls(_positional_argument(cls))
