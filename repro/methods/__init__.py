"""The estimators of the registry and the criteria, optimisers and engines they orchestrate.

Their numba kernels are cached per user (:mod:`repro.runtime.compilation`)."""

from repro.runtime.compilation import use_user_cache

use_user_cache()
