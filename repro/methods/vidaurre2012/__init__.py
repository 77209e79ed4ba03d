"""Vidaurre, Bielza, Larrañaga (2012), forward stagewise naive Bayes.

:mod:`.interpolated` (the naive Bayes over the interpolated models of eq. (13), base of fsNB and
L1/L2-NB), :mod:`.wnb` (the weighted NB of Ferreira et al., the WNB baseline),
:mod:`.group_lasso` + :mod:`.regularised_nb` (L1/L2 and adaptive L1/L2), :mod:`.stagewise` +
:mod:`.stagewise_nb` (fsNB), :mod:`.cfs` + :mod:`.cfs_nb` (CFS+NB), :mod:`.selective_nb` (the
paper's SNB over maximum-likelihood estimates; its NB is
:class:`repro.methods.plain.nb.GaussianNaiveBayes`, ``nb_ml``).
"""
