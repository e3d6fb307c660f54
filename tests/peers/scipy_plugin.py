"""pytest plugin: SciPy's own array-API tests, run on laxarray (or another namespace).

SciPy parametrizes its array-API tests with the ``xp`` fixture of ``scipy/conftest.py``, whose
backends are a list built when that module is imported (numpy, array_api_strict, torch, cupy,
jax.numpy, dask.array: whichever are installed and allowed by ``SCIPY_ARRAY_API``).  This
plugin replaces the fixture, before pytest reads it, with one whose only backend is
``laxarray`` (``SCIPY_ARRAY_NAMESPACE=array_api_strict`` runs the same selection on
array_api_strict, for comparison), so ``-m array_api_backends`` selects exactly the tests that
run on it.  ``laxarray`` is added to SciPy's known backends, so SciPy's ``np_only`` markers
skip it as they skip every backend other than NumPy; backend-specific markers name other
libraries and do not apply.  Used by ``make test-scipy``:

    SCIPY_ARRAY_API=1 PYTHONPATH=tests/peers python -m pytest -p scipy_plugin \\
        -m array_api_backends --pyargs scipy.stats scipy.optimize ...

SciPy's ``devices`` fixture returns ``info.devices() + [None]``, which raises ``TypeError``
on every namespace of the 2025.12 standard (``devices()`` is a tuple there; array_api_strict
returns one too): a setup error in SciPy, not in the namespace under test.  The plugin
provides the list SciPy means (the namespace's devices, then ``None``), so those tests run
and count: on laxarray (one CPU device) they pass; on array_api_strict 57 of them fail,
because its test devices ``Device('no_float64')`` and ``Device('no_x64')`` refuse the
float64/int64 arrays SciPy's tests create on every device (SciPy's expectation about
devices, met by neither its own fixture nor strict's devices, so not counted against either
namespace).  array_api_strict runs with the 2025.12 flags (SciPy's conftest pins 2024.12,
where ``linalg.eigvals`` does not exist and 11 ``scipy.signal`` tests fail).

``scipy.ndimage`` is left out of ``make test-scipy``: its tests with ``output=`` arrays need a
writable NumPy buffer view of the array (SciPy skips them on jax.numpy and dask.array for that
reason, by name); a laxarray array is an immutable jax buffer.

``XFAIL`` lists tests whose expectation no namespace of the 2025.12 standard can meet; each
entry says why, and the same test fails on array_api_strict.
"""

import os

import pytest

os.environ.setdefault("SCIPY_ARRAY_API", "1")

NAMESPACE = os.environ.get("SCIPY_ARRAY_NAMESPACE", "laxarray")

#: test id (as pytest prints it, without the parameter) -> reason
XFAIL: dict = {
    "_lib/tests/test__util.py::TestContainsNaN::test_array_api_lazy":
        "a test of lazy backends (jax.numpy, dask): it expects _contains_nan(x, 'omit') to "
        "raise TypeError('not supported for lazy arrays'), and SciPy skips it by name on "
        "every eager backend it knows (numpy, cupy, array_api_strict, torch); laxarray is "
        "eager, and on array_api_strict the same call raises nothing either",
}


def _namespace():
    if NAMESPACE == "array_api_strict":
        import array_api_strict   # SciPy's conftest sets it to 2024.12: the standard of laxarray
        array_api_strict.set_array_api_strict_flags(api_version="2025.12")
        return array_api_strict
    import laxarray
    return laxarray


def pytest_configure(config):
    """SciPy's markers, registered before its conftest uses them (its pytest.ini is not read)."""
    for name in ("array_api_backends", "thread_unsafe", "slow", "xslow", "fail_slow",
                 "skip_xp_backends", "xfail_xp_backends", "timeout", "parallel_threads"):
        config.addinivalue_line("markers", f"{name}: SciPy's marker")


@pytest.hookimpl(tryfirst=True)
def pytest_plugin_registered(plugin, manager):
    """Replace ``xp`` and ``devices`` in ``scipy/conftest.py`` before pytest parses it."""
    if getattr(plugin, "__name__", "") != "scipy.conftest":
        return
    conftest = plugin
    conftest.xp_known_backends.add(NAMESPACE)
    conftest.xp_available_backends[:] = [
        pytest.param(_namespace(), id=NAMESPACE, marks=pytest.mark.array_api_backends)]

    @pytest.fixture(params=conftest.xp_available_backends, name="xp")
    def xp(request):
        """SciPy's ``xp`` fixture, on the one namespace of this plugin."""
        yield from _scipy_xp(conftest, request)

    @pytest.fixture(name="devices")
    def devices(xp):
        """The namespace's devices, then ``None`` (what SciPy's fixture means to return)."""
        return list(xp.__array_namespace_info__().devices()) + [None]

    conftest.xp = xp
    conftest.devices = devices


def _scipy_xp(conftest, request):
    """The body of SciPy's ``xp`` fixture (SciPy 1.17): its skip/xfail markers, the
    namespace as ``array_namespace`` returns it, and ``default_xp`` around the test."""
    conftest.skip_or_xfail_xp_backends(request, "skip")
    conftest.skip_or_xfail_xp_backends(request, "xfail")
    xp = conftest.array_namespace(request.param.empty(0))
    with conftest.patch_lazy_xp_functions(request=request, xp=request.param):
        with conftest.default_xp(xp):
            yield xp


def pytest_collection_modifyitems(config, items):
    """Mark the tests of ``XFAIL`` (strict: one that passes is reported)."""
    for item in items:
        base = item.nodeid.split("[", 1)[0]
        for key, reason in XFAIL.items():
            if base.endswith(key):
                item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
