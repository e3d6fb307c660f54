# On the TPU machine (after `source tools/tpu_env.sh`): run one official array-api-tests file
# on laxarray with XLA's HLO dumped; when the process dies, pack the last modules XLA began
# to compile (the one that aborted among them) into $OUT/suite_<file>.tar.gz.
#   bash tools/tpu_suite_abort.sh FILE EXAMPLES SECONDS
f=$1; n=${2:-3}; t=${3:-120}
d=/tmp/aat_dump_$f; rm -rf "$d"
(cd .tpu/array-api-tests && ARRAY_API_TESTS_MODULE=laxarray \
  XLA_FLAGS="--xla_dump_to=$d --xla_dump_hlo_as_text" timeout "$t" python3 -m pytest \
  -p no:cacheprovider "array_api_tests/$f.py" --max-examples "$n" -q -rfE 2>&1 | tail -25)
rc=${PIPESTATUS[0]}
if [ -d "$d" ]; then
  ls -t "$d" | grep before_optimizations | head -4 > /tmp/last_$f
  (cd "$d" && tar czf "$OUT/suite_$f.tar.gz" $(cat /tmp/last_$f))
fi
