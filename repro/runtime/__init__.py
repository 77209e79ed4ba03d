"""What a fit runs on: the numba cache of the package's kernels (:mod:`.compilation`) and the
cores a fit may use (:mod:`.cores`). Below every module with a kernel or a parallel loop."""
