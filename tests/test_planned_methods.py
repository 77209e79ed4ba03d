"""A method of the papers without an implementation (a registry id with no config): the registry
and the command line refuse it with a clear error. Every method of the package is implemented,
so a planned stub is entered into the registry (``METHODS``, and an alias of it) for the test."""

import pytest
from conftest import run_module

from repro import registry
from repro.registry import (
    MethodNotImplementedError,
    implemented_methods,
    list_methods,
    make_method,
    method_config,
    resolve_method_id,
)

STUB, ALIAS = "planned_stub", "plan_alias"

#: a module that enters the stub into the registry of the child process, then runs the command
#: line of ``python -m repro`` with the same arguments
PLANNED_CLI = f"""
from repro import registry
registry.METHODS[{STUB!r}] = ("Planned stub", "a test paper")
registry.ALIASES[{ALIAS!r}] = {STUB!r}
from repro.__main__ import main
main()
"""


@pytest.fixture
def planned(monkeypatch):
    monkeypatch.setitem(registry.METHODS, STUB, ("Planned stub", "a test paper"))
    monkeypatch.setitem(registry.ALIASES, ALIAS, STUB)
    return STUB


def test_registry_refuses_a_planned_method_and_its_alias(planned):
    assert planned not in implemented_methods()
    for name in (STUB, ALIAS):
        for call in (resolve_method_id, make_method, method_config):
            with pytest.raises(MethodNotImplementedError) as err:
                call(name)
            message = str(err.value)
            assert message.startswith(
                "Method 'planned_stub' (Planned stub, a test paper) is not implemented yet; "
                "implemented methods: "
            )
            assert "nb_gaussian" in message  # the list of what can run
    assert isinstance(err.value, NotImplementedError)
    row = list_methods().set_index("id").loc[STUB]
    assert (row["display_name"], row["paper"], bool(row["implemented"])) == (
        "Planned stub", "a test paper", False,
    )  # fmt: skip
    assert row["aliases"] == ALIAS


def test_command_line_names_a_planned_method_without_a_traceback(tmp_path):
    """``method=<alias of the stub>``: exit status 2, the canonical id and display name."""
    (tmp_path / "planned_cli.py").write_text(PLANNED_CLI)
    proc = run_module("planned_cli", f"method={ALIAS}", "dataset=iris", "progress=false",
                      cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "Method 'planned_stub' (Planned stub, a test paper) is not implemented yet" in (
        proc.stderr
    )
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "results").exists()  # nothing run, nothing written
