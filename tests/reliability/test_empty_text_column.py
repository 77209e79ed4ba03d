"""A text column with no value at fit (every cell missing) is nominal with no category: what it
holds at predict is unseen, and an unseen category reads as missing, as for every nominal column
(issue 46: all 31 methods refused it, "they are text where the model was fitted on ;").
"""

import numpy as np
import pandas as pd
import pytest

from repro.methods.core.encoding import TabularEncoder
from repro.registry import make_method

#: one method of each family (and each kind of variable model), with the package's defaults
METHODS = [
    "nb",
    "snb_cma",
    "bma_nb",
    "lr",
    "wnb",
    "fsnb",
    "fnb",
    "fnb_khiops",
    "nb_mdlh",
    "nb_gaussian",
    "nb_laplace",
]


def _data():
    rng = np.random.default_rng(0)
    n = 60
    X = pd.DataFrame(
        {
            "a": rng.normal(size=n),
            "b": rng.normal(size=n),
            "c": pd.Series([None] * n, dtype=object),
        }
    )
    return X, (X["a"] > 0).astype(int).to_numpy()


def test_the_encoder_reads_it_as_nominal_without_categories():
    X, _ = _data()
    enc = TabularEncoder().fit(X)
    assert enc.categorical_.tolist() == [False, False, True]
    assert len(enc.categories_[2]) == 0
    Z = enc.transform(pd.DataFrame({"a": [0.0], "b": [0.0], "c": ["u"]}))
    assert Z[0, 2] == -1  # unseen


@pytest.mark.parametrize("method", METHODS)
def test_values_at_predict_read_as_missing(method):
    X, y = _data()
    model = make_method(method).fit(X, y)
    with_values = X.head(4).copy()
    with_values["c"] = ["u", "v", None, "u"]
    np.testing.assert_allclose(
        model.predict_proba(with_values), model.predict_proba(X.head(4)), rtol=0, atol=1e-12
    )
