"""``--xfails FILE`` / ``--skips FILE``: the official array-api-tests suite's expectation
files (format of array-api-compat's ``numpy-xfails.txt``) mapped to specs."""

import io
import json
import re

import pytest

from laxarray.conformance import SPECS, expectations
from laxarray.conformance.__main__ import main


def untried_stripped(text):
    """The closing line of a text report without its tail of untried cells (", with N
    untried": how many depends on the examples run)."""
    return re.sub(r", with \d+ untried$", "", text.rstrip().splitlines()[-1])


pytest.importorskip("array_api_compat.numpy")

SUITE = "array_api_tests"


def run_cli(argv):
    out = io.StringIO()
    status = main(list(argv) + ["--no-progress"], stdout=out)
    return status, out.getvalue()


@pytest.mark.parametrize("entry, names", [
    (f"{SUITE}/test_operators_and_elementwise_functions.py::test_add", ["add"]),
    (f"{SUITE}/test_operators_and_elementwise_functions.py::test_add[add(x1, x2)]", ["add"]),
    (f"{SUITE}/test_linalg.py::test_solve", ["linalg.solve"]),
    (f"{SUITE}/test_linalg.py::test_matmul", ["matmul"]),
    (f"{SUITE}/test_linalg.py::test_linalg_matmul", ["linalg.matmul"]),
    (f"{SUITE}/test_fft.py::test_fft", ["fft.fft"]),
    (f"{SUITE}/test_special_cases.py::test_unary[sign(x_i is NaN) -> NaN]", ["sign"]),
    (f"{SUITE}/test_data_type_functions.py::test_finfo[float32]", ["finfo"]),
    (f"{SUITE}/test_creation_functions.py::test_asarray_scalars", ["asarray"]),
    (f"{SUITE}/test_array_object.py::test_setitem_masking", ["__setitem__"]),
    (f"array-api-tests/{SUITE}/test_statistical_functions.py::test_sum", ["sum"]),
    ("test_linalg_solve", ["linalg.solve"]),
    ("test_cumulative_sum", ["cumulative_sum"]),
    ("sum", ["sum"]),
])
def test_entries_map_to_specs(entry, names):
    assert expectations.map_entry(entry, set(SPECS)) == (names, "")


def test_whole_extension_file_maps_to_its_specs():
    specs, _ = expectations.map_entry(f"{SUITE}/test_fft.py", set(SPECS))
    assert specs == sorted(n for n in SPECS if n.startswith("fft."))


@pytest.mark.parametrize("entry", [
    f"{SUITE}/test_signatures.py::test_func_signature[bitwise_and]",
    f"{SUITE}/test_has_names.py::test_has_names[linalg-solve]",
    f"{SUITE}/test_special_cases.py::test_iop[__iadd__(x1_i is NaN) -> NaN]",
    f"{SUITE}/test_special_cases.py::test_binary[__floordiv__(x1_i is +infinity) -> +infinity]",
    f"{SUITE}/test_operators_and_elementwise_functions.py::test_add[__add__(x1, x2)]",
    f"{SUITE}/test_special_cases.py::test_unary",
    f"{SUITE}/test_creation_functions.py",
    "test_no_such_function",
    "no_such_spec*",
])
def test_unmappable_entries_say_why(entry):
    specs, why = expectations.map_entry(entry, set(SPECS))
    assert specs == [] and why


def test_file_format(tmp_path):
    path = tmp_path / "xfails.txt"
    path.write_text("# a comment\n\n"
                    f"{SUITE}/test_linalg.py::test_solve  # trailing comment\n"
                    "   \n"
                    f"{SUITE}/test_signatures.py::test_func_signature[clip]\n"
                    "linalg.solve\n")
    mapping, unmapped = expectations.load(str(path), SPECS)
    assert mapping == {"linalg.solve": f"{path}:3"}  # the first line naming a spec
    assert unmapped == [f"{path}:5: {SUITE}/test_signatures.py::test_func_signature[clip] "
                        "(the runner does not check signatures)"]


def test_xfails_option(tmp_path):
    # NumPy's finfo gives NumPy scalars (a known failure, xfailed in array-api-compat's own
    # numpy-xfails.txt with this very line); add passes: an xpass
    path = tmp_path / "numpy-xfails.txt"
    path.write_text("# attributes are np.float32 instead of float\n"
                    f"{SUITE}/test_data_type_functions.py::test_finfo[float32]\n"
                    f"{SUITE}/test_operators_and_elementwise_functions.py::test_add\n"
                    f"{SUITE}/test_special_cases.py::test_iop[__iadd__(x1_i is NaN) -> NaN]\n")
    jpath, hpath = tmp_path / "r.json", tmp_path / "r.html"
    status, text = run_cli(["--namespace", "numpy", "--functions", "finfo,add,abs",
                            "--max-examples", "5", "--seed", "0", "--no-shrink",
                            "--xfails", str(path), "--json", str(jpath), "--html", str(hpath)])
    assert status == 0, text
    assert untried_stripped(text) == "1 passed, 0 failed, 1 xfailed, 1 xpassed"
    assert f"unmapped: {path}:4: " in text and "in-place operators" in text
    doc = json.loads(jpath.read_text())
    records = {r["name"]: r for r in doc["runs"][0]["results"]}
    assert records["finfo"]["status"] == "xfail"
    assert records["finfo"]["message"].startswith(f"expected to fail ({path}:2)")
    assert records["add"]["status"] == "xpass" and records["abs"]["status"] == "pass"
    assert doc["runs"][0]["unmapped"][0].startswith(f"{path}:4: ")
    page = hpath.read_text()
    assert "Unmapped expectation entries" in page and "<b>finfo</b> (xfail)" in page
    # without the file, finfo is a failure
    status, _ = run_cli(["--namespace", "numpy", "--functions", "finfo", "--max-examples",
                         "5", "--seed", "0", "--no-shrink"])
    assert status == 1


def test_skips_option(tmp_path):
    path = tmp_path / "skips.txt"
    path.write_text("# skipped here\n\n"
                    f"{SUITE}/test_linalg.py::test_solve\n"
                    "abs  # a spec name works too\n")
    jpath = tmp_path / "r.json"
    status, text = run_cli(["--namespace", "array_api_compat.numpy", "--functions",
                            "abs,linalg.solve,add", "--max-examples", "3", "--seed", "0",
                            "--skips", str(path), "--json", str(jpath)])
    assert status == 0, text
    assert untried_stripped(text) == "1 passed, 0 failed, 2 skipped"
    records = {r["name"]: r for r in json.loads(jpath.read_text())["runs"][0]["results"]}
    assert records["linalg.solve"] == {**records["linalg.solve"], "status": "skipped",
                                       "message": f"skipped by {path}:3", "examples": 0}
    assert records["abs"]["message"] == f"skipped by {path}:4"
    assert records["add"]["status"] == "pass"


@pytest.mark.parametrize("option", ["--xfails", "--skips"])
def test_missing_file_is_a_bad_argument(tmp_path, capsys, option):
    missing = tmp_path / "nope.txt"
    status, text = run_cli(["--namespace", "numpy", "--functions", "add", option,
                            str(missing)])
    assert status == 2 and text == ""
    err = capsys.readouterr().err
    assert f"cannot read {option} file" in err and "nope.txt" in err
