"""The papers' claims as data, their verdicts as code.

Every claim of a paper is a row of ``<paths.published>/<paper>/claims.yaml`` (shipped with the
package: ``experiments/<paper>/claims.yaml`` in the checkout): the paper's sentence quoted
verbatim with its section, the experiment whose records decide it, and the name of a rule, a
function of :mod:`repro.report.papers.<paper>.claims` that computes the verdict from those
records.
:mod:`.engine` reads the claims and runs the rules; :mod:`.evidence` holds the tests every rule
of a kind shares (one rule of significance for every claim of a kind).
"""
