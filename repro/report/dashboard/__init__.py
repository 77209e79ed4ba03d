"""``python -m repro.report all``: the results dashboard (``results/README.md``, ``index.html``,
``claims.csv``), generated from the configs and the stored records, never hand-written.

:mod:`.build` assembles the rows and writes the pages; :mod:`.inputs` reads the configs,
records, run dates and published values (and checks their consistency); :mod:`.points` the
published numbers against ours as records (with the interval of each rule) and the flagged
values; :mod:`.papers` the headline of each paper and its published-against-reproduced figure;
:mod:`.claims` the papers' claims and verdicts; :mod:`.bayesian` the Bayesian comparisons;
:mod:`.benchmarks` the benchmark logs; :mod:`.pages` renders both pages from the jinja2
templates ``repro/report/templates/dashboard.{md,html}.j2``.
"""
