"""Hue & Boullé (2024), weighted naive Bayes by direct optimisation.

:mod:`.wnb_opt_criterion` (the CR criterion, its relaxations, gradients and exact prox),
:mod:`.box_optimisers` (SG, CF, UE, UG, CG, AM on [0, 1]^K), :mod:`.wnb_opt` (``wnb_opt``),
:mod:`.fnb_criterion` + :mod:`.fnb` (the paper's fractional naive Bayes, ``fnb``).
"""
