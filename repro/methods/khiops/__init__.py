"""Khiops 11's naive Bayes: :mod:`.prepared` (its MODL preparation and the costs B(X_k)),
:mod:`.fnb_criterion` (its Score(w)), :mod:`.fnb_khiops` (``fnb_khiops``, the fractional naive
Bayes) and :mod:`.peer` (the Khiops tool itself, the ``khiops`` peer)."""
