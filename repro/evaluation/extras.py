"""Optional dependencies of the ``cluster`` extra (``pip install "repro[cluster]"``) and the
message a user gets without them.

The core install runs every method, experiment and report on one machine. The cluster extra adds
what goes beyond it: Dask's ``distributed`` for the folds of a cell on a Dask cluster
(``backend="dask"``) and Hydra's launcher plugins for the cells of a sweep
(``hydra/launcher=joblib | submitit_local | submitit_slurm | slurm``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: module -> distribution of the optional imports of the cluster extra
CLUSTER_MODULES = {
    "distributed": "distributed",
    "hydra_plugins.hydra_joblib_launcher": "hydra-joblib-launcher",
    "hydra_plugins.hydra_submitit_launcher": "hydra-submitit-launcher",
}

#: what to run when one is missing
CLUSTER_INSTALL = 'python -m pip install "repro[cluster]"'


def require_cluster(module: str, purpose: str) -> ModuleType:
    """Import ``module`` (a key of :data:`CLUSTER_MODULES`); when it is not installed, an
    ImportError naming ``purpose``, the missing distribution and the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{purpose} needs the package {CLUSTER_MODULES[module]!r}, which is not installed: "
            f"it comes with the cluster extra: {CLUSTER_INSTALL}"
        ) from exc


__all__ = ["CLUSTER_INSTALL", "CLUSTER_MODULES", "require_cluster"]
