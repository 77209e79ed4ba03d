"""The classic extensions of naive Bayes that every paper of this line is compared with.

``aode`` (Webb, Boughton & Wang 2005), ``tan`` (Friedman, Geiger & Goldszmidt 1997), ``hnb``
(Zhang, Jiang & Su 2005), ``wanbia`` (Zaidi, Cerquides, Carman & Webb 2013) and ``manb`` (Dash &
Cooper 2002), by default on the package's own MODL discretization and grouping.
"""
