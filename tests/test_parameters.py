"""``python -m repro list params METHOD`` (repro.cli.parameters): every parameter of every method
documented once, in the estimator's docstring, and listed with its configured default."""

import pytest
from conftest import run_module

from repro.cli.parameters import documented_parameters, params_table
from repro.registry import implemented_methods, make_method


@pytest.mark.parametrize("method", implemented_methods())
def test_every_parameter_of_every_method_is_documented(method):
    if method == "khiops":
        pytest.importorskip("khiops")
    estimator = make_method(method)
    documented = documented_parameters(type(estimator))
    undocumented = [k for k in estimator.get_params(deep=False) if not any(documented.get(k, ""))]
    assert not undocumented, f"{method}: {undocumented} missing from its Parameters section"


def test_a_methods_table_gives_the_configured_default_and_the_meaning():
    lines = params_table("fnb").splitlines()
    assert lines[0] == "fnb: python -m repro method=fnb method.NAME=VALUE"
    (lam,) = [line for line in lines if line.startswith("lambda_ ")]
    assert lam.split()[1] == "0.25" and "float ≥ 0" in lam and "λ of criterion (17)" in lam
    (cap,) = [line for line in lines if line.startswith("max_selected ")]
    assert cap.split()[1] == "None" and cap.endswith(
        "[not in its config: +method.max_selected=VALUE]"
    )
    assert params_table("cma").startswith("snb_cma: ")  # an alias


def test_the_command_line(tmp_path):
    done = run_module("repro", "list", "params", "nb_ef", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("nb_ef: python -m repro method=nb_ef")
    done = run_module("repro", "list", "params", cwd=tmp_path)
    assert done.returncode == 2 and "list params takes a method" in done.stderr
    done = run_module("repro", "list", "params", "nb_eff", cwd=tmp_path)
    assert done.returncode == 2 and "Did you mean 'nb_ef'" in done.stderr
