"""MS(FFWBW) on several threads (issue 16): the speculative parallel pass gives the serial one's
result, records and moves exactly (boulle2007 §3.5, Algorithm 1). The load policy
(:mod:`repro.runtime.cores`) is off here, so that the passes run on the threads asked for whatever
else the machine runs."""

import numba
import numpy as np
import pytest

from repro import make_method
from repro.datasets import load_dataset
from repro.methods.boulle2007.search import ms_ffwbw
from repro.methods.core.checks import check_predict_input
from repro.methods.core.engine import EncodedData, ScoreEngine
from repro.runtime.cores import POLICY_VARIABLE, allowed_cores


@pytest.fixture(scope="module", params=["waveform", "pima"])
def selection_data(request):
    ds = load_dataset(request.param)
    X = ds.X.iloc[:1500]
    y = np.asarray(ds.y)[:1500]
    model = make_method("nb").fit(X, y)
    Z = check_predict_input(model, X)
    return EncodedData.from_estimator(model, Z, np.searchsorted(model.classes_, y))


@pytest.fixture(autouse=True)
def no_load_policy(monkeypatch):
    monkeypatch.setenv(POLICY_VARIABLE, "off")


@pytest.mark.parametrize("n_threads", [2, 3])
def test_parallel_passes_equal_the_serial_ones(selection_data, n_threads):
    k = selection_data.n_candidates
    serial = ms_ffwbw(ScoreEngine(selection_data), k, random_state=3, n_threads=1)
    threads = numba.get_num_threads()
    parallel = ms_ffwbw(ScoreEngine(selection_data), k, random_state=3, n_threads=n_threads)
    assert numba.get_num_threads() == threads  # the caller's thread count is left as it was
    # frequent moves (the first forward passes) and long runs without one are both exercised
    assert len(serial.models.moves) > 10 and serial.info["n_evaluations"] > 20 * k
    np.testing.assert_array_equal(parallel.selected, serial.selected)
    used = parallel.info.pop("search_threads")
    assert serial.info.pop("search_threads") == 1.0
    assert used == min(n_threads, numba.config.NUMBA_NUM_THREADS, allowed_cores())
    assert parallel.cost == serial.cost and parallel.info == serial.info
    for field in ("state", "var", "kind", "cost", "moves"):
        np.testing.assert_array_equal(
            getattr(parallel.models, field), getattr(serial.models, field), err_msg=field
        )
