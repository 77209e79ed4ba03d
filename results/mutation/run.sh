#!/usr/bin/env bash
# Mutation testing of one module with mutmut 3.3.1, on a copy of the checkout (the shared checkout
# is never touched; mutmut's configuration is written into the copy only, not pyproject.toml).
#
#   pip install --target /tmp/mm3 mutmut==3.3.1     # once; see README.md for the clean-up
#   results/mutation/run.sh repro/evaluation/metrics.py tests/evaluation/test_metrics.py
#
# First argument: the module to mutate; the others: the test files run against each mutant.
# Writes, under $OUT (default /tmp/repro-mutation-out/<name>), mutmut's results and the diff of
# every mutant that survived.
set -euo pipefail
ROOT=${REPRO_ROOT:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
HERE=$(cd "$(dirname "$0")" && pwd)
MUTMUT_PATH=${MUTMUT_PATH:-/tmp/mm3}
module=$1
shift
name=$(echo "${module#repro/}" | sed 's#/#_#g; s#\.py$##')
out=${OUT:-/tmp/repro-mutation-out/$name}
work=$(mktemp -d "/tmp/repro-mutation-$name.XXXX")
mkdir -p "$out"
# the working tree (tracked files and untracked ones git does not ignore), without results/
# (conf/ and experiments/: repro/conf and repro/published link to them; the registry reads them)
git -C "$ROOT" ls-files -co --exclude-standard -- repro tests datasets pyproject.toml conf experiments \
  | (cd "$ROOT" && tar -cf - -T -) | tar -xf - -C "$work"
cd "$work"
# STRIP_NJIT=1: mutmut makes no mutants of decorated functions; drop the module's
# `@njit(cache=True)` lines in the copy so its compiled kernels are mutated and run as Python
# (add NUMBA_DISABLE_JIT=1 when compiled code elsewhere calls them)
if [ -n "${STRIP_NJIT:-}" ]; then sed -i "/^@njit(cache=True)$/d" "$module"; fi
# the copy's pytest options: no xdist (mutmut runs the tests in its own process)
sed -i 's/ -n auto//' pyproject.toml
# mutmut copies only the mutated file into mutants/: every sibling on its path is copied too
{
  echo "[mutmut]"
  echo "paths_to_mutate=$module"
  echo "tests_dir="
  for t in "$@"; do echo "  $t"; done
  echo "also_copy="
  echo "  datasets"
  path=""
  IFS=/ read -ra parts <<< "$module"
  for ((i = 0; i < ${#parts[@]} - 1; i++)); do
    path=${path:+$path/}${parts[i]}
    next=$path/${parts[i + 1]}
    for entry in "$path"/*; do
      [ "$entry" = "$next" ] || [ "${entry##*/}" = __pycache__ ] || echo "  $entry"
    done
  done
} > setup.cfg
# JOBLIB_MULTIPROCESSING=0: tests' joblib pools run serially (mutmut reaps children it did
# not start and fails with a KeyError)
export MPLBACKEND=Agg PYTHONPATH="$MUTMUT_PATH" JOBLIB_MULTIPROCESSING=0
# MUTANTS="name ...": only those mutants (a re-check of earlier survivors after new tests)
# shellcheck disable=SC2086
nice -n 19 python -c "from mutmut.__main__ import cli; cli()" run --max-children 2 ${MUTANTS:-} || true
python -c "from mutmut.__main__ import cli; cli()" results --all true > "$out/results.txt" || true
: > "$out/survived.diff"
python "$HERE/mutant_diff.py" "mutants/$module" survived > "$out/survived.diff"
grep -oE ': [a-z ]+$' "$out/results.txt" | sort | uniq -c | tee "$out/counts.txt"
echo "work copy: $work; survivors: $out/survived.diff"
