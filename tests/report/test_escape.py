"""Text from someone else's records made inert at every output (repro.report.escape): a name
holding HTML, a table bar, a newline, a LaTeX command, a formula or a terminal escape reaches a
Markdown, LaTeX, CSV file or the terminal as plain text. Each case parses what is written."""

import csv

import jinja2
import pandas as pd
from conftest import markdown_cells

from repro.report.dashboard.pages import environment
from repro.report.escape import (
    csv_cell,
    latex_text,
    markdown_cell,
    markdown_code,
    terminal_text,
    write_csv,
)
from repro.report.tables import to_latex, to_markdown

HOSTILE = "nb<script>alert(1)</script>|x\n# Heading\x00<img src=x onerror=alert(1)>"


def test_known_answers():
    assert markdown_cell("a|b\nc <b> & d\x1b") == r"a\|b c &lt;b&gt; &amp; d"
    assert markdown_code("rm `x` | y\n") == r"rm 'x' \| y "
    assert latex_text(r"\input{/etc/passwd} 50% a_b <|>") == (
        r"\textbackslash{}input\{/etc/passwd\} 50\% a\_b \textless{}\textbar{}\textgreater{}"
    )
    assert csv_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and csv_cell("@SUM(A1)") == "'@SUM(A1)"
    assert csv_cell("+1+2") == "'+1+2" and csv_cell("-2+3") == "'-2+3"
    assert csv_cell("-0.5") == "-0.5" and csv_cell(-0.5) == -0.5 and csv_cell("nb") == "nb"
    # screen clear, an OSC 52 clipboard write and a bell: gone; newline and tab kept
    assert terminal_text("\x1b[2J\x1b]52;c;ZXZpbA==\x07na\tme\n\x1b[31mred\x1b[0m") == "na\tme\nred"


def test_a_markdown_table_keeps_its_columns_and_carries_no_html():
    frame = pd.DataFrame({"accuracy": [0.9, 0.8]}, index=[HOSTILE, "nb"])
    text = to_markdown(frame)
    lines = text.splitlines()
    assert len(lines) == 4  # header, rule, two rows: the newline did not start a line
    assert all(len(markdown_cells(line)) == 2 for line in (lines[0], lines[2], lines[3]))
    assert (
        "<" not in text and "\x00" not in text and not any(line.startswith("#") for line in lines)
    )
    assert (
        markdown_cells(lines[2])[0]
        .strip()
        .startswith("nb&lt;script&gt;alert(1)&lt;/script&gt;\\|x")
    )


def test_every_expression_of_a_markdown_template_is_inert_once():
    source = "| {{ name }} | {{ name | md }} | `{{ name | code }}` | {{ n }} |"
    env = environment(markdown=True).overlay(loader=jinja2.DictLoader({"t.md.j2": source}))
    text = env.get_template("t.md.j2").render(name="<b>a|b</b>", n=3)
    assert text == r"| &lt;b&gt;a\|b&lt;/b&gt; | &lt;b&gt;a\|b&lt;/b&gt; | `<b>a\|b</b>` | 3 |"
    # the HTML page is escaped by Jinja itself
    env = environment().overlay(loader=jinja2.DictLoader({"t.html.j2": "<td>{{ name }}</td>"}))
    html = env.get_template("t.html.j2").render(name=HOSTILE)
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_latex_tables_escape_names():
    frame = pd.DataFrame({"accuracy": [0.9]}, index=[r"\write18{rm -rf}"])
    tex = to_latex(frame, caption="x")
    assert r"\write18" not in tex and r"\textbackslash{}write18\{rm -rf\}" in tex


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(tmp_path):
    frame = pd.DataFrame(
        {"method": ["=cmd|' /C calc'!A0", "nb", "-0.5"], "accuracy": [0.9, -0.1, 0.5]},
        index=["@x", "d", "e"],
    )
    path = tmp_path / "t.csv"
    write_csv(frame, path, index_label="dataset")
    rows = list(csv.reader(path.open()))
    assert rows[0] == ["dataset", "method", "accuracy"]
    assert rows[1] == ["'@x", "'=cmd|' /C calc'!A0", "0.9"]
    assert rows[2] == ["d", "nb", "-0.1"] and rows[3] == ["e", "-0.5", "0.5"]  # numbers kept
    assert frame.loc["@x", "method"].startswith("=")  # the caller's frame is not changed
