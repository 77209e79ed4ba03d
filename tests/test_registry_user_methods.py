"""User methods registered with a config in the running process (registry.register_method)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import repro
from repro.registry import (
    display_name,
    implemented_methods,
    list_methods,
    make_method,
    method_config,
    package_methods,
    register_method,
    unregister_method,
    user_methods,
)
from repro.report.tables import comparison_table

NB = "repro.methods.plain.modl_nb.MODLNaiveBayes"


@pytest.fixture
def registered():
    """Ids registered by a test; unregistered afterwards (the registry is process-wide)."""
    ids = []
    yield ids
    for method_id in ids:
        if method_id in user_methods():
            unregister_method(method_id)


def test_register_a_yaml_file_then_use_it_as_any_registry_id(tmp_path, registered):
    config = tmp_path / "my_nb.yaml"
    config.write_text(f"_target_: {NB}\n_convert_: all\nvariant: khiops\n")
    registered.append(register_method("my_nb", config, display_name="My NB"))
    assert "my_nb" in implemented_methods() and "my_nb" not in package_methods()
    assert user_methods() == ["my_nb"]
    assert method_config("my_nb") == {"_target_": NB, "_convert_": "all", "variant": "khiops"}
    est = make_method("my_nb")
    assert type(est).__name__ == "MODLNaiveBayes" and est.variant == "khiops"
    assert make_method("my_nb", variant="paper").variant == "paper"
    with pytest.raises(ValueError, match="Unknown parameter"):
        make_method("my_nb", n_bins=3)
    row = list_methods().set_index("id").loc["my_nb"]
    assert (row["display_name"], row["paper"]) == ("My NB", "user")
    assert row["estimator"] == "MODLNaiveBayes"
    assert display_name("my_nb") == "My NB"
    records = repro.evaluate("my_nb", "iris", protocol="cv5")
    assert set(records["method"]) == {"my_nb"}
    twin = repro.evaluate(("nb", {"variant": "khiops"}), "iris", protocol="cv5")
    acc = records.query("split == 'test' and metric == 'accuracy'")["value"].to_numpy()
    twin_acc = twin.query("split == 'test' and metric == 'accuracy'")["value"].to_numpy()
    np.testing.assert_array_equal(acc, twin_acc)  # the same estimator on the same folds
    table = comparison_table(pd.concat([records, twin]), ["accuracy"], reference="my_nb")
    assert list(table.index) == ["My NB", "NB (MODL)"]
    assert table.loc["NB (MODL)", ("accuracy", "W/L")] == "0/0"


def test_register_a_mapping_and_the_stored_config_is_a_copy(registered):
    config = {"_target_": NB, "variant": "paper"}
    registered.append(register_method("my_map_nb", config))
    config["variant"] = "khiops"  # the caller's dict is not the registry's
    got = method_config("my_map_nb")
    assert got == {"_target_": NB, "variant": "paper", "_convert_": "all"}
    got["variant"] = "khiops"
    assert make_method("my_map_nb").variant == "paper"
    assert display_name("my_map_nb") == "my_map_nb"


def test_refused_ids(registered):
    with pytest.raises(ValueError, match="already a method of the package"):
        register_method("nb", {"_target_": NB})
    with pytest.raises(ValueError, match="already a method of the package"):
        register_method("snb_cma", {"_target_": NB})
    with pytest.raises(ValueError, match="alias"):
        register_method("cma", {"_target_": NB})
    for bad in ("My-NB", "1nb", "", "a b", None):
        with pytest.raises(ValueError, match="A method id must be"):
            register_method(bad, {"_target_": NB})
    registered.append(register_method("mine", {"_target_": NB}))
    with pytest.raises(ValueError, match="already registered as a user method"):
        register_method("mine", {"_target_": NB, "variant": "khiops"})
    register_method("mine", {"_target_": NB, "variant": "khiops"}, replace=True)
    assert make_method("mine").variant == "khiops"


def test_refused_configs(tmp_path):
    with pytest.raises(ValueError, match="does not import"):
        register_method("mine", {"_target_": "no_such_module.Classifier"})
    with pytest.raises(ValueError, match="does not import"):
        register_method("mine", {"_target_": "repro.methods.plain.modl_nb.NoSuchClass"})
    with pytest.raises(ValueError, match="not a scikit-learn estimator"):
        register_method("mine", {"_target_": "collections.OrderedDict"})
    with pytest.raises(ValueError, match="has no _target_"):
        register_method("mine", {"variant": "paper"})
    with pytest.raises(ValueError, match=r"Unknown parameter\(s\) \['n_bins'\]"):
        register_method("mine", {"_target_": NB, "n_bins": 5})
    with pytest.raises(ValueError, match="No config file"):
        register_method("mine", tmp_path / "absent.yaml")
    listed = tmp_path / "list.yaml"
    listed.write_text("- 1\n- 2\n")
    with pytest.raises(ValueError, match="must hold a mapping"):
        register_method("mine", listed)
    with pytest.raises(TypeError, match="path of a YAML file or a mapping"):
        register_method("mine", 42)
    assert "mine" not in implemented_methods()  # nothing half-registered


def test_unregister(registered):
    register_method("gone", {"_target_": NB})
    unregister_method("gone")
    assert "gone" not in implemented_methods()
    with pytest.raises(ValueError, match="Unknown method 'gone'"):
        make_method("gone")
    with pytest.raises(ValueError, match="is not a user method"):
        unregister_method("nb")
