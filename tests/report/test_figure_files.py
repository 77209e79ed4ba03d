"""Figure files depend on the drawing only: two saves a second apart are byte-identical."""

import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from repro.report.figure_files import save_figure  # noqa: E402


def _draw():
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1, 2], [1, 0, 2], label="a line")
    ax.set_title("same drawing")
    ax.legend()
    return fig


@pytest.mark.parametrize("suffix", ["pdf", "png"])
def test_saving_twice_gives_the_same_bytes(tmp_path, suffix):
    first, second = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
    fig = _draw()
    save_figure(fig, first, dpi=50)
    time.sleep(1.1)  # a creation date in seconds would differ
    save_figure(fig, second, dpi=50)
    plt.close(fig)
    assert first.read_bytes() == second.read_bytes()


def test_no_date_and_no_version_in_the_files(tmp_path):
    fig = _draw()
    pdf = save_figure(fig, tmp_path / "f.pdf")
    png = save_figure(fig, tmp_path / "f.png")
    plt.close(fig)
    assert b"CreationDate" not in pdf.read_bytes()
    assert b"Matplotlib" not in png.read_bytes()
    assert b"Matplotlib" not in pdf.read_bytes()


def test_callers_metadata_is_kept(tmp_path):
    fig = _draw()
    pdf = save_figure(fig, tmp_path / "f.pdf", metadata={"Title": "Figure 1"})
    plt.close(fig)
    assert b"Figure 1" in pdf.read_bytes()
