"""Boullé (2007), compression-based averaging of selective naive Bayes classifiers.

:mod:`.criteria` (the selection prior, criterion (4), BMA/CMA model weights), :mod:`.search`
(forward greedy, MS(FFWBW), exhaustive), :mod:`.selective` (SNB(ACC), SNB(AUC), SNB(MAP)),
:mod:`.averaging` (SNB(BMA), SNB(CMA)), :mod:`.threshold` (the BER decision threshold, §8.2).
"""
