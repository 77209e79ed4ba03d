"""Vidaurre, Bielza, Larrañaga (2012), forward stagewise naive Bayes.

:mod:`.interpolated` (the per-variable models of eq. (13)), :mod:`.wnb` (the weighted NB
baseline), :mod:`.group_lasso` + :mod:`.regularised_nb` (L1/L2 and adaptive L1/L2),
:mod:`.stagewise` + :mod:`.stagewise_nb` (fsNB), :mod:`.cfs` + :mod:`.cfs_nb` (CFS+NB).
"""
