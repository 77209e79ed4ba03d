"""Per-variable preprocessing: discretizations, groupings, densities and their kernels.

Their numba kernels are cached per user (:mod:`repro.runtime.compilation`)."""

from repro.runtime.compilation import use_user_cache

use_user_cache()
