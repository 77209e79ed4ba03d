"""``python -m repro.report all``: the results dashboard (``results/README.md``, ``index.html``,
``claims.csv``), generated from the configs and the stored records, never hand-written.

:mod:`.build` assembles the rows and writes the pages; :mod:`.inputs` reads the configs,
records, run dates and published values (and checks their consistency); :mod:`.claims` the
papers' claims and verdicts; :mod:`.bayesian` the Bayesian comparisons; :mod:`.benchmarks` the
benchmark logs; :mod:`.markdown_page` and :mod:`.html_page` render the two pages over what they
share, :mod:`.cells`.
"""
