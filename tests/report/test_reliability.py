"""The reliability diagram draws the bins of reliability_table and names each curve's ECE."""

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402

from repro.report.reliability import reliability_diagram  # noqa: E402


def test_the_points_are_the_bins_and_the_legend_the_ece():
    proba = np.array([[0.9, 0.1], [0.1, 0.9], [0.6, 0.4], [0.45, 0.55]])
    y = np.array([0, 1, 1, 1])
    ax = reliability_diagram({"nb": (y, proba)}, n_bins=4)
    diagonal, curve = ax.get_lines()
    np.testing.assert_allclose(diagonal.get_xydata(), [[0, 0], [1, 1]])
    np.testing.assert_allclose(curve.get_xydata(), [[0.575, 0.5], [0.9, 1.0]])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["calibrated", "nb (ECE 0.087)"]  # 0.0875 by hand (0.08749… in binary)
