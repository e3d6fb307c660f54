# Source this on the lent TPU machine (the device tool), from the repository root, before any
# laxarray run there: installs what the machine lacks (the wheels carried in .whl-tpu, see
# docs/accelerators.md; scikit-learn from the machine's own package index) under /tmp and puts
# the repository on PYTHONPATH.  The machine's own jax, jaxlib, libtpu, numpy and scipy stay
# first: only pure-Python test tools go ahead of them.
#   source tools/device/tpu_env.sh [--sklearn]
PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --no-index --no-deps \
    --no-compile --no-cache-dir --upgrade --target /tmp/site .whl-tpu/*.whl || return 1
export PYTHONPATH="$PWD:/tmp/site:$PYTHONPATH"
if [ "${1:-}" = "--sklearn" ]; then
    PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --only-binary=:all: \
        --index-url file:///opt/pypi/simple --no-deps --target /tmp/sk scikit-learn joblib narwhals \
        threadpoolctl || return 1
    export PYTHONPATH="$PYTHONPATH:/tmp/sk"
fi
export SCIPY_ARRAY_API=1 PYTHONUNBUFFERED=1
