"""A paper's metadata (``experiments/<paper>/paper.yaml``, :mod:`repro.report.paper_data`): the
committed files, the order of the papers and every refusal of the schema."""

from __future__ import annotations

import re

import pytest

from repro.report.paper_data import paper_metadata, papers

GOOD = 'title: "A paper"\norder: 1\nitems:\n  - {item: "Table 3", experiment: boulle2007_table3}\n'


def write(root, paper: str, text: str):
    """``<root>/<paper>/paper.yaml`` holding ``text``; its path."""
    path = root / paper / "paper.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_papers_in_the_dashboards_order():
    assert papers() == ("boulle2007", "wu2015", "vidaurre2012", "hue2024", "elovaara2008")
    assert [paper_metadata(p)["order"] for p in papers()] == [1, 2, 3, 4, 5]


def test_papers_are_ordered_by_order_not_by_name(tmp_path):
    write(tmp_path, "aaa", GOOD.replace("order: 1", "order: 3"))
    write(tmp_path, "bbb", GOOD)
    write(tmp_path, "ccc", GOOD.replace("order: 1", "order: 2"))
    (tmp_path / "ddd").mkdir()  # a folder without paper.yaml is no paper
    assert papers(tmp_path) == ("bbb", "ccc", "aaa")


def test_boulle2007_items():
    meta = paper_metadata("boulle2007")
    assert meta["title"].startswith("Boullé (2007), Compression-based averaging")
    items = {i["item"]: i for i in meta["items"]}
    expected = [
        {"item": "Fig. 1", "experiment": None, "why": "only illustrates the waveform generator"},
        {"item": "Fig. 3", "experiment": "boulle2007_waveform", "why": ""},
        {"item": "Table 3", "experiment": "boulle2007_table3", "why": ""},
        {"item": "Table 4", "experiment": "boulle2007_table4", "why": ""},
        {
            "item": "Fig. 11",
            "experiment": None,
            "why": "needs the other challenge participants' entries",
        },
        {"item": "Fig. 12", "experiment": "boulle2007_challenge", "why": ""},
    ]
    assert [items[e["item"]] for e in expected] == expected
    assert len(meta["items"]) == 15 and meta["items"][0]["item"] == "Fig. 1"
    assert meta["items"][-1]["item"] == "Fig. 12"


def test_a_good_file_and_its_copy(tmp_path):
    write(tmp_path, "p", GOOD)
    meta = paper_metadata("p", tmp_path)
    assert meta == {
        "title": "A paper",
        "order": 1,
        "items": [{"item": "Table 3", "experiment": "boulle2007_table3", "why": ""}],
    }
    meta["items"].clear()  # the caller's copy: the cached metadata stays whole
    assert len(paper_metadata("p", tmp_path)["items"]) == 1


@pytest.mark.parametrize(
    "text, message",
    [
        (
            GOOD.replace("title:", "tittle:"),
            "unknown key 'tittle' (did you mean 'title'?); valid keys: items, order, title",
        ),
        (
            GOOD.replace("experiment:", "experimnet:"),
            "unknown item key 'experimnet' (did you mean 'experiment'?); "
            "valid keys: experiment, item, why",
        ),
        ("order: 1\nitems: []\n", "no 'title'"),
        ('title: "A paper"\norder: 1\n', "no 'items'"),
        ('title: "A paper"\nitems: []\n', "no 'order'"),
        (GOOD.replace("order: 1", "order: first"), "'order' must be an integer"),
        (GOOD.replace('item: "Table 3", ', ""), "item 1 has no 'item'"),
        (
            GOOD.replace("experiment: boulle2007_table3", "experiment: null"),
            "item 'Table 3' has neither an 'experiment' nor a 'why'",
        ),
        (
            GOOD.replace("boulle2007_table3", "boulle2007_tabel3"),
            "unknown experiment 'boulle2007_tabel3' (did you mean 'boulle2007_table3'?)",
        ),
    ],
)
def test_refusals(tmp_path, text, message):
    path = write(tmp_path, "p", text)
    with pytest.raises(ValueError, match=re.escape(message)) as refused:
        paper_metadata("p", tmp_path)
    assert str(refused.value).startswith(f"{path}: ")


def test_an_item_with_a_reason_and_no_experiment_is_valid(tmp_path):
    write(tmp_path, "p", GOOD.replace("experiment: boulle2007_table3", 'why: "no data"'))
    assert paper_metadata("p", tmp_path)["items"] == [
        {"item": "Table 3", "experiment": None, "why": "no data"}
    ]


def test_a_paper_without_a_file(tmp_path):
    with pytest.raises(ValueError, match="metadata of 'p' not found: no file .*/p/paper.yaml"):
        paper_metadata("p", tmp_path)
