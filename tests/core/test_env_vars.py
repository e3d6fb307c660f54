"""Every ``LAXARRAY_*`` variable is parsed in one place (``_core/env_vars.py``): a malformed
value never stops the import, it warns once, naming the variable and the value, and the
default is used."""

import json
import os
import re
import subprocess
import sys
import warnings

import pytest

from laxarray._core import env_vars

#: a malformed value for each setting
BAD = {
    "LAXARRAY_COMPILATION_CACHE_MAX_MB": "1.5.2", "LAXARRAY_PREFETCH": "maybe",
    "LAXARRAY_STORE_HINT": "2", "LAXARRAY_PLATFORM": "abacus",
    "LAXARRAY_RECORD_DEBUG": "verbose", "LAXARRAY_MATMUL_PRECISION": "fast",
    "LAXARRAY_RANK_PROMOTION": "sometimes", "LAXARRAY_HOST_SORT": "perhaps",
    "LAXARRAY_BUCKET_LIMIT": "-3", "LAXARRAY_BUCKET_POISON": "yes please",
    "LAXARRAY_KERNEL_CACHE": "abc", "LAXARRAY_PORTABLE_BUILD": "sure",
}
#: settings whose every text is valid (a directory, a file name)
FREE_TEXT = {"LAXARRAY_COMPILATION_CACHE", "LAXARRAY_RECORD", "LAXARRAY_PORTABLE_STORE",
             "LAXARRAY_CPU_DESCRIPTION"}


def test_the_table_covers_what_the_package_reads():
    root = os.path.dirname(os.path.dirname(env_vars.__file__))
    read = set()
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".py") and name != "env_vars.py":
                with open(os.path.join(folder, name)) as f:
                    text = f.read()
                assert not re.search(r"environ(\.get\(|\[)\s*[\"']LAXARRAY_", text), name
                read |= set(re.findall(r"[\"'](LAXARRAY_[A-Z0-9_]+)[\"']", text))
    assert read <= set(env_vars.SETTINGS), read - set(env_vars.SETTINGS)
    assert set(BAD) | FREE_TEXT == set(env_vars.SETTINGS)


def test_the_platforms_are_the_backend_records():
    from laxarray._core import backend
    assert set(env_vars.PLATFORMS) == set(backend.RECORDS)


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_malformed_value_warns_once_and_gives_the_default(name, monkeypatch):
    monkeypatch.setenv(name, BAD[name])
    monkeypatch.setattr(env_vars, "_WARNED", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [env_vars.value(name), env_vars.value(name)]
    assert got == [env_vars.SETTINGS[name].default] * 2
    assert len(caught) == 1 and caught[0].category is RuntimeWarning
    assert name in str(caught[0].message) and repr(BAD[name]) in str(caught[0].message)


@pytest.mark.parametrize("name, text, want", [
    ("LAXARRAY_COMPILATION_CACHE_MAX_MB", "1.5", int(1.5 * 2 ** 20)),
    ("LAXARRAY_PREFETCH", "0", False), ("LAXARRAY_HOST_SORT", "False", False),
    ("LAXARRAY_PLATFORM", " TPU ", "tpu"), ("LAXARRAY_KERNEL_CACHE", "8", 8),
    ("LAXARRAY_MATMUL_PRECISION", "tf32", "tf32"), ("LAXARRAY_COMPILATION_CACHE", "0", "0"),
    ("LAXARRAY_BUCKET_LIMIT", "0", 0),       # bucketing off, as the README says
    ("LAXARRAY_KERNEL_CACHE", "0", 1),       # at least one executable
])
def test_valid_values_parse(name, text, want, monkeypatch):
    monkeypatch.setenv(name, text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert env_vars.value(name) == want


def test_import_never_fails_on_a_setting(tmp_path):
    # every setting malformed at once, and a misspelt one: the import succeeds with one
    # warning each, and the defaults are in force
    env = dict(os.environ, JAX_PLATFORMS="cpu", LAXARRAY_COMPILATON_CACHE="typo", **BAD)
    code = ("import warnings; warnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    import laxarray as xp\n"
            "    from laxarray._core import buckets, modes\n"
            "import json; print(json.dumps({'warned': [str(x.message) for x in w],\n"
            "    'precision': modes.get_matmul_precision(), 'limit': buckets.BUCKET_LIMIT,\n"
            "    'sum': float(xp.sum(xp.ones(3)))}))")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    ours = [m for m in got["warned"] if m.startswith("laxarray: LAXARRAY_")]
    for name in [*BAD, "LAXARRAY_COMPILATON_CACHE"]:
        assert sum(name + "=" in m or name + " is not" in m for m in ours) == 1, (name, ours)
    assert got["precision"] == "highest" and got["limit"] == 1 << 15 and got["sum"] == 3.0
